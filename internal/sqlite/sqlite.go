// Package sqlite stores tttbot's games in a SQLite database: it opens the file
// with the settings a concurrent service needs, migrates its schema, and
// implements tttbot.Store. Each change is one IMMEDIATE transaction (or a
// savepoint of one, shared with the changes queued with it) that loads the
// game, applies the domain's method on *tttbot.Game, and saves what changed
// with the ratings or records a finished game leaves; the rules of a game's
// life are the domain's, the words for players internal/commands'.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3" // also registers the "sqlite3" driver

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/health"
	"github.com/tttbot/tttbot/internal/settingsrow"
)

var _ tttbot.Store = (*DB)(nil)

// DB is an open tttbot database. Writes go through a single connection whose
// transactions begin IMMEDIATE, so concurrent writers queue (see committer)
// instead of failing with "database is locked"; reads use their own pool
// and, thanks to WAL, never wait for a writer.
type DB struct {
	path string
	w    *sql.DB // one connection, BEGIN IMMEDIATE
	r    *sql.DB // read-only pool
	ckpt *sql.DB // one connection for checkpoints
	opts Options

	wrote chan struct{} // signalled after each commit, for checkpoint
	stop  chan struct{} // closed by Close
	done  chan struct{} // closed when checkpoint has returned
	once  sync.Once     // for Close

	commits *committer // runs the writes, several to a transaction when they queue

	// failed remembers the writes that failed for want of storage, for Ping.
	failed health.Failures

	// turnTimeouts are the guilds' turn timeouts as last read, which a
	// move on a game as seen assumes and its write checks (see playSeen).
	turnTimeouts settingsrow.TurnTimeouts
}

// Options tune a DB. The zero value is ready to use.
type Options = gamerow.Options

// Open opens (creating if needed) the database at path and migrates it to
// the latest schema. It refuses a database written by a newer binary.
func Open(ctx context.Context, path string, opts Options) (*DB, error) {
	opts = opts.WithDefaults()
	logger := opts.Logger
	m, err := openWriter(path, true, false)
	if err != nil {
		return nil, err
	}
	_, err = migrateUp(ctx, m, logger)
	if cerr := m.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close: %w", cerr)
	}
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	w, err := openWriter(path, false, true)
	if err != nil {
		return nil, err
	}
	r, err := sql.Open("sqlite3", dsn(path, map[string]string{"_query_only": "1"}))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	n := max(4, runtime.NumCPU())
	keepOpen(r, n)
	ckpt, err := sql.Open("sqlite3", dsn(path, nil))
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	keepOpen(ckpt, 1)
	db := &DB{path: path, w: w, r: r, ckpt: ckpt, opts: opts,
		wrote: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	db.commits = &committer{db: db}
	go db.checkpoint(logger)
	// A database the bot cannot write would fail every move: refuse it.
	if err := db.Ping(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	logger.Debug("database opened", "path", path)
	return db, nil
}

// openWriter opens the single write connection. With create false a missing
// file is an error rather than a new empty database. With journalInMemory,
// the bot's writer, the statement journal stays in memory (see below);
// without it, for migrations, whose statements may rewrite a whole table,
// it goes to a temporary file past 64 KiB.
func openWriter(path string, create, journalInMemory bool) (*sql.DB, error) {
	params := map[string]string{"_txlock": "immediate"}
	if !create {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("open database: %w", err) // the error names path
		}
		params["mode"] = "rw"
	}
	// SQLite's own checkpoints would run inside the commit that takes the
	// WAL past 1000 pages, syncing while every queued write waits:
	// checkpoint does that work on its own connection instead. The
	// statement journal keeps the pages a statement or a batch's savepoint
	// changes until it ends; past 64 KiB, as a finished game's or a batch's
	// does, SQLite would move it to a temporary file, created, written and
	// removed within the transaction.
	pragmas := "PRAGMA wal_autocheckpoint = 0"
	if journalInMemory {
		pragmas += "; PRAGMA temp_store = MEMORY"
	}
	w := sql.OpenDB(connector{dsn: dsn(path, params), drv: &sqlite3.SQLiteDriver{
		ConnectHook: func(c *sqlite3.SQLiteConn) error {
			_, err := c.Exec(pragmas, nil)
			return err
		},
	}})
	keepOpen(w, 1)
	if err := w.Ping(); err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return w, nil
}

// connector opens connections to dsn with drv, for a driver set up for one
// pool rather than registered for all.
type connector struct {
	dsn string
	drv *sqlite3.SQLiteDriver
}

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c connector) Driver() driver.Driver                        { return c.drv }

// keepOpen caps db at n connections and keeps them open for its life, so
// that their page caches and prepared statements last.
func keepOpen(db *sql.DB, n int) {
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
}

// dsn builds a URI filename carrying the settings every pooled connection
// needs: WAL so readers and the writer do not block each other, a busy
// timeout for other processes (a migration, a backup), foreign keys, NORMAL
// sync (durable across a process crash; WAL only risks the last commits on
// power loss) and a cache of prepared statements.
func dsn(path string, extra map[string]string) string {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", strconv.FormatInt(busyTimeout.Milliseconds(), 10))
	q.Set("_foreign_keys", "1")
	q.Set("_synchronous", "NORMAL")
	q.Set("_stmt_cache_size", "32")
	for k, v := range extra {
		q.Set(k, v)
	}
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: q.Encode()}
	return u.String()
}

// Close closes the database after letting SQLite refresh its query planner
// statistics.
func (db *DB) Close() error {
	var err error
	db.once.Do(func() {
		close(db.stop)
		<-db.done
		_, err = db.w.Exec("PRAGMA optimize")
		err = errors.Join(err, db.ckpt.Close(), db.r.Close(), db.w.Close())
	})
	return err
}

