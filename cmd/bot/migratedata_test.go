package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// migrateData runs bot migrate-data with args and the environment's
// TTTBOT_DATABASE_URL set to envURL.
func migrateData(t *testing.T, envURL string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	getenv := func(k string) string {
		if k == "TTTBOT_DATABASE_URL" {
			return envURL
		}
		return ""
	}
	err = dispatch(t.Context(), env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: getenv}, append([]string{"migrate-data"}, args...))
	return out.String(), errb.String(), err
}

// Bad flags are refused with a message that says what to give, before
// anything is read or written.
func TestMigrateDataFlags(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.db")
	tests := []struct {
		name   string
		envURL string
		args   []string
		want   string
	}{
		{"no source", "", []string{"-to", "postgres://localhost/x"}, "-from: name the SQLite database file"},
		{"no target", "", []string{"-from", missing}, "-to: name the PostgreSQL database"},
		{"target not PostgreSQL", "", []string{"-from", missing, "-to", "other.db"}, "-to: want a postgres:// URL"},
		{"target's password kept out", "", []string{"-from", missing, "-to", "mysql://u:hunter2@host/db"}, "xxxxx"},
		{"source a URL", "", []string{"-from", "postgres://localhost/a", "-to", "postgres://localhost/b"}, "-from: want the SQLite database file"},
		{"stray argument", "", []string{"-from", missing, "-to", "postgres://localhost/x", "extra"}, `unexpected argument "extra"`},
		{"missing source", "postgres://127.0.0.1:1/x", []string{"-from", missing}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := migrateData(t, tt.envURL, tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}

// migrate-data copies a bot's database, prints what it copied, and refuses
// to copy into it again.
func TestMigrateDataCmd(t *testing.T) {
	url := pgtest.URL(t)
	from := filepath.Join(t.TempDir(), "tttbot.db")
	db, err := sqlite.Open(t.Context(), from, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"c1", "c2"} {
		g := &tttbot.Game{ChannelID: ch, Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bot",
			BotLevel: "easy", XPlayer: "alice", OPlayer: "bot", Turn: "alice", Status: tttbot.StatusActive}
		if err := db.StartGame(t.Context(), g, nil); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	out, errOut, err := migrateData(t, url, "-from", from)
	if err != nil {
		t.Fatalf("migrate-data: %v\n%s", err, errOut)
	}
	for _, want := range []string{"copying " + from + " into ", "the consistency check passed", "rebuilt from the copied rows"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, re := range []string{`(?m)^\s+games\s+2\s*$`, `(?m)^\s+players\s+2\s*$`, `(?m)^\s+moves\s+0\s*$`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output does not match %s:\n%s", re, out)
		}
	}
	// Not a terminal: no progress lines.
	if errOut != "" {
		t.Errorf("got stderr %q, want none off a terminal", errOut)
	}
	if _, _, err := migrateData(t, "", "-from", from, "-to", url); err == nil || !strings.Contains(err.Error(), "copies into an empty database only") {
		t.Errorf("a second copy: got %v, want a refusal", err)
	}
}
