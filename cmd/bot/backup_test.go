package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/sqlite"
)

func TestBackupCmd(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, err := invoke(t, migrateCmd, dir, "up"); err != nil {
		t.Fatalf("migrate up: %v\n%s", err, errOut)
	}
	// The bot is running, mid-game, while the backup is taken.
	db, err := sqlite.Open(t.Context(), filepath.Join(dir, "bot.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := &tttbot.Game{ChannelID: "c", Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bot",
		BotLevel: "easy", XPlayer: "alice", OPlayer: "bot", Status: tttbot.StatusActive}
	if err := db.StartGame(t.Context(), g, nil); err != nil {
		t.Fatal(err)
	}

	dst := filepath.Join(t.TempDir(), "copy.db")
	out, errOut, err := invoke(t, backupCmd, dir, dst)
	if err != nil {
		t.Fatalf("backup: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, "backed up") {
		t.Errorf("got output %q, want it to say it backed up", out)
	}
	cp, err := sqlite.Open(t.Context(), dst, sqlite.Options{})
	if err != nil {
		t.Fatalf("open the copy: %v", err)
	}
	defer cp.Close()
	if got, err := cp.Game(t.Context(), g.ID); err != nil || got.Board != ".../.../..." {
		t.Errorf("game in the copy: got %v, %v; want the started game", got, err)
	}

	if _, _, err := invoke(t, backupCmd, dir, dst); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("backup over an existing file: got %v, want an error saying it exists", err)
	}
	if _, errOut, err := invoke(t, backupCmd, dir); err == nil || !strings.Contains(errOut, "usage: bot backup") {
		t.Errorf("backup without a path: got %v and %q, want the usage", err, errOut)
	}
	missing := t.TempDir()
	if _, _, err := invoke(t, backupCmd, missing, filepath.Join(missing, "x.db")); err == nil {
		t.Error("backup of a missing database: got no error")
	}
	if _, err := os.Stat(filepath.Join(missing, "bot.db")); err == nil {
		t.Error("backup of a missing database created it")
	}
}

// TestBackupCmdPostgres: on PostgreSQL, backup says it is pg_dump's job and
// prints the command for the configured database, password left out.
func TestBackupCmdPostgres(t *testing.T) {
	dir := t.TempDir()
	writeConfig(t, dir, "[database]\nurl = \"postgres://tttbot:hunter2@db.example:5432/tttbot?sslmode=verify-full&pool_max_conns=8\"\n")
	out, errOut, err := invoke(t, backupCmd, dir, "/backups/tttbot.dump")
	if err == nil {
		t.Error("got no error, want the backup refused")
	}
	want := "pg_dump --format=custom --file=/backups/tttbot.dump 'postgres://tttbot@db.example:5432/tttbot?sslmode=verify-full'"
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "pg_dump's job") {
		t.Errorf("got stderr %q, want it to say backups are pg_dump's job and give %q", errOut, want)
	}
	if strings.Contains(out+errOut, "hunter2") {
		t.Errorf("got %q, which shows the password", out+errOut)
	}
}