// checkpointInterval is how long checkpoint lets commits gather after one
// wakes it, so that each pass copies many, and a page written by many of
// them once.
const checkpointInterval = 50 * time.Millisecond

// restartFrames is the WAL size, in pages, past which checkpoint makes sure
// that the WAL starts over: 40 MB, about a second of writes at 2,000
// interactions a second. Each restart holds the writer for two syncs, a few
// milliseconds, so a WAL of 500 pages, restarted after almost every pass,
// kept the writer waiting 7% of the time under that load.
const restartFrames = 10000

// checkpoint copies the WAL back into the database file soon after commits,
// until Close, on a connection of its own. A PASSIVE checkpoint blocks
// neither the writer nor the readers, but under steady writes it never
// catches up, and only a WAL copied in full starts over instead of growing.
// So once the WAL is large, checkpoint copies what its pass missed with the
// writer held: a few pages and two syncs.
func (db *DB) checkpoint(log *slog.Logger) {
	defer close(db.done)
	failing := false
	for {
		select {
		case <-db.stop:
			return
		case <-db.wrote:
		}
		select {
		case <-db.stop:
			return
		case <-time.After(checkpointInterval):
		}
		frames, err := db.checkpointPass()
		if err == nil && frames >= restartFrames {
			err = db.catchUp()
		}
		// A disk that takes no writes fails every pass: one line when
		// checkpoints start failing, one when they work again.
		switch {
		case err != nil && !failing:
			log.Warn("checkpoint failing", "err", err)
		case err != nil:
			log.Debug("checkpoint failing", "err", err)
		case failing:
			log.Info("checkpoint working again")
		}
		failing = err != nil
	}
}

// checkpointPass runs a PASSIVE checkpoint and returns the WAL's size in
// pages.
func (db *DB) checkpointPass() (frames int, err error) {
	var busy, copied int
	if err := db.ckpt.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
		return 0, fmt.Errorf("checkpoint: %w", err)
	}
	return frames, nil
}

// catchUp finishes a checkpoint with the writer held, so that no commit
// races it and the next one starts the WAL over.
func (db *DB) catchUp() error {
	conn, err := db.w.Conn(context.Background())
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	defer conn.Close()
	_, err = db.checkpointPass()
	return err
}

// Ping checks that the database answers reads and takes writes. Its write
// commits the schema's user_version as it is (see probe): a change of
// nothing that still goes through the WAL to the disk, so that a full disk
// or a file the bot may not write fails it as it fails every move.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.r.PingContext(ctx); err != nil {
		return fmt.Errorf("read probe: %w", err)
	}
	if err := db.probe(ctx); err != nil {
		return fmt.Errorf("write probe: %w", err)
	}
	return db.failed.Err()
}

// storageFailure reports whether err is SQLite failing to store: a full
// disk, an I/O error, a file it may not write or open.
func storageFailure(err error) bool {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case sqlite3.ErrFull, sqlite3.ErrIoErr, sqlite3.ErrReadonly, sqlite3.ErrCantOpen:
		return true
	}
	return false
}

// write runs fn in an IMMEDIATE transaction on the write connection, alone
// or with the writes queued with it (see committer), and commits it if fn
// returns nil. The first write of an interaction (see tttbot.Interaction)
// records its ID in the same transaction, and refuses the replay of one
// recorded before with EREPLAY. It waits for its turn as long as ctx
// allows, then runs fn without ctx's cancellation (see uncancelled). Its
// outcome is what Ping reports of the writes: a failure for want of storage
// until a write commits.
func (db *DB) write(ctx context.Context, fn func(ctx context.Context, tx *sql.Conn) error) error {
	err := db.upkeep(ctx, fn)
	db.failed.Note(err, storageFailure(err))
	return err
}

// upkeep is write without its report to Ping, for the writes that keep the
// database in shape (pruning): that they commit, often with nothing to
// change, says nothing of whether a move can be stored.
func (db *DB) upkeep(ctx context.Context, fn func(ctx context.Context, tx *sql.Conn) error) error {
	return db.commits.write(ctx, fn)
}

// query is a gamerow.Query on the read pool.
func (db *DB) query(ctx context.Context, read func(gamerow.Rows) error, query string, args ...any) error {
	rows, err := db.r.QueryContext(uncancelled(ctx), query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return read(rows)
}

// uncancelled is ctx without its cancellation, for statements. go-sqlite3
// runs each statement of a cancellable context on a goroutine of its own, to
// be able to interrupt it: two hand-offs per statement, which under load
// leave the writer idle while the scheduler catches up. Statements take
// microseconds, and interrupting one would roll back its whole transaction.
func uncancelled(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// Backup writes a consistent copy of the live database to path, which must
// not exist yet. Writers carry on meanwhile.
func (db *DB) Backup(ctx context.Context, path string) error {
	return Backup(ctx, db.path, path)
}

// Backup writes a consistent copy of the database at src to dst, which must
// not exist yet, without migrating src or stopping a bot that is using it.
// VACUUM INTO reads one snapshot into a temporary file, which is synced and
// renamed, so that dst never holds a partial copy.
func Backup(ctx context.Context, src, dst string) error {
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("backup: %s already exists", dst)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("backup: %w", err)
	}
	// A connection of its own: query_only, as the read pool has, forbids
	// VACUUM INTO.
	r, err := sql.Open("sqlite3", dsn(src, map[string]string{"mode": "rw"}))
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer r.Close()
	tmp := dst + ".tmp"
	os.Remove(tmp) // a leftover of an interrupted backup
	if _, err := r.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("backup: %w", err)
	}
	if err := syncFile(filepath.Dir(dst)); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	return nil
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}
