package ai

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tttbot/tttbot/internal/game"
)

// pacer records what a paced search reports, and rests for rest each call.
type pacer struct {
	calls  int
	worked time.Duration
	rest   time.Duration
}

func (p *pacer) Pace(done <-chan struct{}, worked time.Duration) {
	p.calls++
	p.worked += worked
	time.Sleep(p.rest)
}

// TestPaced: a paced engine's search calls its pacer as it goes and finds
// what the engine finds unpaced; the pacer's rests do not count in its
// time budget, which the clock of a synctest bubble, moved on only by the
// rests, shows: each rest alone outlasts the budget, and the work reported,
// from the search's start, takes none of that clock's time.
func TestPaced(t *testing.T) {
	p := game.NewPosition(game.MustGeometry(4, 5, 4)) // thousands of positions to search
	want, proven, err := New(Options{TimeBudget: time.Minute}).Value(t.Context(), p)
	if err != nil || !proven {
		t.Fatalf("unpaced: %d, proven %v, %v", want, proven, err)
	}
	synctest.Test(t, func(t *testing.T) {
		rec := &pacer{rest: time.Second}
		start := time.Now()
		got, proven, err := New(Options{TimeBudget: 100 * time.Millisecond}).Paced(rec).Value(context.Background(), p)
		if err != nil || !proven || got != want {
			t.Errorf("paced: %d, proven %v, %v; want %d, proven", got, proven, err, want)
		}
		if rec.calls == 0 || time.Since(start) != time.Duration(rec.calls)*time.Second || rec.worked != 0 {
			t.Errorf("paced %d times over %s, %s worked; want at least once, a second each, none worked", rec.calls, time.Since(start), rec.worked)
		}
	})
}
