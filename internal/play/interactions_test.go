package play_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// TestPruneInteractions: interactions are pruned once play.ReplayMemory
// has passed by the service's clock, however many, and not before.
func TestPruneInteractions(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	now := t0
	clock := func() time.Time { return now }
	ctx := t.Context()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	remember := func(id string) {
		t.Helper()
		if err := db.Remember(tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: id})); err != nil {
			t.Fatal(err)
		}
	}
	old := play.PruneBatch + 10 // more than one batch
	const later = "900000"
	for i := range old {
		remember(fmt.Sprint(1000 + i))
	}
	now = t0.Add(10 * time.Minute)
	remember(later)
	s := play.New(db, nil, bot, play.Options{Now: clock, Seed: 1})

	tests := []struct {
		at   time.Duration // after t0
		want int
		kept bool // whether "later" is still remembered
	}{
		{play.ReplayMemory, 0, true},
		{play.ReplayMemory + time.Millisecond, old, true},
		{10*time.Minute + play.ReplayMemory + time.Millisecond, 1, false},
	}
	for _, tt := range tests {
		now = t0.Add(tt.at)
		got, err := s.PruneInteractions(ctx)
		if err != nil || got != tt.want {
			t.Fatalf("at t0+%v: got %d pruned, %v; want %d", tt.at, got, err, tt.want)
		}
		// Remembering it again is a replay while it is kept (and records
		// it anew once it is not, which the last case alone checks).
		err = db.Remember(tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: later}))
		if kept := tttbot.ErrorCode(err) == tttbot.EREPLAY; kept != tt.kept {
			t.Errorf("at t0+%v: got the later one remembered %v (%v); want %v", tt.at, kept, err, tt.kept)
		}
	}
}
