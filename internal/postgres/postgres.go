// Package postgres stores tttbot's games in PostgreSQL, for several bot
// instances sharing one database: it connects a pool through pgx, migrates
// the schema, and implements tttbot.Store as internal/sqlite does. Each
// change is one transaction that locks the game's row, applies the domain's
// method on *tttbot.Game, and saves what changed with the ratings or
// records a finished game leaves. A transaction's first statements travel
// with its BEGIN, and its writes with its COMMIT, so that a move costs two
// round trips to the server.
//
// The pool, statement timeout and TLS come from the URL's standard
// parameters: pool_max_conns, options=-c statement_timeout=5s (or
// statement_timeout=5000), sslmode and the like.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/health"
	"github.com/tttbot/tttbot/internal/pgurl"
	"github.com/tttbot/tttbot/internal/settingsrow"
)

var _ tttbot.Store = (*DB)(nil)

// Options tune a DB. The zero value is ready to use.
type Options = gamerow.Options

// DB is an open tttbot database on a PostgreSQL server.
type DB struct {
	pool *pgxpool.Pool
	opts Options

	// failed remembers the writes that failed for want of storage, for Ping.
	failed health.Failures

	// turnTimeouts are the guilds' turn timeouts as last read, which a
	// move on a game as seen assumes and its write checks (see playSeen).
	turnTimeouts settingsrow.TurnTimeouts

	// streak times the calls' lost connections, which they wait out for
	// a while (see retry).
	streak streak
}

// writeTimeout bounds a write transaction, which runs without its
// caller's cancellation (see write): a server that stops answering fails
// the write rather than holding the interaction forever.
const writeTimeout = 10 * time.Second

// Open connects to the database at url (postgres://user:password@host/db?…),
// migrates it to the latest schema and checks that it takes writes. It
// refuses a database written by a newer binary.
func Open(ctx context.Context, url string, opts Options) (*DB, error) {
	opts = opts.WithDefaults()
	logger := opts.Logger
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", cleanErr(err, url))
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	// Each connection prepares a move's one statement as it opens, once
	// the migrations have made its tables, rather than at its first use:
	// a lock held on the games then holds the statement's own transaction,
	// which its guard sees (see queryPlaySeen).
	var migrated atomic.Bool
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		if !migrated.Load() {
			return nil
		}
		_, err := c.Prepare(ctx, queryPlaySeen, queryPlaySeen)
		return err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", pgurl.Redact(url), cleanErr(err, url))
	}
	// The migrations run on the pool's connections: a connection costs the
	// server a process, and a start-up several.
	mdb := stdlib.OpenDBFromPool(pool)
	_, err = migrateUp(ctx, mdb, cfg.ConnConfig, logger)
	mdb.Close()
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("open database %s: %w", pgurl.Redact(url), err)
	}
	migrated.Store(true)
	pool.Reset() // the migrations' connections have not prepared it
	db := &DB{pool: pool, opts: opts, streak: streak{now: time.Now}}
	// A database the bot cannot write would fail every move: refuse it.
	if err := db.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open database %s: %w", pgurl.Redact(url), err)
	}
	logger.Debug("database opened", "url", pgurl.Redact(url), "pool", cfg.MaxConns)
	return db, nil
}

// Close closes the pool's connections once those in use are handed back.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// cleanErr keeps url's password out of err's text: pgx's parse errors
// quote the string they failed on, redacted only as well as pgx can tell
// where a password is. The reason, after the quote, stays.
func cleanErr(err error, url string) error {
	var pe *pgconn.ParseConfigError
	if !errors.As(err, &pe) {
		return err
	}
	msg := "cannot parse the database URL"
	if full := pe.Error(); strings.HasPrefix(full, "cannot parse `") {
		if i := strings.LastIndex(full, "`: "); i >= 0 {
			msg += ": " + full[i+3:]
		}
	}
	return errors.New(msg)
}

