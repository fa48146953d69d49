package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// identifyLockSpace is the first key of the advisory locks of the gateway's
// rate-limit buckets, "ttt" in ASCII: it keeps them apart from any other
// advisory lock an operator's tools may take in the same database.
const identifyLockSpace = 0x747474

// LockBucket waits for the database-wide lock of a gateway rate-limit
// bucket and returns the func that releases it. Processes that share the
// shards of one bot share its database, and take turns through the lock
// to identify within Discord's pacing.
//
// Each lock has a connection of its own, outside the pool: a wait, which
// lasts as long as another process's turn, holds no connection the moves
// need, and closing the connection releases the lock, as a process's death
// does.
func (db *DB) LockBucket(ctx context.Context, bucket int) (release func(), err error) {
	conn, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, fmt.Errorf("lock gateway bucket %d: %w", bucket, err)
	}
	closeConn := func() {
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
		defer cancel()
		conn.Close(c)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1, $2)", identifyLockSpace, bucket); err != nil {
		closeConn()
		return nil, fmt.Errorf("lock gateway bucket %d: %w", bucket, err)
	}
	return closeConn, nil
}
