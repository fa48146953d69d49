package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/tttbot/tttbot"
)

// queryForget deletes the interactions seen before ?1 among the ?2 with the
// lowest IDs: a walk of ?2 rows from the table's left edge however large
// it is (see TestQueryPlans). IDs grow with time, so these are the oldest;
// one recorded out of order is deleted once it is old itself.
const queryForget = `DELETE FROM interactions WHERE id IN
	(SELECT id FROM (SELECT id, seen_at FROM interactions ORDER BY id LIMIT ?2) WHERE seen_at < ?1)`

// snowflake reads an interaction's ID as stored.
func snowflake(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return 0, tttbot.Errorf(tttbot.EINVALID, "I can't read this interaction's ID.")
	}
	return n, nil
}

// record inserts interaction id, inside the caller's transaction; a second
// insert of one ID is a replay.
func (db *DB) record(ctx context.Context, tx *sql.Conn, id string) error {
	n, err := snowflake(id)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, "INSERT INTO interactions (id, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
		n, toMS(db.now(time.Time{})))
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

// Forget deletes interactions seen before before, at most limit, oldest
// first. Fewer than limit means none is left, or the oldest IDs include
// some seen later: the next call goes on.
func (db *DB) Forget(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int64
	err := db.upkeep(ctx, func(ctx context.Context, tx *sql.Conn) error {
		res, err := tx.ExecContext(ctx, queryForget, before.UnixMilli(), limit)
		if err != nil {
			return fmt.Errorf("forget interactions: %w", err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return fmt.Errorf("forget interactions: %w", err)
		}
		return nil
	})
	return int(n), err
}
