package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
)

// queryForget deletes the oldest interactions, walking seen_at's index (see
// TestQueryPlans).
const queryForget = `DELETE FROM interactions WHERE id IN
	(SELECT id FROM interactions WHERE seen_at < ? ORDER BY seen_at LIMIT ?)`

// record inserts interaction id, inside the caller's transaction; a second
// insert of one ID is a replay.
func (db *DB) record(ctx context.Context, tx *sql.Conn, id string) error {
	res, err := tx.ExecContext(ctx, "INSERT INTO interactions (id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
		id, toMS(db.now(time.Time{})))
	if err != nil {
		return fmt.Errorf("record interaction: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("record interaction: %w", err)
	} else if n == 0 {
		return tttbot.ErrReplay
	}
	return nil
}

// Seen reports whether interaction id is recorded.
func (db *DB) Seen(ctx context.Context, id string) (bool, error) {
	var seen bool
	err := db.r.QueryRowContext(uncancelled(ctx), "SELECT EXISTS (SELECT 1 FROM interactions WHERE id = ?)", id).Scan(&seen)
	if err != nil {
		return false, fmt.Errorf("find interaction: %w", err)
	}
	return seen, nil
}

// Remember records ctx's interaction in a transaction of its own, unless
// one has already. See tttbot.InteractionStore.
func (db *DB) Remember(ctx context.Context) error {
	if in := tttbot.InteractionFrom(ctx); in == nil || in.Recorded() {
		return nil
	}
	// write records the interaction; there is nothing else to do.
	return db.write(ctx, func(context.Context, *sql.Conn) error { return nil })
}

// Forget deletes up to limit interactions seen before before, oldest
// first, through seen_at's index.
func (db *DB) Forget(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int64
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		res, err := tx.ExecContext(ctx, queryForget, before.UnixMilli(), limit)
		if err != nil {
			return fmt.Errorf("forget interactions: %w", err)
		}
		n, err = res.RowsAffected()
		if err != nil {
			return fmt.Errorf("forget interactions: %w", err)
		}
		return nil
	})
	return int(n), err
}
