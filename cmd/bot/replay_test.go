package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// wantReplayRefused replays recorded interactions at the bot's endpoint:
// each must be refused as a bad signature is.
func wantReplayRefused(t *testing.T, what string, ins ...*discordtest.Interaction) {
	t.Helper()
	for _, in := range ins {
		if got := in.Replay(t); got != http.StatusUnauthorized {
			t.Errorf("%s replayed: got status %d, want 401", what, got)
		}
	}
}

// TestReplaysChangeNothing: signed requests recorded and sent again within
// the freshness window, before and after a restart, are refused, change
// no game and send nothing to Discord.
func TestReplaysChangeNothing(t *testing.T) {
	h := newHTTPHarness(t)
	alice := h.srv.NewUser("alice")
	ch := h.srv.NewChannel()
	first := discordtest.StringOption("first", "me")

	challenge1 := h.srv.Slash(t, alice, ch, "ttt challenge", first)
	board1 := challenge1.Result(t)
	move1 := h.srv.Click(t, alice, board1, cells(board1)[4].CustomID)
	move1.Wait(t)
	resign1 := h.srv.Slash(t, alice, ch, "ttt resign")
	resign1.Wait(t)
	board1 = h.srv.WaitMessage(t, ch, board1.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "resigned") })
	// The channel is free: the challenge, run again, would start a game.
	wantReplayRefused(t, "/ttt challenge after a resign", challenge1)

	rematch := h.srv.Click(t, alice, board1, board1.Button(t, "Rematch").CustomID)
	// Game 2: the bot, X now, moves first in the rematch's own second
	// transaction, which its record of the interaction must not refuse.
	if board2 := rematch.Result(t); len(freeCells(board2)) != 8 {
		t.Fatalf("got no move by the bot on the rematch's board:\n%s", board2)
	}
	h.srv.Slash(t, alice, ch, "ttt resign").Wait(t)
	// The rematch, run again three times, would start another game.
	wantReplayRefused(t, "rematch", rematch, rematch, rematch)

	board3 := h.srv.Slash(t, alice, ch, "ttt challenge", first).Result(t)
	if len(freeCells(board3)) != 9 {
		t.Fatalf("got no new board for game 3:\n%s", board3)
	}
	// The first resign, run again, would end game 3.
	wantReplayRefused(t, "/ttt resign", resign1)

	// Discord loses the answer to a move: the board shows the game as it
	// was, and a click on it refreshes it.
	h.srv.FailNext(t, discordtest.RouteCallback, 1, http.StatusInternalServerError)
	h.srv.Click(t, alice, board3, cells(board3)[0].CustomID)
	stale := h.srv.Click(t, alice, board3, cells(board3)[1].CustomID)
	wantEphemeral(t, stale.Wait(t), "out of date")
	h.srv.WaitMessage(t, ch, board3.ID, func(m *discordtest.Message) bool { return cells(m)[0].Label == "X" })
	wantReplayRefused(t, "stale click", stale)

	// After a restart on the same database, inside the window: every
	// replay is refused, and none sends anything. Each start registers the
	// commands in the background: the calls are counted once that is done.
	h.srv.WaitCalls(t, discordtest.RouteOverwriteGlobal, 1)
	h.restart()
	h.srv.WaitCalls(t, discordtest.RouteOverwriteGlobal, 2)
	calls := len(h.srv.Calls())
	wantReplayRefused(t, "after a restart", challenge1, move1, resign1, rematch, stale)
	h.stop()
	if got := h.srv.Calls()[calls:]; len(got) != 0 {
		t.Errorf("replays sent %d REST calls, want none: %v", len(got), got)
	}

	db, err := sqlite.Open(t.Context(), h.db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for id, want := range map[int64]tttbot.Status{1: tttbot.StatusFinished, 2: tttbot.StatusFinished, 3: tttbot.StatusActive} {
		g, err := db.Game(t.Context(), id)
		if err != nil || g.Status != want {
			t.Errorf("game %d: got %v, %v; want %s", id, g, err, want)
		}
	}
	if _, err := db.Game(t.Context(), 4); tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
		t.Errorf("game 4: got %v, want none", err)
	}
}
