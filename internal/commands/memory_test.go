package commands

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// gameReads counts the reads of games and moves a handler makes of a real
// store.
type gameReads struct {
	*sqlite.DB
	n atomic.Int64
}

func (r *gameReads) Game(ctx context.Context, id int64) (*tttbot.Game, error) {
	r.n.Add(1)
	return r.DB.Game(ctx, id)
}

func (r *gameReads) GameMoves(ctx context.Context, id int64) (*tttbot.Game, []tttbot.Move, error) {
	r.n.Add(1)
	return r.DB.GameMoves(ctx, id)
}

func (r *gameReads) Moves(ctx context.Context, id int64) ([]tttbot.Move, error) {
	r.n.Add(1)
	return r.DB.Moves(ctx, id)
}

// TestAnswerNoRead: two bots on one database. An answer to a challenge, a
// resignation and a rematch are clicked without reading the game first, on
// the bot that made it or not; after the second bot has withdrawn the
// challenge, the first bot's accept is refused as closed and the board
// redrawn as stored, with the game read for the redraw alone.
func TestAnswerNoRead(t *testing.T) {
	now := func() time.Time { return testNow }
	path := filepath.Join(t.TempDir(), "t.db")
	open := func() *gameReads {
		db, err := sqlite.Open(t.Context(), path, sqlite.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return &gameReads{DB: db}
	}
	handler := func(db *gameReads) *Handler {
		return newHandler(t, db, ai.New(ai.Options{}), &edits{}, botUser, play.Options{Now: now, Seed: 1})
	}
	db1, db2 := open(), open()
	h1, h2 := handler(db1), handler(db2)
	ctx := t.Context()

	challengeOn := func(channel string) *tttbot.Game {
		t.Helper()
		if r := h1.Handle(ctx, slash(t, alice, "g1", channel, challenge(`{"name":"opponent","type":6,"value":"`+bob+`"}`))); r.Code != "" {
			t.Fatalf("challenge: code %q", r.Code)
		}
		g, err := db1.OpenGame(ctx, channel, alice)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	answer := func(h *Handler, user string, g *tttbot.Game, action string) (code string, edit int) {
		r := h.Handle(ctx, click(user, "g1", g.ChannelID, "m1", g.ChannelID, CustomID{Action: action, GameID: g.ID, Version: g.Version}.String()))
		if r.Edit != nil {
			edit = r.Edit.Version
		}
		return r.Code, edit
	}

	stored := func(id int64) *tttbot.Game {
		t.Helper()
		g, err := db1.DB.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}

	g := challengeOn("c1")
	before := db1.n.Load()
	if code, _ := answer(h1, bob, g, ActAccept); code != "" {
		t.Fatalf("accept: code %q", code)
	}
	if got := stored(g.ID); got.Status != tttbot.StatusActive || db1.n.Load() != before {
		t.Errorf("accept on the bot that made the challenge: game %s after %d reads, want active and none", got.Status, db1.n.Load()-before)
	}

	g = challengeOn("c2")
	if code, _ := answer(h2, alice, g, ActDecline); code != "" {
		t.Fatalf("withdraw on the other bot: code %q", code)
	}
	withdrawn := stored(g.ID)
	code, edit := answer(h1, bob, g, ActAccept)
	if code != tttbot.EFINISHED || edit != withdrawn.Version {
		t.Errorf("accept of a challenge withdrawn on the other bot: code %q, board redrawn at version %d; want %q and %d", code, edit, tttbot.EFINISHED, withdrawn.Version)
	}
	if got := stored(g.ID); got.Status != tttbot.StatusCancelled || got.Version != withdrawn.Version {
		t.Errorf("after the refused accept: game %s version %d, want cancelled at %d", got.Status, got.Version, withdrawn.Version)
	}
	before = db1.n.Load()
	answer(h1, bob, g, ActAccept)
	if n := db1.n.Load() - before; n != 1 {
		t.Errorf("the next click on the withdrawn challenge read the game %d times, want 1: for the redraw", n)
	}
	g = challengeOn("c3")
	before = db2.n.Load()
	if code, _ := answer(h2, bob, g, ActAccept); code != "" || db2.n.Load() != before {
		t.Errorf("accept on the bot that did not make the challenge: code %q after %d reads, want none", code, db2.n.Load()-before)
	}
	before = db2.n.Load()
	if code, _ := answer(h2, alice, g, ActResign); code != "" || db2.n.Load() != before {
		t.Fatalf("resign: code %q after %d reads, want none", code, db2.n.Load()-before)
	}
	before = db1.n.Load()
	if code, _ := answer(h1, bob, g, ActRematch); code != "" || db1.n.Load() != before {
		t.Errorf("rematch: code %q after %d reads, want none", code, db1.n.Load()-before)
	}
	next, err := db1.OpenGame(ctx, g.ChannelID, bob)
	if err != nil || next.Status != tttbot.StatusPending || next.Opponent != alice || next.XPlayer != g.OPlayer {
		t.Errorf("after the rematch: %+v, %v; want bob's challenge of alice, with X %q", next, err, g.OPlayer)
	}
}
