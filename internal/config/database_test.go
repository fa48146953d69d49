package config_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/config"
)

const pgURL = "postgres://tttbot:hunter2@db.example:5432/tttbot?sslmode=disable"

// TestDatabaseChoice: the SQLite file is the default and a URL chooses
// PostgreSQL. The environment's choice overrides the file's, and the
// file's the default: a URL in the environment wins over the path of a
// copied example file. Both set in one layer is refused, naming where each
// was set.
func TestDatabaseChoice(t *testing.T) {
	withPath := writeFile(t, "[database]\npath = \"games.db\"\n")
	withURL := writeFile(t, "[database]\nurl = \""+pgURL+"\"\n")
	tests := []struct {
		name     string
		file     string
		env      map[string]string
		postgres bool
		path     string // of SQLite, when not postgres
		wantErr  []string
	}{
		{name: "default", file: writeFile(t, ""), path: "tttbot.db"},
		{name: "path", file: withPath, path: "games.db"},
		{name: "url in the file", file: withURL, postgres: true},
		{name: "url from the environment", file: writeFile(t, ""), env: map[string]string{"TTTBOT_DATABASE_URL": pgURL}, postgres: true},
		{name: "path in the file, url from the environment", file: withPath, env: map[string]string{"TTTBOT_DATABASE_URL": pgURL}, postgres: true},
		{name: "the example file, url from the environment", file: "../../config.example.toml", env: map[string]string{"TTTBOT_DATABASE_URL": pgURL}, postgres: true},
		{name: "url in the file, path from the environment", file: withURL, env: map[string]string{"TTTBOT_DATABASE_PATH": "x.db"}, path: "x.db"},
		{name: "both in the file", file: writeFile(t, "# games\n[database]\npath = \"games.db\"\nurl = \""+pgURL+"\"\n"),
			wantErr: []string{"config.toml:3: database.path and database.url are both set: path keeps the games in SQLite, url in PostgreSQL; remove one"}},
		{name: "both in the file, one from the environment", file: writeFile(t, "[database]\npath = \"games.db\"\nurl = \""+pgURL+"\"\n"),
			env: map[string]string{"TTTBOT_DATABASE_URL": pgURL}, wantErr: []string{"config.toml:2: database.path and database.url are both set"}},
		{name: "both in the environment", file: writeFile(t, ""), env: map[string]string{"TTTBOT_DATABASE_PATH": "x.db", "TTTBOT_DATABASE_URL": pgURL},
			wantErr: []string{"environment: TTTBOT_DATABASE_PATH (database.path) and TTTBOT_DATABASE_URL (database.url) are both set"}},
		{name: "options with a raw =", file: writeFile(t, "[database]\nurl = \""+pgURL+"&options=-c statement_timeout=5s\"\n"),
			wantErr: []string{`config.toml:2: database.url: the value of parameter options holds "=", which a URL must percent-encode, as PostgreSQL's own tools do: write options=-c%20statement_timeout%3D5s`}},
		{name: "options percent-encoded", file: writeFile(t, "[database]\nurl = \""+pgURL+"&options=-c%20statement_timeout%3D5s\"\n"), postgres: true},
		{name: "password with a raw =", file: writeFile(t, "[database]\nurl = \"postgres://db.example/tttbot?password=hunter2=\"\n"),
			wantErr: []string{`config.toml:2: database.url: the value of parameter password holds "=", which a URL must percent-encode, as PostgreSQL's own tools do: write its value percent-encoded`}},
		{name: "not a PostgreSQL URL", file: writeFile(t, "[database]\nurl = \"mysql://root:hunter2@db/x\"\n"),
			wantErr: []string{"config.toml:2: database.url: want a PostgreSQL URL"}},
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
			if !tt.postgres && got.Database.Path != tt.path {
				t.Errorf("got SQLite at %q, want %q", got.Database.Path, tt.path)
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
