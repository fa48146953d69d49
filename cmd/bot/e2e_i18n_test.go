package main

import (
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

// TestLanguages: on a French server, a German player and a Japanese one
// play the same game. Each reads the bot's private replies in their own
// language; the challenge, the board and its timer's edit are in the
// server's, until its admins choose another. In a DM, the board speaks
// the invoker's language.
func TestLanguages(t *testing.T) {
	h := startHarness(t, nil, discordtest.Options{GuildLocale: "fr"})
	alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
	alice.Locale, bob.Locale = "de", "ja"
	ch := h.srv.NewChannel()

	msg := h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
	if !strings.Contains(msg.Text(), alice.Mention()+" défie "+bob.Mention()) {
		t.Fatalf("challenge on a French server:\n%s", msg)
	}
	wantEphemeral(t, h.srv.Click(t, alice, msg, msg.Button(t, "Accepter").CustomID).Wait(t), "Diese Herausforderung gilt nicht dir.")
	board := h.srv.Click(t, bob, msg, msg.Button(t, "Accepter").CustomID).Result(t)
	if !strings.Contains(board.Text(), "❌ "+alice.Mention()+", à toi de jouer") {
		t.Fatalf("board after bob's accept:\n%s", board)
	}
	wantEphemeral(t, h.srv.Click(t, bob, board, cells(board)[4].CustomID).Wait(t), "あなたの番ではありません。")
	board = h.srv.Click(t, alice, board, cells(board)[4].CustomID).Result(t)
	if !strings.Contains(board.Text(), "Dernier coup : "+alice.Mention()+" a joué B2.") {
		t.Fatalf("board after alice's move:\n%s", board)
	}
	wantEphemeral(t, h.srv.Click(t, alice, board, cells(board)[0].CustomID).Wait(t), "Du bist nicht dran.")
	help := h.srv.Slash(t, bob, ch, "ttt help").Wait(t)
	wantEphemeral(t, help, "5分")

	// No interaction tells the timer the server's language: the game
	// remembers it.
	h.clock.Advance(5*time.Minute + tttbot.DeadlineGrace)
	got := h.srv.WaitMessage(t, ch, board.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "⏰") })
	if !strings.Contains(got.Text(), "⏰ "+bob.Mention()+" a dépassé le temps. "+alice.Mention()+" gagne.") {
		t.Errorf("after bob's time ran out:\n%s", got)
	}
	if got.Button(t, "Revanche").CustomID == "" {
		t.Errorf("no Revanche button:\n%s", got)
	}

	// The server's admins choose its language over Discord's.
	admin := h.srv.NewAdminUser("admin")
	admin.Locale = "ja"
	set := h.srv.Slash(t, admin, ch, "ttt-admin language", discordtest.StringOption("locale", "de")).Wait(t)
	wantEphemeral(t, set, "Deutsch")
	msg = h.srv.Slash(t, bob, ch, "ttt challenge", discordtest.UserOption("opponent", alice)).Result(t)
	if !strings.Contains(msg.Text(), bob.Mention()+" fordert "+alice.Mention()) {
		t.Errorf("a challenge on a server whose admins chose German:\n%s", msg)
	}

	dm := h.srv.NewDMChannel()
	board = h.srv.Slash(t, alice, dm, "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
	if !strings.Contains(board.Text(), alice.Mention()+", du bist dran") {
		t.Errorf("a DM game of a German player:\n%s", board)
	}
}
