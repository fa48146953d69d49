package health

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tttbot/tttbot"
)

// ErrUnavailable marks the error of a store call that failed while the
// database was known to be unavailable (errors.Is). Its caller logs it at
// debug level: the outage has lines of its own.
var ErrUnavailable = errors.New("database unavailable")

// Level is the level to log a failure err at: debug when it is a symptom of
// a known outage (ErrUnavailable), else error.
func Level(err error) slog.Level {
	if errors.Is(err, ErrUnavailable) {
		return slog.LevelDebug
	}
	return slog.LevelError
}

// Unavailable reports whether err says the database did not answer in
// time or could not be reached: a deadline passed, or the connection was
// refused, reset or closed. Engines add their own (a lock held past the busy
// timeout) through DatabaseOptions.Unavailable.
func Unavailable(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// DatabaseOptions configure a Database; the zero value works.
type DatabaseOptions struct {
	// Unavailable classifies a store call's error; nil is the package's
	// Unavailable.
	Unavailable func(error) bool
	// Failures within Window make an outage (default 3 within 10s): one
	// slow call is not one.
	Failures int
	Window   time.Duration
	// Quiet is how long the database must answer without a failure, after
	// an outage, to be back (default 10s): a database that flaps has one
	// outage, not one per flap, and so has one whose writes wait out
	// SQLite's busy timeout (10s) behind another process's lock while its
	// reads answer.
	Quiet  time.Duration
	Now    func() time.Time // default time.Now
	Logger *slog.Logger     // default slog.Default()
}

// Database owns what the bot knows of its database's state, learned from
// the outcome of every store call and health probe (Observe). It logs one
// line when the database becomes unavailable, with the reason, and one when
// it is back, with how long it was down and how many interactions failed or
// were deferred meanwhile. It is safe for concurrent use.
type Database struct {
	opts DatabaseOptions

	// down is written under mu and read without it by the calls that
	// only ask: every store call's answer asks it, and takes no lock while
	// the database is up.
	down atomic.Bool

	mu        sync.Mutex
	fails     []failedCall // the latest failures while up, oldest first, at most opts.Failures
	since     time.Time    // the outage's first failure
	recovered time.Time    // the first answer after the outage's latest failure; zero if none yet
	failed    int          // interactions whose store call failed in the outage
	deferred  int          // interactions deferred in the outage
	seen      [2]map[string]bool
	rotated   time.Time
	outages   int
}

// NewDatabase returns a Database that starts up.
func NewDatabase(opts DatabaseOptions) *Database {
	if opts.Unavailable == nil {
		opts.Unavailable = Unavailable
	}
	if opts.Failures <= 0 {
		opts.Failures = 3
	}
	if opts.Window <= 0 {
		opts.Window = 10 * time.Second
	}
	if opts.Quiet <= 0 {
		opts.Quiet = 10 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Database{opts: opts, seen: [2]map[string]bool{{}, {}}}
}

// Observe learns from the outcome of one store call made with ctx, and
// returns the error its caller gets: err itself, marked ErrUnavailable when
// it is a symptom of a known outage. A nil error or a refusal of the game's
// rules is an answer; an error that Unavailable accepts is a failure; the
// caller's own cancellation and any other error say nothing of the
// database.
func (d *Database) Observe(ctx context.Context, err error) error {
	var refusal *tttbot.Error
	switch {
	case err == nil || errors.As(err, &refusal):
		d.answered()
		return err
	case errors.Is(err, context.Canceled) || !d.opts.Unavailable(err):
		return err
	}
	id := ""
	if in := tttbot.InteractionFrom(ctx); in != nil {
		id = in.ID
	}
	if d.failure(err, id) {
		return unavailable{err}
	}
	return err
}

// answered notes an answer, which ends an outage once the database has
// answered without a failure for Quiet.
func (d *Database) answered() {
	if !d.down.Load() {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.down.Load() {
		return
	}
	now := d.opts.Now()
	if d.recovered.IsZero() {
		d.recovered = now
	}
	if now.Sub(d.recovered) < d.opts.Quiet {
		return
	}
	d.opts.Logger.Info("database back", "down_for", d.recovered.Sub(d.since).Round(time.Millisecond).String(),
		"failed_interactions", d.failed, "deferred_interactions", d.deferred)
	d.down.Store(false)
	d.failed, d.deferred, d.seen = 0, 0, [2]map[string]bool{{}, {}}
}

// Deferred counts an interaction whose answer was deferred, for the line
// that ends the outage, if the outage is known by then.
func (d *Database) Deferred() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.down.Load() {
		d.deferred++
	}
}

// failure notes a failure of a call made for the interaction id ("" for
// none), and reports whether the database is now known to be unavailable.
func (d *Database) failure(err error, id string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.opts.Now()
	if d.down.Load() {
		d.recovered = time.Time{}
		d.count(id, now)
		return true
	}
	if len(d.fails) == d.opts.Failures {
		d.fails = append(d.fails[:0], d.fails[1:]...)
	}
	d.fails = append(d.fails, failedCall{at: now, interaction: id})
	if len(d.fails) < d.opts.Failures || now.Sub(d.fails[0].at) > d.opts.Window {
		return false
	}
	d.down.Store(true)
	d.since, d.recovered = d.fails[0].at, time.Time{}
	d.outages++
	d.opts.Logger.Warn("database unavailable", "reason", err.Error())
	// The failures that opened the outage are its first.
	for _, f := range d.fails {
		d.count(f.interaction, now)
	}
	d.fails = d.fails[:0]
	return true
}

// count counts the interaction id as failed, once. An interaction ends
// within a minute, so two generations of a minute each are enough to
// recognise it again.
func (d *Database) count(id string, now time.Time) {
	if id == "" || d.seen[0][id] || d.seen[1][id] {
		return
	}
	if now.Sub(d.rotated) > time.Minute {
		d.seen[0], d.seen[1], d.rotated = map[string]bool{}, d.seen[0], now
	}
	d.seen[0][id] = true
	d.failed++
}

// Up reports whether the database is not known to be unavailable.
func (d *Database) Up() bool { return !d.down.Load() }

// Outages reports how many times the database became unavailable.
func (d *Database) Outages() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.outages
}

// failedCall is a failed store call: when, and for which interaction ("" for
// none).
type failedCall struct {
	at          time.Time
	interaction string
}

// unavailable is an error marked ErrUnavailable, with its own message.
type unavailable struct{ error }

func (e unavailable) Unwrap() error { return e.error }

func (unavailable) Is(target error) bool { return target == ErrUnavailable }
