package i18n

import (
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// files is a small catalog: English, its German translation and a Polish
// one with Polish plural forms.
var files = fstest.MapFS{
	"en-US.toml": {Data: []byte(`
[hello]
description = "A greeting."
other = "Hello, {{.Name}}!"

[games]
description = "Count games."
one = "{{.Count}} game"
other = "{{.Count}} games"

[only_english]
description = "Not translated yet."
other = "Only in English"
`)},
	"de.toml": {Data: []byte(`
[hello]
other = "Hallo, {{.Name}}!"
[games]
one = "{{.Count}} Partie"
other = "{{.Count}} Partien"
`)},
	"pl.toml": {Data: []byte(`
[hello]
other = "Cześć, {{.Name}}!"
[games]
one = "{{.Count}} partia"
few = "{{.Count}} partie"
many = "{{.Count}} partii"
other = "{{.Count}} partii"
`)},
}

func TestLanguage(t *testing.T) {
	cat, err := Load(files, "en-US")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(cat.Codes(), " "), "en-US de pl"; got != want {
		t.Errorf("Codes: got %q, want %q", got, want)
	}
	tests := []struct {
		locale string
		id     string
		n      int // a plural count, if > -1
		want   string
	}{
		{"de", "hello", -1, "Hallo, Ada!"},
		{"en-US", "hello", -1, "Hello, Ada!"},
		{"en-GB", "hello", -1, "Hello, Ada!"},
		{"de-AT", "hello", -1, "Hallo, Ada!"},
		{"ja", "hello", -1, "Hello, Ada!"},
		{"", "hello", -1, "Hello, Ada!"},
		{"not a locale", "hello", -1, "Hello, Ada!"},
		{"de", "only_english", -1, "Only in English"},
		{"de", "no_such_message", -1, "no_such_message"},
		{"de", "games", 1, "1 Partie"},
		{"de", "games", 1500, "1.500 Partien"},
		{"en-US", "games", 1500, "1,500 games"},
		{"pl", "games", 1, "1 partia"},
		{"pl", "games", 3, "3 partie"},
		{"pl", "games", 5, "5 partii"},
		{"pl", "games", 22, "22 partie"},
		{"pl", "games", 1500, "1\u00a0500 partii"},
	}
	for _, tt := range tests {
		l := cat.For(tt.locale)
		var got string
		if tt.n >= 0 {
			got = l.N(tt.id, tt.n, nil)
		} else {
			got = l.T(tt.id, map[string]any{"Name": "Ada"})
		}
		if got != tt.want {
			t.Errorf("%q %s: got %q, want %q", tt.locale, tt.id, got, tt.want)
		}
	}
}

func TestLoadRefuses(t *testing.T) {
	tests := []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{"no source", fstest.MapFS{"de.toml": files["de.toml"]}, `no message file for the source locale "en-US"`},
		{"a file named by no locale", fstest.MapFS{"en-US.toml": files["en-US.toml"], "german.toml": files["de.toml"]}, "german.toml"},
		{"broken TOML", fstest.MapFS{"en-US.toml": {Data: []byte("[hello\nother = 1")}}, "en-US.toml"},
	}
	for _, tt := range tests {
		_, err := Load(tt.files, "en-US")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error naming %q", tt.name, err, tt.want)
		}
	}
}

func TestFields(t *testing.T) {
	tests := []struct {
		src, want string
		bad       bool
	}{
		{src: "plain", want: "plain"},
		{src: "{{.A}} and {{ .B }}.", want: "1 and two."},
		{src: "{{.A}}{{.A}}", want: "11"},
		{src: "{{if .A}}x{{end}}", bad: true},
		{src: "{{.A.B}}", bad: true},
		{src: "{{.}}", bad: true},
		{src: "{{.A", bad: true},
		{src: "{{printf \"%d\" .A}}", bad: true},
	}
	for _, tt := range tests {
		p, err := fields{}.Parse(tt.src, "", "")
		if tt.bad {
			if err == nil {
				t.Errorf("%q: parsed, want it refused", tt.src)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.src, err)
			continue
		}
		if got, err := p.Execute(map[string]any{"A": 1, "B": "two"}); err != nil || got != tt.want {
			t.Errorf("%q: got %q, %v; want %q", tt.src, got, err, tt.want)
		}
	}
	p, _ := fields{}.Parse("{{.Missing}}", "", "")
	if _, err := p.Execute(map[string]any{}); err == nil {
		t.Error("a missing value filled in without an error")
	}
}

// FuzzFields parses any text: it is refused or it fills in, never panics,
// and text without actions comes back as it was.
func FuzzFields(f *testing.F) {
	for _, s := range []string{"plain", "{{.A}} and {{ .B }}.", "{{", "}}{{", "{{.}}", "{{.A", "{{.A}}}", "⟦{{.A}}⟧"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := fields{}.Parse(src, "", "")
		if err != nil {
			return
		}
		got, err := p.Execute(map[string]any{"A": "x", "B": 2})
		if !strings.Contains(src, "{{") && (err != nil || got != src) {
			t.Errorf("%q: got %q, %v; want it unchanged", src, got, err)
		}
	})
}

// TestSharedData: one map of data worded in several languages at once, as
// a refusal's is, keeps its numbers and gives each language its own digits.
func TestSharedData(t *testing.T) {
	cat, err := Load(files, "en-US")
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{"Name": "Ada", "Games": 1500}
	want := map[string]string{"en-US": "1,500 games", "de": "1.500 Partien", "pl": "1\u00a0500 partii"}
	var wg sync.WaitGroup
	for range 4 {
		for code, w := range want {
			wg.Go(func() {
				l := cat.For(code)
				if got := l.N("games", 1500, data); got != w {
					t.Errorf("%s: got %q, want %q", code, got, w)
				}
				if got, w := l.T("hello", data), "Hallo, Ada!"; code == "de" && got != w {
					t.Errorf("%s: got %q, want %q", code, got, w)
				}
			})
		}
	}
	wg.Wait()
	if got := data["Games"]; got != 1500 {
		t.Errorf("the caller's Games: got %#v, want 1500", got)
	}
	if _, ok := data["Count"]; ok {
		t.Errorf("the caller's data got a Count: %v", data)
	}
}
