package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

func TestHintText(t *testing.T) {
	geo, err := game.NewGeometry(3, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	l := mustCatalog().For("en-US")
	tests := []struct {
		name string
		a    ai.Analysis
		want string
	}{
		{"a win now", ai.Analysis{Value: 1, Plies: 1, Best: []int{2}}, "Play **C1**: you win with your next move."},
		{"a win in three of the player's moves", ai.Analysis{Value: 1, Plies: 5, Best: []int{0, 8}}, "Play **A1 or C3**: it wins by force within 3 of your moves."},
		{"a draw", ai.Analysis{Value: 0, Best: []int{4}, Moves: make([]ai.MoveValue, 2)}, "Play **B2**: with best play on both sides, it's a draw."},
		{"a draw whatever the move", ai.Analysis{Value: 0, Best: []int{0, 4}, Moves: make([]ai.MoveValue, 2)}, "Any move keeps the draw here: nothing does better against best play."},
		{"lost at once", ai.Analysis{Value: -1, Plies: 2, Best: []int{4}}, "Every move loses: **B2** holds out longest, and I win with my next move."},
		{"lost in two of the bot's moves", ai.Analysis{Value: -1, Plies: 4, Best: []int{4}}, "Every move loses: **B2** holds out longest — I need 2 more moves to win."},
	}
	for _, tt := range tests {
		if got := hintText(l, geo, tt.a); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// tooDeep is an AI whose analyses never settle a position in time.
type tooDeep struct{ engine }

func (tooDeep) Analyze(context.Context, game.Position) (ai.Analysis, error) {
	return ai.Analysis{}, context.DeadlineExceeded
}

// TestHint: a hint answers privately with the best move and marks the game,
// whose board keeps its version; a hint the solver cannot give in time, or
// in a game between people, marks nothing.
func TestHint(t *testing.T) {
	h, db := newTestHandler(t)
	ctx := context.Background()
	hint := func(user, channel string) (string, string) {
		t.Helper()
		r := h.Handle(ctx, slash(t, user, "g1", channel, subcommand("hint", "")))
		return r.Code, shown(r.Response.Data)
	}
	r := h.Handle(ctx, slash(t, alice, "g1", "c1", subcommand("challenge", `{"name":"first","type":3,"value":"me"}`)))
	g, err := db.Game(ctx, r.TrackGame)
	if err != nil {
		t.Fatal(err)
	}

	slow := newHandler(t, db, tooDeep{ai.New(ai.Options{})}, &edits{}, botUser, h.opts)
	r = slow.Handle(ctx, slash(t, alice, "g1", "c1", subcommand("hint", "")))
	wantRefused(t, r, tttbot.EINVALID, "too deep")
	if got, _ := db.Game(ctx, g.ID); got.Assisted {
		t.Errorf("a hint not given marked the game")
	}

	code, text := hint(alice, "c1")
	if code != "" || !strings.Contains(text, "draw") || !strings.Contains(text, "no record") {
		t.Errorf("got %q (code %q), want the draw every move keeps and the note on the record", text, code)
	}
	got, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Assisted || got.Version != g.Version {
		t.Errorf("got assisted %v at version %d, want assisted at version %d", got.Assisted, got.Version, g.Version)
	}

	if r := h.Handle(ctx, slash(t, alice, "g1", "c2", challenge(`{"name":"opponent","type":6,"value":"`+bob+`"}`))); r.Code != "" {
		t.Fatalf("challenge refused: %s", shown(r.Response.Data))
	}
	if code, text := hint(alice, "c2"); code != tttbot.EINVALID || !strings.Contains(text, "only for games against me") {
		t.Errorf("a hint in a challenge between people: got %q (code %q), want it refused", text, code)
	}
	if code, text := hint(bob, "c3"); code != tttbot.ENOTFOUND || !strings.Contains(text, "no game") {
		t.Errorf("a hint without a game: got %q (code %q), want it refused", text, code)
	}
}
