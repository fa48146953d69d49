package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// Ping gives up at its deadline while the table it writes is locked,
// rather than after a write's timeout, and passes once the lock is gone.
func TestPingLocked(t *testing.T) {
	db, url := newDB(t, Options{})
	release := pgtest.LockTable(t, url, "interactions") // the table the probe writes

	const limit = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	defer cancel()
	start := time.Now()
	err := db.Ping(ctx)
	if took := time.Since(start); err == nil || took > limit+writeTimeout/20 {
		t.Errorf("ping on a locked table: got %v after %s, want an error within %s", err, took, limit)
	}
	release()
	if err := db.Ping(t.Context()); err != nil {
		t.Errorf("ping once the lock is released: %v", err)
	}
}
