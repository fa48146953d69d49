package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
)

// querySeen records an interaction's ID, and when it was seen.
const querySeen = "INSERT INTO interactions (id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING"

// record inserts interaction id, inside the caller's transaction; a second
// insert of one ID is a replay.
func (db *DB) record(ctx context.Context, tx *sql.Conn, id string) error {
	n, err := gamerow.InteractionID(id)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, querySeen, n, db.opts.At(time.Time{}).UnixMilli())
	if err != nil {
		return fmt.Errorf("record interaction: %w", err)
	}
	if k, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("record interaction: %w", err)
	} else if k == 0 {
		return tttbot.ErrReplay
	}
	return nil
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

// PruneInteractions deletes interactions seen before before, at most
// limit, oldest first. Fewer than limit means none is left, or the oldest
// IDs include some seen later: the next call goes on.
func (db *DB) PruneInteractions(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int64
	err := db.upkeep(ctx, func(ctx context.Context, tx *sql.Conn) error {
		res, err := tx.ExecContext(ctx, gamerow.QueryPruneInteractions, limit, before.UnixMilli())
		if err != nil {
			return fmt.Errorf("prune interactions: %w", err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return fmt.Errorf("prune interactions: %w", err)
		}
		return nil
	})
	return int(n), err
}
