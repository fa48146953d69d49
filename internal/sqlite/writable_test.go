//go:build linux

package sqlite

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/diskfault"
	"github.com/tttbot/tttbot/internal/storetest"
)

// TestPingWrites checks that Ping fails, naming the file, while the disk
// takes no writes, and passes again once it does; and that Open refuses a
// database it cannot write.
func TestPingWrites(t *testing.T) {
	if !diskfault.Isolate(t) {
		return
	}
	db, path := newDB(t, Options{})
	storetest.OK(t, db.Ping(t.Context()))

	restore := diskfault.Unwritable(t)
	err := db.Ping(t.Context())
	if err == nil || !strings.HasPrefix(err.Error(), "write probe: ") {
		t.Errorf("ping on a disk that takes no writes: got %v, want a write probe error", err)
	}
	want := "open database " + path + ": write probe: "
	if _, err := Open(t.Context(), path, Options{}); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("open a database that cannot be written: got %v, want %q and the reason", err, want)
	}
	restore()
	if err := db.Ping(t.Context()); err != nil {
		t.Errorf("ping once the disk takes writes again: %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// TestPingReportsFailedWrites checks that Ping fails while the writes that
// need new pages fail, even though its own probe, which rewrites a page in
// place, still commits; and that it passes again after a write commits.
func TestPingReportsFailedWrites(t *testing.T) {
	db, _ := newDB(t, Options{})
	ctx := t.Context()
	exec := func(query string) error {
		return db.write(ctx, func(ctx context.Context, c *sql.Conn) error {
			_, err := c.ExecContext(ctx, query)
			return err
		})
	}
	// A max_page_count below the file's size holds the file at its size:
	// a disk that is full.
	storetest.OK(t, exec("PRAGMA max_page_count = 1"))
	grow := "INSERT INTO interactions (id, seen_at) " +
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000) SELECT i, i FROM n"
	if err := exec(grow); !storageFailure(err) {
		t.Fatalf("a write past max_page_count: got %v, want SQLITE_FULL", err)
	}
	// Pruning, which the timers run every second, commits with nothing to
	// delete: that is no sign that moves can be stored.
	if _, err := db.PruneInteractions(ctx, t0, 100); err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(ctx); err == nil || !strings.Contains(err.Error(), "a write failed") {
		t.Errorf("ping after a write failed for want of space: got %v, want the failed write", err)
	}
	storetest.OK(t, exec("PRAGMA max_page_count = 1073741823"))
	storetest.OK(t, exec(grow))
	if err := db.Ping(ctx); err != nil {
		t.Errorf("ping after a write committed again: %v", err)
	}
}
