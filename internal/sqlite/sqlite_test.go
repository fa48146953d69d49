package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/storetest"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// clock is a settable test clock.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

// newDB opens a fresh database under t.TempDir with the clock at t0.
func newDB(t testing.TB, opts Options) (*DB, string) {
	t.Helper()
	if opts.Now == nil {
		opts.Now = (&clock{t0}).Now
	}
	path := filepath.Join(t.TempDir(), "tttbot.db")
	db, err := Open(t.Context(), path, opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return db, path
}

func TestOpenOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a dir?#%", "my db.sqlite")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := Open(t.Context(), path, Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not at its path: %v", err)
	}
}

func TestRestart(t *testing.T) {
	c := &clock{t0}
	path := filepath.Join(t.TempDir(), "tttbot.db")
	db := storetest.Must[*DB](t)(Open(t.Context(), path, Options{Now: c.Now}))
	g := storetest.StartGame(t, db, "c1", "alice", "bob")
	g = storetest.Must[*tttbot.Game](t)(db.Play(t.Context(), storetest.Click(g, "alice", 4), nil))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := Open(t.Context(), path, Options{Now: c.Now})
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer db.Close()
	got := storetest.Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID))
	if diff := cmp.Diff(g, got); diff != "" {
		t.Fatalf("game after restart (-before +after):\n%s", diff)
	}
	got = storetest.Must[*tttbot.Game](t)(db.Play(t.Context(), storetest.Click(got, "bob", 0), nil))
	if got.Board != "O../.X./..." || got.Version != 4 {
		t.Errorf("got board %q version %d, want %q version 4", got.Board, got.Version, "O../.X./...")
	}
	if n := len(storetest.Must[[]tttbot.Move](t)(db.Moves(t.Context(), g.ID))); n != 2 {
		t.Errorf("got %d moves, want 2", n)
	}
}

func TestBackup(t *testing.T) {
	db, path := newDB(t, Options{})
	g := storetest.StartGame(t, db, "c1", "alice", "bob")
	storetest.Must[*tttbot.Game](t)(db.Play(t.Context(), storetest.Click(g, "alice", 4), nil))

	dir := t.TempDir()
	for name, backup := range map[string]func(dst string) error{
		"method":   func(dst string) error { return db.Backup(t.Context(), dst) },
		"function": func(dst string) error { return Backup(t.Context(), path, dst) },
	} {
		dst := filepath.Join(dir, name+".db")
		if err := backup(dst); err != nil {
			t.Fatalf("%s: backup: %v", name, err)
		}
		if err := backup(dst); err == nil {
			t.Errorf("%s: backup over an existing file: got no error", name)
		}
		if _, err := os.Stat(dst + ".tmp"); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: temporary file left behind: %v", name, err)
		}
		b, err := Open(t.Context(), dst, Options{})
		if err != nil {
			t.Fatalf("%s: open backup: %v", name, err)
		}
		got, err := b.Game(t.Context(), g.ID)
		b.Close()
		if err != nil {
			t.Fatalf("%s: game in backup: %v", name, err)
		}
		if got.Board != ".../.X./..." {
			t.Errorf("%s: board in backup: got %q, want %q", name, got.Board, ".../.X./...")
		}
	}
	if err := Backup(t.Context(), filepath.Join(dir, "missing.db"), filepath.Join(dir, "x.db")); err == nil {
		t.Error("backup of a missing database: got no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.db")); !errors.Is(err, os.ErrNotExist) {
		t.Error("backup of a missing database created it")
	}
}

