package health_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"syscall"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/health"
)

// call is one store call's outcome, at a time from the test's start, for
// an interaction ("" for none: a timer's, a probe's).
type call struct {
	at          time.Duration
	err         error
	interaction string
}

func TestDatabase(t *testing.T) {
	refused := fmt.Errorf("dial tcp 127.0.0.1:5432: %w", syscall.ECONNREFUSED)
	slow := fmt.Errorf("play: %w", context.DeadlineExceeded)
	s := time.Second
	for _, tt := range []struct {
		name    string
		calls   []call
		want    string // the log, one line per entry
		up      bool
		outages int
	}{
		{"answers", []call{{0, nil, "a"}, {s, nil, ""}}, "", true, 0},
		{"one slow call", []call{{0, nil, "a"}, {s, slow, "b"}, {2 * s, nil, "c"}}, "", true, 0},
		{"failures further apart than the window", []call{
			{0, refused, "a"}, {6 * s, refused, "b"}, {12 * s, refused, "c"}, {18 * s, refused, "d"},
		}, "", true, 0},
		{"refusals and cancellations are not failures", []call{
			{0, tttbot.Errorf(tttbot.ECONFLICT, "taken"), "a"}, {0, context.Canceled, "b"},
			{0, errors.New("constraint"), "c"}, {0, refused, "d"}, {0, refused, "e"},
		}, "", true, 0},
		{"unavailable", []call{{0, refused, "a"}, {s, nil, ""}, {2 * s, refused, "b"}, {3 * s, refused, "c"}},
			"level=WARN msg=\"database unavailable\" reason=\"dial tcp 127.0.0.1:5432: connection refused\"\n", false, 1},
		{"unavailable, then back", []call{
			{0, slow, "a"}, {s, slow, "b"}, {2 * s, slow, ""}, // the outage: a, b
			{3 * s, refused, "c"}, {3 * s, refused, "a"}, {4 * s, refused, "d"},
			{5 * s, nil, ""}, {9 * s, nil, "e"}, // not quiet for long enough yet
			{10 * s, nil, "f"},
		}, "level=WARN msg=\"database unavailable\" reason=\"play: context deadline exceeded\"\n" +
			"level=INFO msg=\"database back\" down_for=5s failed_interactions=4 deferred_interactions=0\n", true, 1},
		{"a flapping database has one outage", []call{
			{0, refused, "a"}, {0, refused, "b"}, {0, refused, "c"},
			{2 * s, nil, ""}, {4 * s, refused, "d"}, {6 * s, nil, ""}, {8 * s, refused, ""}, {10 * s, nil, ""},
			{12 * s, nil, ""}, {15 * s, nil, ""},
		}, "level=WARN msg=\"database unavailable\" reason=\"dial tcp 127.0.0.1:5432: connection refused\"\n" +
			"level=INFO msg=\"database back\" down_for=10s failed_interactions=4 deferred_interactions=0\n", true, 1},
		{"two outages", []call{
			{0, refused, "a"}, {0, refused, "b"}, {0, refused, "c"}, {s, nil, ""}, {6 * s, nil, ""},
			{20 * s, refused, "a"}, {20 * s, refused, "b"}, {20 * s, refused, "d"}, {30 * s, nil, ""}, {35 * s, nil, ""},
		}, "level=WARN msg=\"database unavailable\" reason=\"dial tcp 127.0.0.1:5432: connection refused\"\n" +
			"level=INFO msg=\"database back\" down_for=1s failed_interactions=3 deferred_interactions=0\n" +
			"level=WARN msg=\"database unavailable\" reason=\"dial tcp 127.0.0.1:5432: connection refused\"\n" +
			"level=INFO msg=\"database back\" down_for=10s failed_interactions=3 deferred_interactions=0\n", true, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
			now := start
			var log bytes.Buffer
			d := health.NewDatabase(health.DatabaseOptions{Quiet: 5 * time.Second, Now: func() time.Time { return now }, Logger: quiet(&log)})
			for _, c := range tt.calls {
				now = start.Add(c.at)
				ctx := context.Background()
				if c.interaction != "" {
					ctx = tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: c.interaction})
				}
				if err := d.Observe(ctx, c.err); !errors.Is(err, c.err) {
					t.Fatalf("Observe(%v) = %v, want it wrapped", c.err, err)
				}
			}
			if got := log.String(); got != tt.want {
				t.Errorf("got log\n%s\nwant\n%s", got, tt.want)
			}
			if got := d.Up(); got != tt.up {
				t.Errorf("Up() = %v, want %v", got, tt.up)
			}
			if got := d.Outages(); got != tt.outages {
				t.Errorf("Outages() = %d, want %d", got, tt.outages)
			}
		})
	}
}

