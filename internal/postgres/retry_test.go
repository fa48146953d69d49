package postgres

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestRetry: a deadlock or a serialization failure runs the transaction
// again, after a growing, jittered wait and a log line each time, up to
// maxAttempts runs; so does a connection lost before COMMIT, until the
// streak of losses is lostFor old; any other outcome ends it at once, a connection
// lost after COMMIT too.
func TestRetry(t *testing.T) {
	deadlock := &pgconn.PgError{Code: "40P01", Message: "deadlock detected"}
	serialization := &pgconn.PgError{Code: "40001", Message: "could not serialize access"}
	other := &pgconn.PgError{Code: "23505", Message: "duplicate key"}
	lost := &pgconn.PgError{Severity: "FATAL", Code: "57P01", Message: "terminating connection due to administrator command"}
	unknown := &commitUnknown{err: lost}
	tests := []struct {
		name        string
		outcomes    []error // of each run, the last repeated
		wantRuns    int     // 0: until the waits add up to lostFor
		wantErr     error
		lostRetries int // of the retries, those after a lost connection; -1: all
	}{
		{"at once", []error{nil}, 1, nil, 0},
		{"after a deadlock", []error{deadlock, nil}, 2, nil, 0},
		{"after serialization failures", []error{serialization, serialization, nil}, 3, nil, 0},
		{"deadlocked every time", []error{deadlock}, maxAttempts, deadlock, 0},
		{"another failure", []error{other}, 1, other, 0},
		{"another failure after a deadlock", []error{deadlock, other}, 2, other, 0},
		{"after a lost connection", []error{lost, nil}, 2, nil, 1},
		{"lost three times", []error{lost, lost, lost, nil}, 4, nil, 3},
		{"lost every time", []error{lost}, 0, lost, -1},
		{"lost after a deadlock", []error{deadlock, lost, nil}, 3, nil, 1},
		{"commit unknown", []error{unknown}, 1, unknown, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var logs bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			runs := 0
			var waits []time.Duration
			now := time.Unix(0, 1)
			lost := &streak{now: func() time.Time { return now }}
			err := retry(t.Context(), "write", func() error {
				runs++
				return tt.outcomes[min(runs, len(tt.outcomes))-1]
			}, lost, log, func(d time.Duration) {
				waits = append(waits, d)
				now = now.Add(d)
			})
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("got %v, want %v", err, tt.wantErr)
			}
			if len(waits) != runs-1 || (tt.wantRuns != 0 && runs != tt.wantRuns) {
				t.Fatalf("got %d runs and %d waits, want %d runs and a wait between each two", runs, len(waits), tt.wantRuns)
			}
			var waited time.Duration
			for i, w := range waits {
				full := min(retryBase<<i, maxWait)
				if w < full/2 || w > full {
					t.Errorf("wait %d: got %s, want %s to %s", i+1, w, full/2, full)
				}
				waited += w
			}
			if tt.wantRuns == 0 && (waited < lostFor || waited-waits[len(waits)-1] >= lostFor) {
				t.Errorf("waited %s in %d waits, want the last to take the total to %s or past it", waited, len(waits), lostFor)
			}
			if got := strings.Count(logs.String(), `msg="write retried"`); got != len(waits) {
				t.Errorf("got %d log lines, want one a retry, %d:\n%s", got, len(waits), logs.String())
			}
			// A lost connection's retry is an outage's, logged at debug level.
			want := tt.lostRetries
			if want < 0 {
				want = len(waits)
			}
			if got := strings.Count(logs.String(), `level=DEBUG msg="write retried"`); got != want {
				t.Errorf("got %d retries logged at debug level, want %d:\n%s", got, want, logs.String())
			}
		})
	}
}

// TestBackoffJitter: the waits after one failure differ from run to run,
// so that the transactions that collided do not collide again in step.
func TestBackoffJitter(t *testing.T) {
	seen := map[time.Duration]bool{}
	for range 100 {
		seen[backoff(3)] = true
	}
	if len(seen) < 10 {
		t.Errorf("got %d different waits in 100, want them spread", len(seen))
	}
}

// TestStreak: calls wait for the server within lostFor of the first loss
// of a streak, which an answer ends; a call that comes later in the same
// streak, a long outage, fails at once.
func TestStreak(t *testing.T) {
	lostErr := &pgconn.PgError{Severity: "FATAL", Code: "57P03", Message: "the database system is starting up"}
	now := time.Unix(0, 1)
	lost := &streak{now: func() time.Time { return now }}
	runs := func() int {
		n := 0
		retry(t.Context(), "read", func() error { n++; return lostErr }, lost, slog.New(slog.DiscardHandler),
			func(d time.Duration) { now = now.Add(d) })
		return n
	}
	if n := runs(); n < 5 {
		t.Errorf("first call of an outage: got %d runs, want it to wait with several", n)
	}
	if n := runs(); n != 1 {
		t.Errorf("a call later in the outage: got %d runs, want 1", n)
	}
	retry(t.Context(), "read", func() error { return nil }, lost, slog.New(slog.DiscardHandler), nil)
	if n := runs(); n < 5 {
		t.Errorf("first call of the next outage: got %d runs, want it to wait with several", n)
	}
}
