package pgurl

import (
	"net/url"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"postgres://tttbot@db:5432/tttbot?sslmode=disable", "postgres://tttbot@db:5432/tttbot?sslmode=disable"},
		{"postgres://tttbot:s3cret@db/tttbot", "postgres://tttbot:xxxxx@db/tttbot"},
		{"postgres://tttbot@db/tttbot?password=s3cret&sslmode=require", "postgres://tttbot@db/tttbot?password=xxxxx&sslmode=require"},
		{"postgres://tttbot@db/tttbot?sslkey=k.pem&sslpassword=s3cret", "postgres://tttbot@db/tttbot?sslkey=k.pem&sslpassword=xxxxx"},
		{"postgresql://u:s3cret@db/t?password=s3cret&sslpassword=s3cret", "postgresql://u:xxxxx@db/t?password=xxxxx&sslpassword=xxxxx"},
		{"postgres://u@db/t?password=s3cret;sslmode=disable", "(a PostgreSQL URL)"},
		{"postgres://u@db/t?sslpassword=%zzs3cret", "(a PostgreSQL URL)"},
		{"host=db user=u password=s3cret", "(a PostgreSQL connection string)"},
		{"postgres://u:s3cret@db:port/t", "(a PostgreSQL connection string)"},
	}
	for _, tt := range tests {
		got := Redact(tt.in)
		if got != tt.want {
			t.Errorf("Redact(%q): got %q, want %q", tt.in, got, tt.want)
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("Redact(%q) = %q shows the secret", tt.in, got)
		}
	}
}

// FuzzRedact: what Redact gives back is a placeholder or a URL whose
// password and secret parameters, wherever they are, read Redacted.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{
		"postgres://u:p@db/t?sslmode=disable",
		"postgres://u@db/t?password=p&password=q&sslpassword=r",
		"postgres://u@db/t?sslmode=disable?sslpassword=p",
		"host=db password=p",
		"postgres://u@db/t?password=%zz",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Redact(s)
		if got == "" || strings.HasPrefix(got, "(a PostgreSQL") {
			return
		}
		u, err := url.Parse(got)
		if err != nil {
			t.Fatalf("Redact(%q) = %q, which does not parse: %v", s, got, err)
		}
		if p, ok := u.User.Password(); ok && p != Redacted {
			t.Fatalf("Redact(%q) = %q shows the password %q", s, got, p)
		}
		q, err := url.ParseQuery(u.RawQuery)
		if err != nil {
			t.Fatalf("Redact(%q) = %q, whose query does not parse: %v", s, got, err)
		}
		for _, p := range secretParams {
			for _, v := range q[p] {
				if v != Redacted {
					t.Fatalf("Redact(%q) = %q shows %s %q", s, got, p, v)
				}
			}
		}
	})
}
