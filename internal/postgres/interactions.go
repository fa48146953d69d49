package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
)

// Remember records ctx's interaction in a transaction of its own, unless
// one has already. See tttbot.InteractionStore.
func (db *DB) Remember(ctx context.Context) error {
	if in := tttbot.InteractionFrom(ctx); in == nil || in.Recorded() {
		return nil
	}
	// write records the interaction; there is nothing else to do.
	return stored(db.write(ctx, func(ctx context.Context, t *tx) error { return t.all(ctx, nil) }))
}

// PruneInteractions deletes interactions seen before before, at most
// limit, oldest first. Fewer than limit means none is left, or the oldest
// IDs include some seen later: the next call goes on. Instances that prune
// at once delete the same rows, each fewer.
func (db *DB) PruneInteractions(ctx context.Context, before time.Time, limit int) (int, error) {
	ct, err := db.pool.Exec(ctx, gamerow.QueryPruneInteractions, limit, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("prune interactions: %w", err)
	}
	return int(ct.RowsAffected()), nil
}