// Ping checks that the database answers and takes writes: the probe
// writes, which a server or session that is read-only (a standby, one out
// of disk) refuses, and commits. It also reports a write that
// failed for want of storage in the last health.FailureMemory, unless one has
// committed since. Unlike a write, the probe runs under ctx itself, not
// writeTimeout: it has no promise to keep, and must answer a health check
// in time. The pool drops a connection the probe leaves cut off or in a
// transaction.
func (db *DB) Ping(ctx context.Context) error {
	// A row of its own, which nothing else reads, inserted and deleted:
	// WAL to write and flush, on a connection that may write at all.
	probe := -1 - rand.Int64N(1<<62)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue("INSERT INTO interactions (id, seen_at) VALUES ($1, 0)", probe)
	b.Queue("DELETE FROM interactions WHERE id = $1", probe)
	queueCommit(b)
	if err := db.pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("write probe: %w", err)
	}
	return db.failed.Err()
}

// storageFailure reports whether err is the server failing to store: a
// full disk, an I/O error, a read-only server.
func storageFailure(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case "53100", // disk_full
		"58030", // io_error
		"25006": // read_only_sql_transaction
		return true
	}
	return false
}

// query is a gamerow.Query on the pool, for reads: run again once on a
// lost connection (see DB.read).
func (db *DB) query(ctx context.Context, read func(gamerow.Rows) error, query string, args ...any) error {
	return db.read(ctx, func() error { return db.queryOnce(ctx, read, query, args...) })
}

// queryOnce is a gamerow.Query on the pool, run once.
func (db *DB) queryOnce(ctx context.Context, read func(gamerow.Rows) error, query string, args ...any) error {
	rows, err := db.pool.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return read(rows)
}

// tx is a write transaction on one connection. begin sends BEGIN, the
// interaction's record and the first statements in one round trip; commit
// sends the writes and COMMIT in another.
type tx struct {
	c      *pgx.Conn
	in     int64 // the interaction to record; 0: none
	now    time.Time
	began  bool
	closed bool // committed

	// committing is set once COMMIT is sent, or the one statement of a
	// transaction that commits on its own: a connection lost from then on
	// leaves the outcome unknown.
	committing bool
}

// recordInteraction inserts an interaction's ID. A replay fails on the
// primary key, on the server, so that the statements sent after it in the
// same round trip, COMMIT included, do nothing. An insert racing one not
// yet committed waits for its outcome.
const recordInteraction = "INSERT INTO interactions (id, seen_at) VALUES ($1, $2)"

// replay reports whether err is recordInteraction's refusal.
func replay(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "interactions_pkey"
}

// begin starts the transaction with the statements of b (nil: none), whose
// callbacks see their results. It records the transaction's interaction
// first, and returns EREPLAY when the interaction was recorded before.
func (t *tx) begin(ctx context.Context, b *pgx.Batch) error {
	first := &pgx.Batch{}
	first.Queue("BEGIN")
	if t.in != 0 {
		first.Queue(recordInteraction, t.in, t.now.UnixMilli())
	}
	if b != nil {
		first.QueuedQueries = append(first.QueuedQueries, b.QueuedQueries...)
	}
	t.began = true
	err := t.c.SendBatch(ctx, first).Close()
	if replay(err) {
		return tttbot.ErrReplay
	}
	return err
}

// commit runs the statements of b (nil: none) and commits.
func (t *tx) commit(ctx context.Context, b *pgx.Batch) error {
	if b == nil {
		b = &pgx.Batch{}
	}
	queueCommit(b)
	t.committing = true
	if err := t.c.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	t.closed = true
	return nil
}

// all runs the statements of b as the whole transaction: BEGIN, the
// interaction's record, b and COMMIT in one round trip. b's callbacks must
// not refuse: the server has committed by the time they run.
func (t *tx) all(ctx context.Context, b *pgx.Batch) error {
	if b == nil {
		b = &pgx.Batch{}
	}
	queueCommit(b)
	t.committing = true
	if err := t.begin(ctx, b); err != nil {
		return err
	}
	t.closed = true
	return nil
}

// queueCommit adds COMMIT to b.
func queueCommit(b *pgx.Batch) {
	b.Queue("COMMIT").Exec(func(ct pgconn.CommandTag) error {
		// A transaction that failed answers COMMIT with ROLLBACK.
		if ct.String() != "COMMIT" {
			return errors.New("commit: the transaction was rolled back")
		}
		return nil
	})
}

