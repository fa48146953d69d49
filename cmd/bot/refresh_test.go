package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

// TestStaleClicksMergeRefreshes: clicks hammering an outdated board while
// Discord is slow to edit it queue one edit more, not one per click, and
// the board ends up showing the game as it is.
func TestStaleClicksMergeRefreshes(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
	ch := h.srv.NewChannel()
	msg := h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
	accept := h.srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID)
	board := accept.Result(t)

	// Discord loses the answer to alice's move: the board still shows
	// version 2, the game is at version 3, and it is bob's turn.
	h.srv.FailNext(t, discordtest.RouteCallback, 1, http.StatusInternalServerError)
	callbacks := len(h.srv.CallsTo(discordtest.RouteCallback))
	h.srv.Click(t, alice, board, cells(board)[4].CustomID)
	h.srv.WaitCalls(t, discordtest.RouteCallback, callbacks+1)

	slow := h.srv.Hold(t, discordtest.RouteEditChannelMessage)
	const clicks = 6
	for range clicks {
		wantEphemeral(t, h.srv.Click(t, bob, board, cells(board)[0].CustomID).Wait(t), "out of date")
	}
	slow.Wait(t, 1)
	slow.Release()
	h.stop() // waits for the interactions' REST calls

	edits := h.srv.CallsTo(discordtest.RouteEditChannelMessage)
	if len(edits) == 0 || len(edits) > 2 {
		t.Fatalf("got %d edits of the board for %d stale clicks, want 1 or 2", len(edits), clicks)
	}
	got := accept.Original()
	if cells(got)[4].Label != "X" || !strings.Contains(cells(got)[0].CustomID, ":3:") {
		t.Errorf("the board after the refreshes does not show version 3:\n%s", got)
	}
}
