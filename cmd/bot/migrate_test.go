package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestMigrateCmd(t *testing.T) {
	dir := t.TempDir()
	steps := []struct {
		action string
		want   []string // in stdout
	}{
		{"up", []string{"applied 00001_games.sql", "applied 00002_ratings.sql", "applied 00003_interactions.sql", "bot.db is at version 3"}},
		{"up", []string{"bot.db is at version 3"}},
		{"status", []string{"is at version 3; this binary knows up to 3", "applied", "00001_games.sql", "00003_interactions.sql"}},
		{"down -yes", []string{"rolled back 00003_interactions.sql"}},
		{"status", []string{"is at version 2", "pending", "00003_interactions.sql"}},
		{"up", []string{"applied 00003_interactions.sql"}},
	}
	for i, s := range steps {
		out, errOut, err := invoke(t, migrateCmd, dir, strings.Fields(s.action)...)
		if err != nil {
			t.Fatalf("step %d, %s: %v\n%s", i, s.action, err, errOut)
		}
		for _, w := range s.want {
			if !strings.Contains(out, w) {
				t.Errorf("step %d, %s: got output %q, want it to contain %q", i, s.action, out, w)
			}
		}
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
	if !strings.Contains(out.String(), "bot.db is at version 3") {
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
	tests := []struct {
		name    string
		stdin   io.Reader
		args    []string
		want    string // in the error
		prompt  string // in stderr
		version string // after
	}{
		{"piped yes", strings.NewReader("yes\n"), []string{"down"},
			"this would roll back 00003_interactions.sql of DB, deleting what it added: add -yes to confirm", "", "version 3"},
		{"terminal without an answer", devNull, []string{"down"},
			"not confirmed: nothing changed", "This will roll back 00003_interactions.sql of DB, deleting what it added. Type yes to go on: ", "version 3"},
		{"-yes", strings.NewReader(""), []string{"down", "-yes"}, "", "", "version 2"},
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
			if err != nil || !strings.Contains(status, "is at "+tt.version) {
				t.Errorf("got %v, %q; want the database at %s", err, status, tt.version)
			}
		})
	}
}
