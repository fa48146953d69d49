package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/palette"
)

// countComponents counts cs and every component nested in them.
func countComponents(cs []discordtest.Component) int {
	n := len(cs)
	for _, c := range cs {
		n += countComponents(c.Components)
		if c.Accessory != nil {
			n++
		}
	}
	return n
}

// wantBoard fails unless m is a board as components V2 draw it: one
// container of the accent colour, within 40 components, whose controls —
// the buttons that are no cells — have the actions given, in order.
func wantBoard(t *testing.T, what string, m *discordtest.Message, accent int, controls ...string) {
	t.Helper()
	c := m.Container()
	if !m.V2() || m.Content != "" || len(m.Components) != 1 || c == nil || c.AccentColor == nil || *c.AccentColor != accent {
		t.Errorf("%s: got %v, want a V2 board of accent %06X", what, m, accent)
		return
	}
	if n := countComponents(m.Components); n > 40 {
		t.Errorf("%s: %d components, over Discord's 40", what, n)
	}
	var got []string
	for _, b := range m.Buttons() {
		if id, err := commands.ParseCustomID(b.CustomID); err == nil && id.Action != commands.ActMove {
			got = append(got, id.Action)
		}
	}
	if !slices.Equal(got, controls) {
		t.Errorf("%s: got controls %q, want %q:\n%s", what, got, controls, m)
	}
}

// Every board is a components V2 message with its controls in it, in both
// modes (TestGroupDMTurnTimeout checks a webhook game's): a 3×3 game between people played to a win, its Review and its
// Rematch clicked; a 5×5 game against the bot resigned from its board —
// 35 components while played, 36 once over — then reviewed and rematched;
// a turn that runs out, edited by the timers.
func TestBoardsV2(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
		ch := h.srv.NewChannel()

		msg := h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
		wantBoard(t, "challenge", msg, palette.Neutral, commands.ActAccept, commands.ActDecline)
		board := h.srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
		wantBoard(t, "accepted", board, palette.X, commands.ActResign)
		wantSays(t, board, "3×3", alice.Mention(), bob.Mention(), "your turn", "<t:")
		board, _ = h.play(board, alice, bob, 4)
		wantBoard(t, "O to move", board, palette.O, commands.ActResign)
		wantSays(t, board, "B2")
		board, _ = h.play(board, bob, alice, 0, 1, 3, 7)
		wantSays(t, board, alice.Mention()+" wins")
		wantBoard(t, "won by X", board, palette.X, commands.ActRematch, "v")
		r := h.srv.Click(t, bob, board, board.Button(t, "Review").CustomID).Wait(t)
		if !r.Ephemeral() || !strings.Contains(r.Message.Text(), "Review of game #") {
			t.Errorf("review: got %v, want it private", r.Message)
		}
		re := h.srv.Click(t, bob, board, board.Button(t, "Rematch").CustomID).Result(t)
		wantBoard(t, "rematch", re, palette.Neutral, commands.ActAccept, commands.ActDecline)
		re = h.srv.Click(t, alice, re, re.Button(t, "Accept").CustomID).Result(t)
		wantBoard(t, "rematch accepted", re, palette.X, commands.ActResign)
		re, _ = h.play(re, bob, alice, 4)
		h.clock.Advance(5*time.Minute + tttbot.DeadlineGrace)
		got := h.srv.WaitMessage(t, ch, re.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "ran out of time") })
		wantBoard(t, "timed out", got, palette.X, commands.ActRematch, "v")

		ch5 := h.srv.NewChannel()
		board = h.srv.Slash(t, alice, ch5, "ttt challenge", discordtest.IntOption("size", 5), discordtest.StringOption("first", "me")).Result(t)
		wantBoard(t, "5×5", board, palette.X, commands.ActResign)
		board = h.srv.Click(t, alice, board, cells(board)[12].CustomID).Result(t)
		if n := countComponents(board.Components); n != 35 {
			t.Errorf("5×5 in play: %d components, want 35", n)
		}
		r = h.srv.Click(t, bob, board, board.Button(t, "Resign").CustomID).Wait(t)
		if !r.Ephemeral() {
			t.Errorf("a stranger's Resign: got %v, want a private refusal", r.Message)
		}
		board = h.srv.Click(t, alice, board, board.Button(t, "Resign").CustomID).Result(t)
		wantSays(t, board, alice.Mention()+" resigned")
		wantBoard(t, "5×5 resigned", board, palette.O, commands.ActRematch, "v")
		if n := countComponents(board.Components); n != 36 {
			t.Errorf("5×5 over: %d components, want 36", n)
		}
		review := h.srv.Click(t, alice, board, board.Button(t, "Review").CustomID).Result(t)
		wantSays(t, review, "5×5, 4 in a row")
		re = h.srv.Click(t, alice, board, board.Button(t, "Rematch").CustomID).Result(t)
		wantBoard(t, "5×5 rematch", re, palette.O, commands.ActResign)
		if len(cells(re)) != 25 {
			t.Errorf("5×5 rematch: got %d cells, want 25", len(cells(re)))
		}
	})
}

// A board posted before the upgrade — content and rows of buttons, no
// flag — still takes clicks: a move on it is answered by drawing it anew
// as V2, and an outdated one is edited into V2.
func TestClassicBoardUpgraded(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
		ch := h.srv.NewChannel()
		board := h.startGame(ch, alice, bob)
		rest, err := discord.NewSession(h.srv.Token(), h.srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		// classic posts the board as the bot drew it before: its cells'
		// buttons in rows at the top, under content.
		classic := func(m *discordtest.Message) *discordtest.Message {
			var rows []discordgo.MessageComponent
			for _, r := range m.Grid() {
				var row discordgo.ActionsRow
				for _, b := range r {
					if strings.HasPrefix(b.CustomID, "ttt:m:") {
						row.Components = append(row.Components, discordgo.Button{Label: "\u200b", Style: discordgo.SecondaryButton, CustomID: b.CustomID, Disabled: b.Disabled})
					}
				}
				if len(row.Components) > 0 {
					rows = append(rows, row)
				}
			}
			sent, err := rest.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "a board of old", Components: rows})
			if err != nil {
				t.Fatal(err)
			}
			return h.srv.Message(ch, sent.ID)
		}
		old := classic(board)
		stale := classic(board)
		if old.V2() || len(cells(old)) != 9 {
			t.Fatalf("classic board: got %v", old)
		}
		moved := h.srv.Click(t, alice, old, cells(old)[4].CustomID).Result(t)
		if moved.ID != old.ID {
			t.Fatalf("the click's answer is message %s, want the clicked %s", moved.ID, old.ID)
		}
		wantBoard(t, "classic board clicked", moved, palette.O, commands.ActResign)
		wantSays(t, moved, "B2")
		r := h.srv.Click(t, bob, stale, cells(stale)[0].CustomID).Wait(t)
		if !r.Ephemeral() {
			t.Errorf("a click on an outdated classic board: got %v, want a private refusal", r.Message)
		}
		got := h.srv.WaitMessage(t, ch, stale.ID, func(m *discordtest.Message) bool { return m.V2() })
		wantBoard(t, "outdated classic board", got, palette.O, commands.ActResign)
	})
}
