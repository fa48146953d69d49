package postgres

import (
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

// retry runs attempt until it succeeds, fails for good, or has run
// maxAttempts times, and returns its last error. Before each run again it
// logs the failure and sleeps a backoff: the transactions that collided
// would collide again if they ran again at once, and the jitter spreads
// them apart.
func retry(attempt func() error, log *slog.Logger, sleep func(time.Duration)) error {
	for n := 1; ; n++ {
		err := attempt()
		if !retryable(err) || n == maxAttempts {
			return err
		}
		wait := backoff(n)
		log.Warn("write retried", "attempt", n, "wait", wait, "err", err)
		sleep(wait)
	}
}

// backoff is the wait after the n-th failed run: retryBase·2ⁿ⁻¹, less a
// random part of up to half of it.
func backoff(n int) time.Duration {
	d := retryBase << (n - 1)
	return d - rand.N(d/2+1)
}
