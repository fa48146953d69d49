package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/migrations"
)

// invoke runs a subcommand with -config naming a file, written on first use,
// that puts the database at dir/bot.db.
func invoke(t *testing.T, cmd func(context.Context, env, []string) error, dir string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cfg := filepath.Join(dir, "bot.toml")
	if _, err := os.Stat(cfg); err != nil {
		data := fmt.Sprintf("[database]\npath = %q\n", filepath.Join(dir, "bot.db"))
		if err := os.WriteFile(cfg, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	err = cmd(t.Context(), e, append([]string{"-config", cfg}, args...))
	return out.String(), errb.String(), err
}

// TestMigrateCmd goes up, down and up again on each engine: a SQLite file,
// and PostgreSQL when TTTBOT_TEST_POSTGRES names a server.
func TestMigrateCmd(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			dir := t.TempDir()
			name := "bot.db"
			if engine == "postgres" {
				url := pgtest.URL(t)
				writeConfig(t, dir, fmt.Sprintf("[database]\nurl = %q\n", url))
				name = pgtest.Schema(t, url)
			}
			last, before := latest(t)
			steps := []struct {
				action string
				want   []string // in stdout
			}{
				{"up", []string{"applied 00001_games.sql", "applied 00002_ratings.sql", "applied 00003_interactions.sql",
					"applied " + last.name, fmt.Sprint(" is at version ", last.version)}},
				{"up", []string{fmt.Sprint(" is at version ", last.version)}},
				{"status", []string{fmt.Sprintf("is at version %d; this binary knows up to %[1]d", last.version), "applied", "00001_games.sql", last.name}},
				{"down -yes", []string{"rolled back " + last.name}},
				{"status", []string{fmt.Sprint("is at version ", before.version), "pending", last.name}},
				{"up", []string{"applied " + last.name}},
			}
			for i, s := range steps {
				out, errOut, err := invoke(t, migrateCmd, dir, strings.Fields(s.action)...)
				if err != nil {
					t.Fatalf("step %d, %s: %v\n%s", i, s.action, err, errOut)
				}
				for _, w := range append(s.want, name) {
					if !strings.Contains(out, w) {
						t.Errorf("step %d, %s: got output %q, want it to contain %q", i, s.action, out, w)
					}
				}
			}
		})
	}
}

// migration names a migration file and its version.
type migration struct {
	name    string
	version int
}

// latest returns the binary's latest migration and the one before it, the
// same in both dialects.
func latest(t *testing.T) (last, before migration) {
	t.Helper()
	var got [2][]migration
	for i, files := range []fs.FS{migrations.SQLite, migrations.Postgres} {
		names, err := fs.Glob(files, "*.sql")
		if err != nil || len(names) < 2 {
			t.Fatalf("migrations: got %v, %v", names, err)
		}
		for _, n := range names[len(names)-2:] {
			v, err := strconv.Atoi(n[:5])
			if err != nil {
				t.Fatal(err)
			}
			got[i] = append(got[i], migration{n, v})
		}
	}
	if got[0][0] != got[1][0] || got[0][1] != got[1][1] {
		t.Fatalf("the dialects' latest migrations differ: %v and %v", got[0], got[1])
	}
	return got[0][1], got[0][0]
}

// writeConfig writes the configuration file that invoke uses in dir.
func writeConfig(t *testing.T, dir, data string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "bot.toml"), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateCmdDatabaseFromEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "env.db")
	var out bytes.Buffer
	e := env{stdout: &out, stderr: &out, getenv: func(k string) string {
		if k == "TTTBOT_DATABASE_PATH" {
			return path
		}
		return ""
	}}
	if err := migrateCmd(t.Context(), e, []string{"up"}); err != nil {
		t.Fatalf("up: %v\n%s", err, out.String())
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not created at the path from the environment: %v", err)
	}
}

func TestMigrateCmdRefuses(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in stderr, or in the error
	}{
		{"no action", nil, "usage: bot migrate"},
		{"two actions", []string{"up", "down"}, "usage: bot migrate"},
		{"unknown action", []string{"sideways"}, `unknown action "sideways"`},
		{"status of a missing database", []string{"status"}, "no such file or directory ('bot migrate up' creates it)"},
		{"down of a missing database", []string{"down"}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			_, errOut, err := invoke(t, migrateCmd, dir, tt.args...)
			if err == nil {
				t.Fatal("got no error")
			}
			if !strings.Contains(errOut+err.Error(), tt.want) {
				t.Errorf("got error %v and output %q, want %q", err, errOut, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "bot.db")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused command created the database: %v", err)
			}
		})
	}
}

// Flags may follow the action: before, `migrate up -config FILE` printed
// the usage.
func TestMigrateCmdFlagsAfterAction(t *testing.T) {
	dir := t.TempDir()
	invoke(t, migrateCmd, dir, "status") // writes the config file
	var out, errb bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	if err := migrateCmd(t.Context(), e, []string{"up", "-config", filepath.Join(dir, "bot.toml")}); err != nil {
		t.Fatalf("got %v: %s", err, errb.String())
	}
	last, _ := latest(t)
	if !strings.Contains(out.String(), fmt.Sprint("bot.db is at version ", last.version)) {
		t.Errorf("got %q, want the configured database migrated", out.String())
	}
}

// Down deletes data, so it asks first: only -yes, or a person typing yes at
// a terminal, goes ahead.
func TestMigrateCmdDownAsks(t *testing.T) {
	devNull, err := os.Open(os.DevNull) // a character device, as a terminal is
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	last, before := latest(t)
	tests := []struct {
		name    string
		stdin   io.Reader
		args    []string
		want    string // in the error
		prompt  string // in stderr
		version int    // after
	}{
		{"piped yes", strings.NewReader("yes\n"), []string{"down"},
			"this would roll back " + last.name + " of DB, deleting what it added: add -yes to confirm", "", last.version},
		{"terminal without an answer", devNull, []string{"down"},
			"not confirmed: nothing changed", "This will roll back " + last.name + " of DB, deleting what it added. Type yes to go on: ", last.version},
		{"-yes", strings.NewReader(""), []string{"down", "-yes"}, "", "", before.version},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "bot.db")
			if _, _, err := invoke(t, migrateCmd, dir, "up"); err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			e := env{stdin: tt.stdin, stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
			err := migrateCmd(t.Context(), e, append([]string{"-config", filepath.Join(dir, "bot.toml")}, tt.args...))
			want := strings.ReplaceAll(tt.want, "DB", db)
			if got := fmt.Sprint(err); want == "" && err != nil || want != "" && got != want {
				t.Errorf("got error %v, want %q", err, want)
			}
			if prompt := strings.ReplaceAll(tt.prompt, "DB", db); errb.String() != prompt {
				t.Errorf("got stderr %q, want %q", errb.String(), prompt)
			}
			status, _, err := invoke(t, migrateCmd, dir, "status")
			if err != nil || !strings.Contains(status, fmt.Sprint("is at version ", tt.version, ";")) {
				t.Errorf("got %v, %q; want the database at version %d", err, status, tt.version)
			}
		})
	}
}
