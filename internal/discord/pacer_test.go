package discord

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTime is a clock whose sleeps advance it, recording each.
type fakeTime struct {
	now    time.Time
	sleeps []time.Duration
}

func (f *fakeTime) Now() time.Time { return f.now }

func (f *fakeTime) Sleep(ctx context.Context, d time.Duration) error {
	f.sleeps = append(f.sleeps, d)
	f.now = f.now.Add(d)
	return ctx.Err()
}

func TestPacer(t *testing.T) {
	const s = time.Second
	type step struct {
		shard     int
		start     bool
		took      time.Duration // from the slot to the end of the connection
		ok        bool
		wantSleep time.Duration // before the slot; 0 for none
	}
	tests := []struct {
		name  string
		limit sessionLimit
		steps []step
	}{
		{"one bucket: each waits 5s from the previous one's end", sessionLimit{total: 1000, remaining: 1000, concurrency: 1}, []step{
			{0, true, 300 * time.Millisecond, true, 0},
			{1, true, 100 * time.Millisecond, true, 5 * s},
			{2, true, 0, true, 5 * s},
		}},
		{"two buckets: one shard each at once, the next after 5s", sessionLimit{total: 1000, remaining: 1000, concurrency: 2}, []step{
			{0, true, 0, true, 0},
			{1, true, 0, true, 0},
			{2, true, 0, true, 5 * s},
			{3, true, 0, true, 0},
		}},
		{"starts exhausted: the reset is awaited", sessionLimit{total: 1000, remaining: 1, concurrency: 4, resetAfter: 60 * s}, []step{
			{0, true, 0, true, 0},
			{1, true, 0, true, 60 * s},
		}},
		{"a failed start gives its session start back", sessionLimit{total: 1000, remaining: 1, concurrency: 4, resetAfter: 60 * s}, []step{
			{0, true, 0, false, 0},
			{1, true, 0, true, 0},
		}},
		{"no limit announced: none kept", sessionLimit{concurrency: 1}, []step{
			{0, true, 0, true, 0},
			{1, true, 0, true, 5 * s},
		}},
		{"a reconnection takes no session start, but is paced", sessionLimit{total: 1000, remaining: 0, concurrency: 1, resetAfter: 60 * s}, []step{
			{0, false, 0, true, 0},
			{0, false, 0, true, 5 * s},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
			p := newPacer(tt.limit, IdentifyInterval, nil, clock.Now, clock.Sleep, slog.New(slog.DiscardHandler))
			for i, st := range tt.steps {
				clock.sleeps = nil
				done, err := p.acquire(t.Context(), st.shard, st.start)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				var want []time.Duration
				if st.wantSleep > 0 {
					want = []time.Duration{st.wantSleep}
				}
				if !slices.Equal(clock.sleeps, want) {
					t.Errorf("step %d (shard %d): slept %v, want %v", i, st.shard, clock.sleeps, want)
				}
				clock.now = clock.now.Add(st.took)
				done(st.ok)
			}
		})
	}
}

// A bucket holds one connection at a time: the next waits for its end.
func TestPacerOneAtATime(t *testing.T) {
	clock := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	p := newPacer(sessionLimit{total: 10, remaining: 10, concurrency: 1}, IdentifyInterval, nil, clock.Now, clock.Sleep, slog.New(slog.DiscardHandler))
	done, err := p.acquire(t.Context(), 0, true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := p.acquire(ctx, 1, true); err != context.Canceled {
		t.Errorf("while shard 0 connects: got %v, want to wait until cancelled", err)
	}
	done(true)
}

// settle waits out the interval since each bucket's last connection, and
// logs the wait and why.
func TestPacerSettle(t *testing.T) {
	clock := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	var logs bytes.Buffer
	p := newPacer(sessionLimit{total: 10, remaining: 10, concurrency: 2}, IdentifyInterval, nil, clock.Now, clock.Sleep, slog.New(slog.NewTextHandler(&logs, nil)))
	if err := p.settle(t.Context()); err != nil || len(clock.sleeps) != 0 || logs.Len() != 0 {
		t.Fatalf("before any connection: slept %v, %v, logged %q; want nothing", clock.sleeps, err, logs.String())
	}
	for _, shard := range []int{0, 1} {
		done, err := p.acquire(t.Context(), shard, true)
		if err != nil {
			t.Fatal(err)
		}
		clock.now = clock.now.Add(time.Second)
		done(true)
	}
	clock.now = clock.now.Add(time.Second) // the connections ended 2s and 1s ago
	clock.sleeps = nil
	if err := p.settle(t.Context()); err != nil || !slices.Equal(clock.sleeps, []time.Duration{4 * time.Second}) {
		t.Errorf("after connections 2s and 1s ago: slept %v, %v; want 4s", clock.sleeps, err)
	}
	if want := `msg="gateway closed, waiting out discord's identify interval so that a restart can identify at once" wait=4s`; !strings.Contains(logs.String(), want) {
		t.Errorf("got log %q, want %q", logs.String(), want)
	}
}

// With a shared lock, each connection holds its bucket's lock from its
// start until interval after its end; a lock that fails fails the turn and
// gives its session start back.
func TestPacerSharedLock(t *testing.T) {
	clock := &fakeTime{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
	var mu sync.Mutex
	var events []string
	fail := false
	lock := func(_ context.Context, bucket int) (func(), error) {
		mu.Lock()
		defer mu.Unlock()
		if fail {
			return nil, errors.New("database down")
		}
		events = append(events, fmt.Sprint("lock ", bucket))
		return func() {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, fmt.Sprint("unlock ", bucket))
		}, nil
	}
	p := newPacer(sessionLimit{total: 10, remaining: 1, concurrency: 2}, time.Millisecond, lock, clock.Now, clock.Sleep, slog.New(slog.DiscardHandler))
	fail = true
	if _, err := p.acquire(t.Context(), 3, true); err == nil {
		t.Fatal("acquire with the lock failing: got nil, want its error")
	}
	fail = false
	done, err := p.acquire(t.Context(), 3, true) // the session start given back
	if err != nil {
		t.Fatal(err)
	}
	if len(clock.sleeps) != 0 {
		t.Errorf("slept %v, want no wait for the reset: the failed turn gave its start back", clock.sleeps)
	}
	done(true)
	if err := p.settle(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"lock 1", "unlock 1"}; !slices.Equal(events, want) {
		t.Errorf("got %q, want %q", events, want)
	}
}
