package postgres

import "testing"

func TestDumpCommand(t *testing.T) {
	tests := []struct {
		url, path, want string
	}{
		{"postgres://u:secret@h:5432/db?sslmode=require", "x.dump",
			"pg_dump --format=custom --file=x.dump 'postgres://u@h:5432/db?sslmode=require'"},
		{"postgresql://h/db?password=secret&pool_max_conns=4&search_path=games&statement_timeout=5000", "/b/it's.dump",
			`pg_dump --format=custom --file='/b/it'\''s.dump' --schema=games postgresql://h/db`},
		{"postgres://h/db?options=-c%20statement_timeout%3D5s", "x",
			"pg_dump --format=custom --file=x 'postgres://h/db?options=-c%20statement_timeout%3D5s'"},
		{"postgres://h/db?sslkey=k.pem&sslpassword=secret&sslmode=verify-full", "x",
			"pg_dump --format=custom --file=x 'postgres://h/db?sslkey=k.pem&sslmode=verify-full'"},
	}
	for _, tt := range tests {
		got, err := DumpCommand(tt.url, tt.path)
		if err != nil || got != tt.want {
			t.Errorf("DumpCommand(%q, %q): got %q, %v; want %q", tt.url, tt.path, got, err, tt.want)
		}
	}
	if _, err := DumpCommand("mysql://h/db", "x"); err == nil {
		t.Error("a MySQL URL: got no error")
	}
}
