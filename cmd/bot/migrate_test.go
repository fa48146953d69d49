package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
		{"down", []string{"rolled back 00003_interactions.sql"}},
		{"status", []string{"is at version 2", "pending", "00003_interactions.sql"}},
		{"up", []string{"applied 00003_interactions.sql"}},
	}
	for i, s := range steps {
		out, errOut, err := invoke(t, migrateCmd, dir, s.action)
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
		{"status of a missing database", []string{"status"}, "no such file"},
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
