package sqlite

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/pressly/goose/v3"

	"github.com/tttbot/tttbot/internal/schema"
	"github.com/tttbot/tttbot/internal/storetest"
	"github.com/tttbot/tttbot/migrations"
)

// schemaOf lists the tables and indexes of the database at path, with their SQL.
func schemaOf(t *testing.T, path string) []string {
	t.Helper()
	c, err := sql.Open("sqlite3", dsn(path, map[string]string{"mode": "ro"}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rows, err := c.Query(`SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_schema
		WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'goose_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func TestMigrations(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "tttbot.db")

	applied, err := MigrateUp(ctx, path)
	if err != nil {
		t.Fatalf("up from empty: %v", err)
	}
	if len(applied) == 0 || applied[0].Version != 1 || applied[0].Name != "00001_games.sql" {
		t.Fatalf("up from empty: got %+v, want 00001_games.sql first", applied)
	}
	full := schemaOf(t, path)
	for _, table := range []string{"guilds", "players", "games", "moves", "results", "interactions"} {
		if !strings.Contains(strings.Join(full, "\n"), "table "+table+":") {
			t.Errorf("schema lacks table %s", table)
		}
	}

	st, err := MigrationStatus(ctx, path)
	if err != nil {
		t.Fatalf("status: %v", err)
	}
	last := applied[len(applied)-1].Version
	if st.Current != last || st.Latest != last || len(st.Migrations) != len(applied) {
		t.Fatalf("status: got current %d latest %d with %d migrations, want %d, %d, %d",
			st.Current, st.Latest, len(st.Migrations), last, last, len(applied))
	}
	for _, m := range st.Migrations {
		if !m.Applied || m.AppliedAt.IsZero() {
			t.Errorf("status: got %+v, want applied with a time", m)
		}
	}

	again, err := MigrateUp(ctx, path)
	if err != nil || len(again) != 0 {
		t.Errorf("up when current: got %v, %v; want nothing applied", again, err)
	}

	// Down every step, then up again: the same schema comes back.
	for i := len(applied) - 1; i >= 0; i-- {
		m, err := MigrateDown(ctx, path)
		if err != nil {
			t.Fatalf("down: %v", err)
		}
		if m.Version != applied[i].Version {
			t.Errorf("down: got version %d, want %d", m.Version, applied[i].Version)
		}
	}
	if got := schemaOf(t, path); len(got) != 0 {
		t.Errorf("schema after rolling everything back: got %q, want nothing", got)
	}
	st, err = MigrationStatus(ctx, path)
	if err != nil || st.Current != 0 || st.Migrations[0].Applied {
		t.Errorf("status after down: got %+v, %v; want version 0, nothing applied", st, err)
	}
	if _, err := MigrateDown(ctx, path); err == nil {
		t.Error("down past the first migration: got no error")
	}
	if _, err := MigrateUp(ctx, path); err != nil {
		t.Fatalf("up again: %v", err)
	}
	if diff := cmp.Diff(full, schemaOf(t, path)); diff != "" {
		t.Errorf("schema after down and up (-first +again):\n%s", diff)
	}

	// The store works on the re-created schema.
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.StartGame(t, db, "c1", "alice", "bob")
	integrity(t, path)
}

func TestSchemaTooNew(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "tttbot.db")
	if _, err := MigrateUp(ctx, path); err != nil {
		t.Fatal(err)
	}
	c, err := sql.Open("sqlite3", dsn(path, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec("INSERT INTO goose_db_version (version_id, is_applied) VALUES (9999, 1)"); err != nil {
		t.Fatal(err)
	}
	c.Close()

	if _, err := Open(ctx, path, Options{}); !errors.Is(err, schema.ErrTooNew) {
		t.Errorf("open: got %v, want schema.ErrTooNew", err)
	}
	if _, err := MigrateUp(ctx, path); !errors.Is(err, schema.ErrTooNew) {
		t.Errorf("up: got %v, want schema.ErrTooNew", err)
	}
	if _, err := MigrateDown(ctx, path); !errors.Is(err, schema.ErrTooNew) {
		t.Errorf("down: got %v, want schema.ErrTooNew", err)
	}
	st, err := MigrationStatus(ctx, path)
	if err != nil || st.Current != 9999 || st.Latest >= 9999 {
		t.Errorf("status: got %+v, %v; want current 9999 above latest", st, err)
	}
}

func TestMigrateMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing.db")
	if _, err := MigrationStatus(t.Context(), path); err == nil {
		t.Error("status of a missing database: got no error")
	}
	if _, err := MigrateDown(t.Context(), path); err == nil {
		t.Error("down of a missing database: got no error")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("status or down created the database: %v", err)
	}
}

// Opening a new database logs one line per applied migration, with its
// version and name, and none of the migrations' SQL.
func TestOpenLogsMigrations(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "tttbot.db")
	var buf bytes.Buffer
	db, err := Open(ctx, path, Options{Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	st, err := MigrationStatus(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range st.Migrations {
		want = append(want, fmt.Sprintf("INFO migration applied %d %s", m.Version, m.Name))
	}
	var got []string
	for line := range strings.Lines(buf.String()) {
		var r struct {
			Level, Msg string
			Version    int64
			Name       string
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		got = append(got, fmt.Sprintf("%s %s %d %s", r.Level, r.Msg, r.Version, r.Name))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
}

// TestCheckLists: 00019 writes the CHECK constraints of three values or
// more as comparisons, which SQLite checks without a temporary index, and
// its Down restores the lists; every connection, open before or not,
// checks the constraint in force.
func TestCheckLists(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "tttbot.db")
	if _, err := MigrateUp(ctx, path); err != nil {
		t.Fatal(err)
	}
	lists := regexp.MustCompile(`CHECK \(\w+ IN \('[^)]*,[^)]*,[^)]*\)`)
	if got := lists.FindAllString(strings.Join(schemaOf(t, path), "\n"), -1); len(got) != 0 {
		t.Errorf("after up: got CHECK lists %q, want none", got)
	}
	open := func() *sql.DB {
		db, err := sql.Open("sqlite3", dsn(path, nil))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if err := db.Ping(); err != nil {
			t.Fatal(err)
		}
		return db
	}
	before := open()
	refused := func(db *sql.DB) string {
		_, err := db.Exec("INSERT INTO guilds (id, updated_at, default_first) VALUES ('g', 0, 'nobody')")
		if err == nil {
			t.Fatal("an unknown default_first: got no error")
		}
		return err.Error()
	}
	if got, want := refused(before), "default_first = 'me' OR"; !strings.Contains(got, want) {
		t.Errorf("after up: got %q, want the constraint %q", got, want)
	}

	integrity(t, path)

	m, err := MigrateDown(ctx, path)
	if err != nil || m.Version != 19 {
		t.Fatalf("down: got %+v, %v; want version 19 rolled back", m, err)
	}
	if diff := cmp.Diff(schemaBefore(t, 19), schemaOf(t, path)); diff != "" {
		t.Errorf("schema after down (-up to 18 +down from 19):\n%s", diff)
	}
	if got, want := refused(before), "default_first IN ('me'"; !strings.Contains(got, want) {
		t.Errorf("after down, on a connection open before: got %q, want the constraint %q", got, want)
	}
	integrity(t, path)
}

// schemaBefore is the schema of a new database migrated up to the version
// before v.
func schemaBefore(t *testing.T, v int64) []string {
	t.Helper()
	files := fstest.MapFS{}
	names, err := fs.Glob(migrations.SQLite, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if version, _, _ := strings.Cut(n, "_"); version >= fmt.Sprintf("%05d", v) {
			continue
		}
		b, err := fs.ReadFile(migrations.SQLite, n)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = &fstest.MapFile{Data: b}
	}
	path := filepath.Join(t.TempDir(), "before.db")
	w, err := openWriter(path, true, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	m, err := schema.New(goose.DialectSQLite3, w, files)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Up(t.Context(), slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	return schemaOf(t, path)
}