// write runs fn in one transaction (fn calls begin and commit). The first
// write of an interaction (see tttbot.Interaction) records its ID in the
// same transaction, and refuses the replay of one recorded before with
// EREPLAY. It waits for a connection as long as ctx allows, then runs the
// transaction without ctx's cancellation, which would roll back a change
// the player has already been promised, but within writeTimeout. A
// transaction that a deadlock aborted runs again, and one that lost its
// connection before COMMIT runs again while the server comes back (see
// retry). One that lost it after COMMIT was sent may have committed: when it records an
// interaction, the replay check tells, and it runs again only if it did
// not, or returns errCommitted if it did; else it fails with
// commitUnknown. Its outcome is what Ping reports of the writes.
func (db *DB) write(ctx context.Context, fn func(ctx context.Context, t *tx) error) error {
	in := tttbot.InteractionFrom(ctx)
	if in != nil && in.Recorded() {
		in = nil // an earlier transaction of the interaction recorded it
	}
	var id int64
	if in != nil {
		var err error
		if id, err = gamerow.InteractionID(in.ID); err != nil {
			return err
		}
	}
	err := retry(ctx, "write", func() error {
		err := db.writeTx(ctx, id, fn)
		var unknown *commitUnknown
		if id == 0 || !errors.As(err, &unknown) {
			return err
		}
		// The check waits for a server that restarts, as a read does.
		var done bool
		cerr := db.read(ctx, func() (err error) {
			done, err = db.recorded(ctx, id, unknown.pid)
			return err
		})
		switch {
		case cerr != nil:
			db.opts.Logger.Debug("write's outcome unknown", "err", err, "check", cerr)
			return err
		case done:
			db.opts.Logger.Debug("write's commit unconfirmed", "committed", true, "err", err)
			return errCommitted
		default:
			db.opts.Logger.Debug("write's commit unconfirmed", "committed", false, "err", err)
			return unknown.err // lost before it committed: run again
		}
	}, &db.streak, db.opts.Logger, time.Sleep)
	db.failed.Note(err, storageFailure(err))
	if (err == nil || errors.Is(err, errCommitted)) && in != nil {
		in.SetRecorded()
	}
	return err
}

// recorded is the replay check of a write whose commit's answer was lost
// with its connection to backend pid: it reports whether interaction id is
// recorded, which the write's own transaction did if it committed. The
// server may not have read the write's last round trip yet: the backend is
// ended first, and waited for, up to 5 s (after its signal it commits
// nothing it has not begun to), so that its outcome is final. Then an
// insert of the ID, rolled back, waits for a transaction still holding it
// and tells. A replay recorded by another delivery of the interaction
// reads as the write's own commit: either way the change is stored.
func (db *DB) recorded(ctx context.Context, id int64, pid uint32) (bool, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
	defer cancel()
	var inserted bool
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(`SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity
		WHERE pid = $1 AND usename = current_user AND backend_type = 'client backend'`, int64(pid))
	b.Queue("INSERT INTO interactions (id, seen_at) VALUES ($1, 0) ON CONFLICT DO NOTHING", id).Exec(func(ct pgconn.CommandTag) error {
		inserted = ct.RowsAffected() == 1
		return nil
	})
	b.Queue("ROLLBACK")
	if err := db.lost(db.pool.SendBatch(ctx, b).Close()); err != nil {
		return false, fmt.Errorf("replay check: %w", err)
	}
	return !inserted, nil
}

// writeTx is one attempt of write's transaction, recording interaction id
// unless it is 0.
func (db *DB) writeTx(ctx context.Context, id int64, fn func(ctx context.Context, t *tx) error) error {
	c, err := db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", db.lost(err))
	}
	defer c.Release()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
	defer cancel()
	t := &tx{c: c.Conn(), in: id, now: db.opts.At(time.Time{})}
	defer func() {
		if !t.began || t.closed {
			return
		}
		// A connection whose transaction may still be open must not go
		// back to the pool: closed, the pool drops it.
		if _, err := t.c.Exec(ctx, "ROLLBACK"); err != nil {
			t.c.Close(ctx)
		}
	}()
	if err := db.lost(fn(ctx, t)); err != nil {
		if t.committing && connLost(err) && !pgconn.SafeToRetry(err) {
			return &commitUnknown{err, t.c.PgConn().PID()}
		}
		return err
	}
	if !t.closed {
		return errors.New("write transaction left open")
	}
	return nil
}
