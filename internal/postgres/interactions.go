package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
)

// queryForget deletes the interactions seen before $1 among the $2 with the
// lowest IDs: a walk of $2 entries from the primary key's left edge however
// large the table is. IDs grow with time, so these are the oldest; one
// recorded out of order is deleted once it is old itself.
const queryForget = `DELETE FROM interactions WHERE id IN
	(SELECT id FROM (SELECT id, seen_at FROM interactions ORDER BY id LIMIT $2) AS oldest WHERE seen_at < $1)`

// Remember records ctx's interaction in a transaction of its own, unless
// one has already. See tttbot.InteractionStore.
func (db *DB) Remember(ctx context.Context) error {
	if in := tttbot.InteractionFrom(ctx); in == nil || in.Recorded() {
		return nil
	}
	// write records the interaction; there is nothing else to do.
	return db.write(ctx, func(ctx context.Context, t *tx) error { return t.all(ctx, nil) })
}

// Forget deletes interactions seen before before, at most limit, oldest
// first. Fewer than limit means none is left, or the oldest IDs include
// some seen later: the next call goes on. Instances that forget at once
// delete the same rows, each fewer.
func (db *DB) Forget(ctx context.Context, before time.Time, limit int) (int, error) {
	ct, err := db.pool.Exec(ctx, queryForget, before.UnixMilli(), limit)
	if err != nil {
		return 0, fmt.Errorf("forget interactions: %w", err)
	}
	return int(ct.RowsAffected()), nil
}
