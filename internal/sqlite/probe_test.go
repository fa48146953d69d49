package sqlite

import (
	"context"
	"database/sql"
	"testing"
	"time"
)

// lockFile holds path's write lock from another connection, as an
// operator's `sqlite3 tttbot.db 'begin exclusive'` would, until the
// returned function releases it.
func lockFile(t *testing.T, path string) (release func()) {
	t.Helper()
	other, err := sql.Open("sqlite3", dsn(path, nil))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	c, err := other.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecContext(t.Context(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := c.ExecContext(context.Background(), "ROLLBACK"); err != nil {
			t.Error(err)
		}
		c.Close()
	}
}

// Ping gives up at its deadline while another process holds the write
// lock, rather than after the busy timeout, and leaves the moves' wait for
// that lock as it was.
func TestPingLocked(t *testing.T) {
	db, path := newDB(t, Options{})
	release := lockFile(t, path)

	const limit = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	start := time.Now()
	err := db.Ping(ctx)
	if took := time.Since(start); err == nil || took > limit+busyTimeout/10 {
		t.Errorf("ping on a locked file: got %v after %s, want an error within %s", err, took, limit)
	}

	var ms int64
	if err := db.w.QueryRowContext(t.Context(), "PRAGMA busy_timeout").Scan(&ms); err != nil || ms != busyTimeout.Milliseconds() {
		t.Errorf("writer's busy timeout after the probe: got %d, %v, want %d", ms, err, busyTimeout.Milliseconds())
	}
	release()
	if err := db.Ping(t.Context()); err != nil {
		t.Errorf("ping once the lock is released: %v", err)
	}
}

// A write waits out another process's lock held for longer than the busy
// timeout was (5s) but less than the write timeout, and commits: a stall
// shorter than a write may take costs no interaction.
func TestWriteWaitsOutLock(t *testing.T) {
	if testing.Short() {
		t.Skip("holds a lock for 6s")
	}
	db, path := newDB(t, Options{})
	release := lockFile(t, path)
	const held = 6 * time.Second
	released := make(chan struct{})
	go func() {
		defer close(released)
		<-time.After(held) // the lock's holder, not a wait for the write
		release()
	}()
	defer func() { <-released }()
	start := time.Now()
	err := db.write(t.Context(), func(ctx context.Context, tx *sql.Conn) error {
		_, err := tx.ExecContext(ctx, "SELECT 1") // BEGIN IMMEDIATE took the lock
		return err
	})
	if took := time.Since(start); err != nil || took < held {
		t.Errorf("write behind a lock held %s: got %v after %s, want it committed once the lock is released", held, err, took)
	}
}
