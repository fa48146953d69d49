package postgres

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// The runs of a write transaction that a deadlock or a serialization
// failure aborted: at most maxAttempts, the second retryBase after the
// first and each next one twice as long after the one before, less a
// random part of up to half (see backoff).
const (
	maxAttempts = 5
	retryBase   = 10 * time.Millisecond
)

// retryable reports whether err aborted a transaction that may simply run
// again: a deadlock between two transactions (rating bands, taken in the
// order two games happen to finish) or a serialization failure.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// connLost reports whether err is the loss of the connection rather than
// a statement's failure: what Transient calls a passing failure (the
// server ended the session, as when a backend is terminated or the server
// restarts, or the connection was reset or refused), or pgx found the
// connection closed before sending anything. A timeout is not: the
// caller's time is spent, and a second run would only spend more.
func connLost(err error) bool {
	if err == nil || pgconn.Timeout(err) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return false
	}
	return pgconn.SafeToRetry(err) || Transient(err)
}

// commitUnknown is a write transaction whose connection was lost after its
// COMMIT was sent and before the answer came: it may have committed, or
// may yet, as long as its backend, pid, lives.
type commitUnknown struct {
	err error
	pid uint32
}

func (e *commitUnknown) Error() string { return "commit outcome unknown: " + e.err.Error() }
func (e *commitUnknown) Unwrap() error { return e.err }

// errCommitted is a write whose commit's answer was lost, and which the
// replay check found committed: the change is stored, but what the
// transaction read on the way is not known. A method that can read its
// outcome back does so; any other reports this.
var errCommitted = errors.New("the change was stored, but the connection was lost before the database confirmed it")

// retry runs attempt until it succeeds, fails for good, or has run
// maxAttempts times, and returns its last error. A deadlock or a
// serialization failure runs it again, and so does, once, a connection
// lost before the transaction's COMMIT was sent: nothing was committed.
// One lost after it (commitUnknown) does not: the caller checks for a
// replay first. Before each run again it logs the failure and sleeps a
// backoff: the transactions that collided would collide again if they ran
// again at once, and the jitter spreads them apart.
func retry(attempt func() error, log *slog.Logger, sleep func(time.Duration)) error {
	lost := false
	for n := 1; ; n++ {
		err := attempt()
		switch {
		case n == maxAttempts:
			return err
		case retryable(err):
		case connLost(err) && !lost && !errors.As(err, new(*commitUnknown)):
			lost = true
		default:
			return err
		}
		wait := backoff(n)
		// A lost connection is an outage's, which health.Database logs
		// once: each write's part in it goes at debug level.
		level := slog.LevelWarn
		if connLost(err) {
			level = slog.LevelDebug
		}
		log.Log(context.Background(), level, "write retried", "attempt", n, "wait", wait, "err", err)
		sleep(wait)
	}
}

// backoff is the wait after the n-th failed run: retryBase·2ⁿ⁻¹, less a
// random part of up to half of it.
func backoff(n int) time.Duration {
	d := retryBase << (n - 1)
	return d - rand.N(d/2+1)
}

// read runs fn, a read, and once more when it lost its connection: a read
// changes nothing, so a second run is safe. The pool is reset first (see
// lost), so that the second run has a new connection.
func (db *DB) read(ctx context.Context, fn func() error) error {
	err := db.lost(fn())
	if !connLost(err) || ctx.Err() != nil {
		return err
	}
	db.opts.Logger.Debug("read retried", "err", err) // an outage's: see retry
	return db.lost(fn())
}

// lost resets the pool when err is a lost connection, and returns err: a
// server that restarted or ended its backends has left every connection
// in the pool dead, and the pool would otherwise hand them out one by one,
// each to fail a request. Connections in use are closed when handed back.
// A connection that could not be made (the server down, or out of
// connection slots) leaves the pool's others alone.
func (db *DB) lost(err error) error {
	var ce *pgconn.ConnectError
	if connLost(err) && !errors.As(err, &ce) {
		db.pool.Reset()
	}
	return err
}

// stored is err, a write's outcome, with errCommitted read as success:
// for the writes that return nothing but whether they were stored.
func stored(err error) error {
	if errors.Is(err, errCommitted) {
		return nil
	}
	return err
}