// integrity runs PRAGMA integrity_check on the database at path.
func integrity(t testing.TB, path string) {
	t.Helper()
	c, err := sql.Open("sqlite3", dsn(path, map[string]string{"mode": "ro"}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var got string
	if err := c.QueryRow("PRAGMA integrity_check").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "ok" {
		t.Fatalf("integrity_check: got %q, want ok", got)
	}
}

// TestCheckpointAfterCommits checks that commits wake the background
// checkpoint, which copies the WAL into the database file without waiting
// for SQLite's own at 1000 pages. The games started fill pages the file
// has not got, which it has once they are copied.
func TestCheckpointAfterCommits(t *testing.T) {
	db, path := newDB(t, Options{})
	size := func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	for i := range 100 {
		storetest.StartGame(t, db, fmt.Sprint("c", i), fmt.Sprint("a", i), fmt.Sprint("b", i))
	}
	for deadline := time.Now().Add(5 * time.Second); size() <= before; {
		if time.Now().After(deadline) {
			t.Fatalf("database file: got %d bytes 5s after a commit, want more than %d: no checkpoint", size(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestWALStartsOver checks that under a steady stream of commits the WAL
// still starts over: the checkpoint catches up with the writer held, since
// SQLite's own checkpoints are off and nothing else can. Without it the WAL
// would hold every page of every commit.
func TestWALStartsOver(t *testing.T) {
	db, _ := newDB(t, Options{})
	var auto int
	if err := db.w.QueryRow("PRAGMA wal_autocheckpoint").Scan(&auto); err != nil {
		t.Fatal(err)
	}
	if auto != 0 {
		t.Errorf("writer's wal_autocheckpoint: got %d, want 0", auto)
	}
	if _, err := db.w.Exec("CREATE TABLE scratch (id INTEGER PRIMARY KEY, b BLOB)"); err != nil {
		t.Fatal(err)
	}
	// Each commit rewrites a row of ten pages or more, until the commits
	// have written three times restartFrames and for twenty checkpoint
	// intervals, so that however fast the machine, the WAL started over.
	const pages = 10
	var pageSize int
	if err := db.w.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	blob := make([]byte, pages*pageSize)
	commits := 0
	for start := time.Now(); commits*pages < 3*restartFrames || time.Since(start) < 20*checkpointInterval; commits++ {
		err := db.write(t.Context(), func(ctx context.Context, tx *sql.Conn) error {
			_, err := tx.ExecContext(ctx, "REPLACE INTO scratch (id, b) VALUES (1, ?)", blob)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	frames, err := db.checkpointPass()
	if err != nil {
		t.Fatal(err)
	}
	if frames >= commits*pages {
		t.Errorf("WAL: got %d pages after %d commits of %d pages or more, want fewer: it never started over", frames, commits, pages)
	}
}

// TestWriteRollsBack checks that a write that fails, panics or finds its
// transaction already rolled back leaves nothing behind, and that the
// writer's connection comes back out of the transaction for the next write,
// rather than being closed.
func TestWriteRollsBack(t *testing.T) {
	db, _ := newDB(t, Options{})
	// A temporary table lives as long as the writer's one connection.
	if _, err := db.w.Exec("CREATE TABLE scratch (id INTEGER PRIMARY KEY); CREATE TEMP TABLE conn (id)"); err != nil {
		t.Fatal(err)
	}
	errRefused := errors.New("refused")
	tests := []struct {
		name string
		fn   func(ctx context.Context, tx *sql.Conn) error
	}{
		{"error", func(context.Context, *sql.Conn) error { return errRefused }},
		{"panic", func(context.Context, *sql.Conn) error { panic(errRefused) }},
		{"rolled back already", func(ctx context.Context, tx *sql.Conn) error {
			if _, err := tx.ExecContext(ctx, "ROLLBACK"); err != nil {
				return err
			}
			return errRefused
		}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := func() (err error) {
				defer func() {
					if p := recover(); p != nil {
						err = p.(error)
					}
				}()
				return db.write(t.Context(), func(ctx context.Context, tx *sql.Conn) error {
					if _, err := tx.ExecContext(ctx, "INSERT INTO scratch (id) VALUES (?)", i); err != nil {
						return err
					}
					return tt.fn(ctx, tx)
				})
			}()
			if !errors.Is(err, errRefused) {
				t.Errorf("write: got error %v, want %v", err, errRefused)
			}
			if db.commits.leading {
				t.Error("a write still running batches after the write")
			}
			var n int
			if err := db.w.QueryRow("SELECT count(*) FROM scratch").Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Errorf("rows after a failed write: got %d, want 0", n)
			}
			err = db.write(t.Context(), func(ctx context.Context, tx *sql.Conn) error {
				_, err := tx.ExecContext(ctx, "INSERT INTO scratch (id) VALUES (100)")
				return err
			})
			if err != nil {
				t.Fatalf("next write: %v", err)
			}
			if _, err := db.w.Exec("DELETE FROM scratch; SELECT * FROM temp.conn"); err != nil {
				t.Fatalf("writer's connection: %v, want the one from before", err)
			}
		})
	}
}

// queryPlan is SQLite's plan for query, its steps joined by "; ".
func queryPlan(t *testing.T, db *DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.r.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("explain %q: %v", query, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "; ")
}

// TestJournalInMemory: the bot's writer keeps its statement journal in
// memory (temp_store 2, MEMORY); the writer of a migration, which may
// rewrite a whole table, leaves it to SQLite's default (0), a file past
// 64 KiB.
func TestJournalInMemory(t *testing.T) {
	db, path := newDB(t, Options{})
	m, err := openWriter(path, false, false)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, tt := range []struct {
		name string
		w    *sql.DB
		want int
	}{{"the bot's writer", db.w, 2}, {"a migration's", m, 0}} {
		var got int
		if err := tt.w.QueryRow("PRAGMA temp_store").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s: got temp_store %d, want %d", tt.name, got, tt.want)
		}
	}
}
