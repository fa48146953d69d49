package postgres

import (
	"context"
	"fmt"
)

// identifyLockSpace is the first key of the advisory locks of the gateway's
// rate-limit buckets, "ttt" in ASCII: it keeps them apart from any other
// advisory lock an operator's tools may take in the same database.
const identifyLockSpace = 0x747474

// LockBucket waits for the database-wide lock of a gateway rate-limit
// bucket and returns the func that releases it. Processes that share the
// shards of one bot share its database, and take turns through the lock
// to identify within Discord's pacing; a process that dies releases its
// locks with its connection.
func (db *DB) LockBucket(ctx context.Context, bucket int) (release func(), err error) {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("lock gateway bucket %d: %w", bucket, err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1, $2)", identifyLockSpace, bucket); err != nil {
		// A cancelled wait may leave the connection mid-query: drop it.
		conn.Conn().Close(context.WithoutCancel(ctx))
		conn.Release()
		return nil, fmt.Errorf("lock gateway bucket %d: %w", bucket, err)
	}
	return func() {
		// The lock is the session's: a connection that cannot unlock it is
		// closed, which does.
		unlock, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
		defer cancel()
		if _, err := conn.Exec(unlock, "SELECT pg_advisory_unlock($1, $2)", identifyLockSpace, bucket); err != nil {
			conn.Conn().Close(unlock)
		}
		conn.Release()
	}, nil
}