// A failure is marked ErrUnavailable, and logged at debug level by those
// who ask Level, only while the outage is known.
func TestDatabaseMarks(t *testing.T) {
	var log bytes.Buffer
	d := health.NewDatabase(health.DatabaseOptions{Failures: 2, Logger: quiet(&log)})
	refused := fmt.Errorf("query: %w", syscall.ECONNREFUSED)
	ctx := context.Background()
	for i, want := range []slog.Level{slog.LevelError, slog.LevelDebug, slog.LevelDebug} {
		err := d.Observe(ctx, refused)
		if got := health.Level(err); got != want {
			t.Errorf("failure %d: Level = %v, want %v", i, got, want)
		}
		if err.Error() != refused.Error() {
			t.Errorf("failure %d: got message %q, want %q", i, err, refused)
		}
	}
	for _, err := range []error{tttbot.Errorf(tttbot.ENOTFOUND, "no game"), context.Canceled, errors.New("constraint")} {
		if got := d.Observe(ctx, err); got != err {
			t.Errorf("Observe(%v) during the outage = %v, want it unchanged", err, got)
		}
	}
}

// The interactions deferred while the outage is known are counted in its
// "back" line.
func TestDatabaseDeferred(t *testing.T) {
	var log bytes.Buffer
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	d := health.NewDatabase(health.DatabaseOptions{Quiet: 5 * time.Second, Now: func() time.Time { return now }, Logger: quiet(&log)})
	ctx := context.Background()
	d.Deferred() // before the outage
	for range 3 {
		d.Observe(ctx, context.DeadlineExceeded)
	}
	d.Deferred()
	d.Deferred()
	d.Observe(ctx, nil)
	now = now.Add(5 * time.Second)
	d.Observe(ctx, nil)
	d.Deferred() // after it
	want := "level=WARN msg=\"database unavailable\" reason=\"context deadline exceeded\"\n" +
		"level=INFO msg=\"database back\" down_for=0s failed_interactions=0 deferred_interactions=2\n"
	if got := log.String(); got != want {
		t.Errorf("got log\n%s\nwant\n%s", got, want)
	}
}

// Behind another process's SQLite lock, writes fail every 5s (the busy
// timeout) while reads answer: by the defaults, that is one outage.
func TestDatabaseLockedWrites(t *testing.T) {
	var log bytes.Buffer
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	now := start
	locked := errors.New("database is locked") // as the engine's own Unavailable says
	d := health.NewDatabase(health.DatabaseOptions{
		Unavailable: func(err error) bool { return errors.Is(err, locked) },
		Now:         func() time.Time { return now }, Logger: quiet(&log),
	})
	ctx := context.Background()
	for at := range 60 { // a minute, a read each second and a write each 5s
		now = start.Add(time.Duration(at) * time.Second)
		d.Observe(ctx, nil)
		if at%5 == 0 {
			d.Observe(ctx, locked)
		}
		if got, want := d.Up(), at < 10; got != want {
			t.Fatalf("at %ds: Up() = %v, want %v", at, got, want)
		}
	}
	for at := 60; at <= 70; at++ { // the lock released
		now = start.Add(time.Duration(at) * time.Second)
		d.Observe(ctx, nil)
	}
	want := "level=WARN msg=\"database unavailable\" reason=\"database is locked\"\n" +
		"level=INFO msg=\"database back\" down_for=56s failed_interactions=0 deferred_interactions=0\n"
	if got := log.String(); got != want {
		t.Errorf("got log\n%s\nwant\n%s", got, want)
	}
}

// quiet is a logger writing to w without times.
func quiet(w *bytes.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
}

func TestUnavailable(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("constraint"), false},
		{context.Canceled, false},
		{fmt.Errorf("write: %w", context.DeadlineExceeded), true},
		{fmt.Errorf("dial: %w", syscall.ECONNREFUSED), true},
		{fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		{fmt.Errorf("read: %w", errors.Join(errors.New("x"), syscall.EPIPE)), true},
	} {
		if got := health.Unavailable(tt.err); got != tt.want {
			t.Errorf("Unavailable(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}
