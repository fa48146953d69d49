package main

import (
	"testing"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// TestHintEndToEnd, in both modes: a hint in a game against the bot answers
// privately with the winning move, the board it was asked on still takes
// the next click, and the game then counts in no record against the bot; in
// a game between people a hint is refused.
func TestHintEndToEnd(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
		ch := h.srv.NewChannel()

		// On 4×4 with 3 in a row, the first player wins by force.
		board := h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.IntOption("size", 4), discordtest.IntOption("win", 3),
			discordtest.StringOption("first", "me"), discordtest.StringOption("difficulty", "easy")).Result(t)
		wantEphemeral(t, h.srv.Slash(t, alice, ch, "ttt hint").Wait(t), "wins by force within 3 of your moves")
		h.playBot(alice, board)
		// The same game without a hint counts.
		h.playBot(alice, h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge", discordtest.IntOption("size", 4),
			discordtest.IntOption("win", 3), discordtest.StringOption("first", "me"), discordtest.StringOption("difficulty", "easy")).Result(t))

		db, err := sqlite.Open(t.Context(), h.db, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		st, err := db.Stats(t.Context(), "", alice.ID)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(st.VsBot); n != 1 || st.VsBot[0].Wins+st.VsBot[0].Losses+st.VsBot[0].Draws != 1 {
			t.Errorf("got records against the bot %+v, want the one game without a hint", st.VsBot)
		}

		h.startGame(ch, alice, bob)
		wantEphemeral(t, h.srv.Slash(t, alice, ch, "ttt hint").Wait(t), "only for games against me")
	})
}
