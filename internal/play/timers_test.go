package play_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// boards records the games the timers show, internal/commands' side of
// the Boards boundary, where each shown game is a board edited.
type boards struct {
	mu    sync.Mutex
	games []int64
}

func (b *boards) Fired(_ context.Context, r play.Result) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.games = append(b.games, r.Game.ID)
	return nil
}

func (b *boards) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.games)
}

type brokenAI struct{}

func (brokenAI) Move(context.Context, game.Position, ai.Level, *rand.Rand) (ai.Choice, error) {
	return ai.Choice{}, errors.New("no move")
}

// TestTickBotTurns: bot moves left undone by a crash are made by the timers;
// when they cannot be made, FireDue still returns instead of retrying the
// same batch forever.
func TestTickBotTurns(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		engine    play.AI
		games     int
		wantFired int
		wantEdits int
	}{
		{"interrupted bot moves are made", ai.New(ai.Options{}), 3, 3, 3},
		{"a failing batch does not spin", brokenAI{}, 120, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: func() time.Time { return now }})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for i := range tt.games {
				g := &tttbot.Game{
					ChannelID: fmt.Sprint(100 + i), Rows: 3, Cols: 3, K: 3,
					Challenger: fmt.Sprint(200 + i), Opponent: "1", BotLevel: string(ai.Perfect),
					XPlayer: "1", OPlayer: fmt.Sprint(200 + i),
					Status: tttbot.StatusActive, Deadline: now.Add(-tttbot.DeadlineGrace),
				}
				if err := db.StartGame(ctx, g, nil); err != nil {
					t.Fatal(err)
				}
				if err := db.SetMessage(ctx, g.ID, fmt.Sprint(300+i)); err != nil {
					t.Fatal(err)
				}
			}
			b := &boards{}
			s := play.New(db, tt.engine, "1", play.Options{Now: func() time.Time { return now }, Seed: 1})
			got, err := s.FireDue(ctx, b)
			if err != nil {
				t.Fatalf("tick: %v", err)
			}
			if got != tt.wantFired || b.count() != tt.wantEdits {
				t.Errorf("got %d fired and %d edits, want %d and %d", got, b.count(), tt.wantFired, tt.wantEdits)
			}
			if tt.wantFired > 0 {
				g, err := db.Game(ctx, 1)
				if err != nil {
					t.Fatal(err)
				}
				if g.Turn != g.OPlayer || g.Version < 2 {
					t.Errorf("after the timers: turn %q version %d, want the human (%q) to move", g.Turn, g.Version, g.OPlayer)
				}
			}
		})
	}
}

// barrierBoards shows a game only once n wait together, or fails it after
// a second: Discord's side, where each board edit takes a while.
type barrierBoards struct {
	boards
	n   int
	in  int // guarded by boards.mu
	all chan struct{}
}

func (b *barrierBoards) Fired(ctx context.Context, r play.Result) error {
	b.mu.Lock()
	if b.in++; b.in == b.n {
		close(b.all)
	}
	b.mu.Unlock()
	select {
	case <-b.all:
		return b.boards.Fired(ctx, r)
	case <-time.After(time.Second):
		return errors.New("edit timed out")
	}
}

// TestTickFiresAtOnce: the boards of games that ran out together are
// edited at the same time, not one REST call after another.
func TestTickFiresAtOnce(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = play.FireConcurrency
	for i := range n {
		g := &tttbot.Game{
			ChannelID: fmt.Sprint(100 + i), Rows: 3, Cols: 3, K: 3,
			Challenger: fmt.Sprint(200 + i), Opponent: fmt.Sprint(400 + i),
			Status: tttbot.StatusPending, Deadline: now.Add(-tttbot.DeadlineGrace),
		}
		if err := db.StartGame(ctx, g, nil); err != nil {
			t.Fatal(err)
		}
		if err := db.SetMessage(ctx, g.ID, fmt.Sprint(300+i)); err != nil {
			t.Fatal(err)
		}
	}
	b := &barrierBoards{n: n, all: make(chan struct{})}
	s := play.New(db, ai.New(ai.Options{}), "1", play.Options{Now: func() time.Time { return now }, Seed: 1})
	got, err := s.FireDue(ctx, b)
	if err != nil {
		t.Fatalf("tick: %v", err)
	}
	if got != n || b.count() != n {
		t.Errorf("got %d fired and %d boards edited, want %d and %d", got, b.count(), n, n)
	}
	g, err := db.Game(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != tttbot.StatusExpired {
		t.Errorf("got challenge 1 %s, want expired", g.Status)
	}
}
