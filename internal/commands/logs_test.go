package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// noSettings is a Reader whose guild settings cannot be read.
type noSettings struct{ Reader }

func (noSettings) Settings(context.Context, string) (*tttbot.Settings, error) {
	return nil, errors.New("settings unreadable")
}

// TestLogsNameTheInteraction: what the handler logs while it serves an
// interaction, deep in a command or a click, names the interaction.
func TestLogsNameTheInteraction(t *testing.T) {
	ctx := t.Context()
	now := func() time.Time { return testNow }
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	engine := ai.New(ai.Options{})
	h, err := New(play.New(db, engine, botUser, play.Options{Now: now, Seed: 1, Logger: log}), noSettings{db}, engine, &edits{})
	if err != nil {
		t.Fatal(err)
	}

	// A challenge draws its board in the guild's look, which cannot be read.
	start := slash(t, alice, "g1", "c1", challenge(""))
	r := h.Handle(ctx, start)
	if r.Code != "" || r.TrackGame == 0 {
		t.Fatalf("got code %q, game %d; want a game", r.Code, r.TrackGame)
	}
	g, err := db.Game(ctx, r.TrackGame)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := g.Position()
	if err != nil {
		t.Fatal(err)
	}
	cell := 0
	for !pos.Empty().Has(cell) {
		cell++
	}
	move := click(alice, "g1", "c1", "m1", "c1", CustomID{Action: ActMove, GameID: g.ID, Version: g.Version, Cell: cell}.String())
	if r := h.Handle(ctx, move); r.Code != "" {
		t.Fatalf("move: got code %q (%s)", r.Code, shown(r.Response.Data))
	}

	want := map[string][]string{"read guild settings": {start.ID, move.ID}, "click": {move.ID}}
	got := map[string][]string{}
	for line := range bytes.Lines(out.Bytes()) {
		var rec struct{ Msg, Interaction string }
		if err := json.Unmarshal(line, &rec); err != nil {
			t.Fatal(err)
		}
		if want[rec.Msg] != nil && !slices.Contains(got[rec.Msg], rec.Interaction) {
			got[rec.Msg] = append(got[rec.Msg], rec.Interaction)
		}
	}
	for msg, ids := range want {
		if !slices.Equal(got[msg], ids) {
			t.Errorf("%q logged for interactions %q, want %q", msg, got[msg], ids)
		}
	}
}
