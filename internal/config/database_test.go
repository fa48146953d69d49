package config_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/config"
)

const pgURL = "postgres://tttbot:hunter2@db.example:5432/tttbot?sslmode=disable"

// TestDatabaseChoice: the SQLite file is the default, a URL chooses
// PostgreSQL, and a file and a URL both set is refused, naming where each
// was set.
func TestDatabaseChoice(t *testing.T) {
	withPath := writeFile(t, "[database]\npath = \"games.db\"\n")
	withURL := writeFile(t, "[database]\nurl = \""+pgURL+"\"\n")
	tests := []struct {
		name     string
		file     string
		env      map[string]string
		postgres bool
		wantErr  []string
	}{
		{name: "default", file: writeFile(t, "")},
		{name: "path", file: withPath},
		{name: "url in the file", file: withURL, postgres: true},
		{name: "url from the environment", file: writeFile(t, ""), env: map[string]string{"TTTBOT_DATABASE_URL": pgURL}, postgres: true},
		{name: "both in the file", file: writeFile(t, "[database]\npath = \"games.db\"\nurl = \""+pgURL+"\"\n"),
			wantErr: []string{"database.path and database.url are both set"}},
		{name: "path in the file, url from the environment", file: withPath, env: map[string]string{"TTTBOT_DATABASE_URL": pgURL},
			wantErr: []string{"database.path and TTTBOT_DATABASE_URL (database.url) are both set"}},
		{name: "url in the file, path from the environment", file: withURL, env: map[string]string{"TTTBOT_DATABASE_PATH": "x.db"},
			wantErr: []string{"TTTBOT_DATABASE_PATH (database.path) and database.url are both set"}},
		{name: "not a PostgreSQL URL", file: writeFile(t, "[database]\nurl = \"mysql://root:hunter2@db/x\"\n"),
			wantErr: []string{"database.url: want a PostgreSQL URL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := config.Load(tt.file, env(tt.env))
			if tt.wantErr != nil {
				if err == nil {
					t.Fatalf("got no error, want %q", tt.wantErr)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("got %q, want it to contain %q", err, w)
					}
				}
				if strings.Contains(err.Error(), "hunter2") {
					t.Errorf("got %q, which shows the password", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Database.Postgres() != tt.postgres {
				t.Errorf("got PostgreSQL %v, want %v", got.Database.Postgres(), tt.postgres)
			}
		})
	}
}

// TestDatabaseURLRedacted: the URL's secrets show nowhere, whether the
// password in the user part or the query, or the TLS key's passphrase.
func TestDatabaseURLRedacted(t *testing.T) {
	for _, raw := range []string{pgURL, "postgres://db.example/tttbot?user=tttbot&password=hunter2", "postgres://%zz:hunter2@x",
		"postgres://tttbot@db.example/tttbot?sslmode=verify-full&sslkey=key.pem&sslpassword=hunter2",
		"postgres://tttbot@db.example/tttbot?sslpassword=hunter2;sslmode=require"} {
		c := config.Default()
		c.Database.URL = config.DatabaseURL(raw)
		var buf bytes.Buffer
		c.NewLogger(&buf).Info("config loaded", "config", c)
		text, _ := c.Database.URL.MarshalText()
		for _, out := range []string{buf.String(), fmt.Sprintf("%v %s %q %+v %#v", c, c.Database.URL, c.Database.URL, c.Database, c.Database.URL),
			string(text), c.Database.Name()} {
			if strings.Contains(out, "hunter2") {
				t.Errorf("%s: password shown in %s", raw, out)
			}
		}
	}
	c := config.Database{Path: "x.db", URL: pgURL}
	if got, want := c.Name(), "postgres://tttbot:xxxxx@db.example:5432/tttbot?sslmode=disable"; got != want {
		t.Errorf("got name %q, want %q", got, want)
	}
}
