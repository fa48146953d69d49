package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"
)

// busyTimeout is how long a connection waits for a lock that another
// process holds (a migration, a backup, an operator's open transaction)
// before it fails with "database is locked": as long as a write may take
// on PostgreSQL (its writeTimeout), well inside an interaction's work
// limit (15s), so that a stall shorter than that costs no interaction.
const busyTimeout = 10 * time.Second

// probe is Ping's write: it commits the schema's user_version as it is, on
// the write connection, and gives up at ctx's deadline. A write's
// transaction, once begun, runs to its end without its caller's
// cancellation; a probe has no promise to keep, and must answer a health
// check in time, even while another process holds the lock. SQLite's wait
// for that lock heeds no interrupt, so the probe shortens the connection's
// busy timeout to its deadline meanwhile.
func (db *DB) probe(ctx context.Context) error {
	conn, err := db.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if d, ok := ctx.Deadline(); ok && time.Until(d) < busyTimeout {
		if err := setBusyTimeout(ctx, conn, max(time.Until(d), time.Millisecond)); err != nil {
			return err
		}
		defer func() {
			if setBusyTimeout(context.Background(), conn, busyTimeout) != nil {
				// The moves must not get a connection that gives up early.
				conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
	}
	var v int64
	if err := conn.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	// One statement, its own transaction: cut short, it leaves none open.
	_, err = conn.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
	return err
}

// setBusyTimeout sets how long conn waits for another process's lock.
func setBusyTimeout(ctx context.Context, conn *sql.Conn, d time.Duration) error {
	_, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", d.Milliseconds()))
	return err
}
