package commands

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// edits records the board edits the timers send, Discord's side of the
// Messenger boundary: a board's message ID for channel REST, "token:" and
// the token for an interaction's webhook.
type edits struct {
	mu        sync.Mutex
	msgs      []string
	emojis    []*discordgo.Emoji // the guild's custom emojis
	followups []string           // the tokens follow-ups went to
}

func (e *edits) EditResponse(_ context.Context, token string, _ *discordgo.InteractionResponseData) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.msgs = append(e.msgs, "token:"+token)
	return nil
}

func (e *edits) Followup(_ context.Context, token string, _ *discordgo.InteractionResponseData) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.followups = append(e.followups, token)
	return nil
}

func (e *edits) EditMessage(_ context.Context, _, messageID string, _ *discordgo.InteractionResponseData) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.msgs = append(e.msgs, messageID)
	return nil
}

func (e *edits) SendMessage(context.Context, string, *discordgo.InteractionResponseData) error {
	return nil
}

func (e *edits) GuildEmojis(context.Context, string) ([]*discordgo.Emoji, error) {
	return e.emojis, nil
}

type brokenAI struct{}

func (brokenAI) Analyze(context.Context, game.Position) (ai.Analysis, error) {
	return ai.Analysis{}, errors.New("no analysis")
}

func (brokenAI) Move(context.Context, game.Position, ai.Level, *rand.Rand) (ai.Choice, error) {
	return ai.Choice{}, errors.New("no move")
}

// TestTickBotTurns: bot moves left undone by a crash are made by the timers;
// when they cannot be made, tick still returns instead of retrying the same
// batch forever.
func TestTickBotTurns(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		engine    engine
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
					Status: tttbot.StatusActive, Deadline: now.Add(-time.Second),
				}
				if err := db.StartGame(ctx, g, nil); err != nil {
					t.Fatal(err)
				}
				if err := db.SetMessage(ctx, g.ID, fmt.Sprint(300+i)); err != nil {
					t.Fatal(err)
				}
			}
			msg := &edits{}
			h := newHandler(t, db, tt.engine, msg, "1", play.Options{Now: func() time.Time { return now }, Seed: 1})
			got, err := h.tick(ctx)
			if err != nil {
				t.Fatalf("tick: %v", err)
			}
			if got != tt.wantFired || len(msg.msgs) != tt.wantEdits {
				t.Errorf("got %d fired and %d edits, want %d and %d", got, len(msg.msgs), tt.wantFired, tt.wantEdits)
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

// barrierEdits records an edit only once n edits wait together, or fails
// it after a second: Discord's side, where each edit takes a while.
type barrierEdits struct {
	edits
	n   int
	in  int // guarded by edits.mu
	all chan struct{}
}

func (e *barrierEdits) EditMessage(ctx context.Context, channelID, messageID string, data *discordgo.InteractionResponseData) error {
	e.mu.Lock()
	if e.in++; e.in == e.n {
		close(e.all)
	}
	e.mu.Unlock()
	select {
	case <-e.all:
		return e.edits.EditMessage(ctx, channelID, messageID, data)
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
	const n = fireConcurrency
	for i := range n {
		g := &tttbot.Game{
			ChannelID: fmt.Sprint(100 + i), Rows: 3, Cols: 3, K: 3,
			Challenger: fmt.Sprint(200 + i), Opponent: fmt.Sprint(400 + i),
			Status: tttbot.StatusPending, Deadline: now.Add(-time.Second),
		}
		if err := db.StartGame(ctx, g, nil); err != nil {
			t.Fatal(err)
		}
		if err := db.SetMessage(ctx, g.ID, fmt.Sprint(300+i)); err != nil {
			t.Fatal(err)
		}
	}
	msg := &barrierEdits{n: n, all: make(chan struct{})}
	h := newHandler(t, db, ai.New(ai.Options{}), msg, "1", play.Options{Now: func() time.Time { return now }, Seed: 1})
	got, err := h.tick(ctx)
	if err != nil {
		t.Fatalf("tick: %v", err)
	}
	if got != n || len(msg.msgs) != n {
		t.Errorf("got %d fired and %d boards edited, want %d and %d", got, len(msg.msgs), n, n)
	}
	g, err := db.Game(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != tttbot.StatusExpired {
		t.Errorf("got challenge 1 %s, want expired", g.Status)
	}
}
