package postgres

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync/atomic"
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

// A call that lost its connection before anything was committed runs
// again, after the same backoff capped at maxWait, within lostFor of the
// first loss of the current streak (see streak): a fast restart refuses
// connections for a second or so (57P01 as it shuts down, refused and
// 57P03 as it starts), and lostFor leaves most of an interaction's work
// limit (15s). A longer outage fails its calls at once.
const (
	lostFor = 3 * time.Second
	maxWait = 250 * time.Millisecond
)

// streak times the current run of lost connections: from the first call
// that lost its connection since the last that did not. It is safe for
// concurrent use.
type streak struct {
	now   func() time.Time
	since atomic.Int64 // UnixNano of the first loss; 0: none
}

// lost notes a lost connection, and reports whether the streak is young
// enough to wait for the server.
func (s *streak) lost() bool {
	now := s.now().UnixNano()
	s.since.CompareAndSwap(0, now)
	return time.Duration(now-s.since.Load()) < lostFor
}

// answered reports whether err, a call's outcome, is the server's
// answer: success, or an error of its own that is not a lost connection.
func answered(err error) bool {
	var pe *pgconn.PgError
	return err == nil || errors.As(err, &pe) && !connLost(err)
}

// ended notes that the server answered.
func (s *streak) ended() {
	if s.since.Load() != 0 {
		s.since.Store(0)
	}
}

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

// retry runs attempt, what ("write" or "read"), until it succeeds or
// fails for good, and returns its last error. A deadlock or a
// serialization failure runs it again, up to maxAttempts runs in all; a
// connection lost before the transaction's COMMIT was sent (nothing was
// committed) or lost by a read, while lost's streak is younger than
// lostFor. One lost after COMMIT (commitUnknown) does not: the caller
// checks for a replay first. Nor does anything once ctx is done. Before
// each run again it logs the failure and sleeps a backoff: the
// transactions that collided would collide again if they ran again at
// once, and the jitter spreads them apart; a server that restarts gets
// time to come back.
func retry(ctx context.Context, what string, attempt func() error, lost *streak, log *slog.Logger, sleep func(time.Duration)) error {
	var collided int
	for n := 1; ; n++ {
		err := attempt()
		if answered(err) {
			lost.ended()
		}
		switch {
		case ctx.Err() != nil:
			return err
		case retryable(err):
			if collided++; collided == maxAttempts {
				return err
			}
		case connLost(err) && lost.lost() && !errors.As(err, new(*commitUnknown)):
		default:
			return err
		}
		wait := backoff(n)
		// A lost connection is an outage's, which health.Database logs
		// once: each call's part in it goes at debug level.
		level := slog.LevelWarn
		if connLost(err) {
			level = slog.LevelDebug
		}
		log.Log(ctx, level, what+" retried", "attempt", n, "wait", wait, "err", err)
		sleep(wait)
	}
}

// backoff is the wait after the n-th failed run: retryBase·2ⁿ⁻¹, at most
// maxWait, less a random part of up to half of it.
func backoff(n int) time.Duration {
	d := min(retryBase<<min(n-1, 16), maxWait)
	return d - rand.N(d/2+1)
}

// read runs fn, a read, again while it loses its connection (see retry): a
// read changes nothing, so running it again is safe. The pool is reset
// first (see lost), so that the next run has a new connection.
func (db *DB) read(ctx context.Context, fn func() error) error {
	return retry(ctx, "read", func() error { return db.lost(fn()) }, &db.streak, db.opts.Logger, time.Sleep)
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
