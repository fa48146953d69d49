package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/palette"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// The bot installed by a user plays wherever that user is: the DM with the
// bot, DMs and group DMs between users, servers that have not installed it.
// There it may not use channel REST, and reaches its boards only through
// the interactions on them.

// noChannelREST fails if the bot called any channel endpoint for the
// channels: Discord answers them Missing Access, and the bot must not try.
func (h *harness) noChannelREST(channels ...string) {
	h.t.Helper()
	for _, c := range h.srv.Calls() {
		for _, ch := range channels {
			if strings.HasPrefix(c.Path, "/channels/"+ch+"/") || c.Path == "/channels/"+ch {
				h.t.Errorf("the bot called a channel endpoint of %s, where it may not: %s", ch, c)
			}
		}
	}
}

// webhookEdits counts the bot's edits of interaction messages through their
// webhooks.
func (h *harness) webhookEdits() int {
	return len(h.srv.CallsTo(discordtest.RouteEditWebhookMessage))
}

func TestBotDMGame(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
		dm := h.srv.NewDMChannel()

		// Only the two of them see the DM: a person cannot be challenged there.
		wantEphemeral(t, h.srv.Slash(t, alice, dm, "ttt challenge", discordtest.UserOption("opponent", bob)).Wait(t), "only play me")

		for _, size := range []int{3, 5} {
			board := h.srv.Slash(t, alice, dm, "ttt challenge", discordtest.IntOption("size", size), discordtest.StringOption("first", "me")).Result(t)
			end := h.playBot(alice, board)
			if strings.Contains(end.Text(), alice.Mention()+" wins") || !strings.Contains(end.Text(), h.srv.Bot().Mention()) {
				t.Errorf("%d×%d: the bot lost, or is not named:\n%s", size, size, end)
			}
		}
		h.noChannelREST(dm)
	})
}

func TestGroupDMChallengeToWin(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice, bob, carol := h.srv.NewUser("alice"), h.srv.NewUser("bob"), h.srv.NewUser("carol")
		group := h.srv.NewGroupDM()

		msg := h.srv.Slash(t, alice, group, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
		wantSays(t, msg, alice.Mention()+" challenges "+bob.Mention())
		// bob installed nothing: the click is authorised by alice's install.
		board := h.srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
		if board.ID != msg.ID {
			t.Fatalf("accept posted a new message %s, want the challenge %s updated", board.ID, msg.ID)
		}
		wantEphemeral(t, h.srv.Click(t, carol, board, cells(board)[1].CustomID).Wait(t), "isn't your game")
		board, _ = h.play(board, alice, bob, 0, 1, 3, 4, 6)
		wantSays(t, board, alice.Mention()+" wins")

		// After it, the group plays the bot too.
		vsBot := h.srv.Slash(t, carol, group, "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
		h.playBot(carol, vsBot)

		// In a DM between two users, too.
		dm := h.srv.NewUserDM()
		board = h.startGame(dm, bob, alice)
		board, _ = h.play(board, bob, alice, 2, 0, 5, 1, 8)
		wantSays(t, board, bob.Mention()+" wins")
		h.noChannelREST(group, dm)
	})
}

func TestGroupDMTurnTimeout(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
		group := h.srv.NewGroupDM()

		// An unanswered challenge expires, its message edited through the webhook.
		msg := h.srv.Slash(t, alice, group, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
		h.clock.Advance(2*time.Minute + tttbot.DeadlineGrace)
		h.srv.WaitMessage(t, group, msg.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "expired") })

		board := h.startGame(group, alice, bob)
		wantBoard(t, "accepted", board, palette.X, commands.ActResign)
		board, _ = h.play(board, alice, bob, 4)
		wantBoard(t, "O to move", board, palette.O, commands.ActResign)
		edits := h.webhookEdits()
		h.clock.Advance(5*time.Minute + tttbot.DeadlineGrace)
		got := h.srv.WaitMessage(t, group, board.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "ran out of time") })
		wantSays(t, got, bob.Mention()+" ran out of time", alice.Mention()+" wins")
		wantBoard(t, "timed out through the webhook", got, palette.X, commands.ActRematch, "v")
		if h.webhookEdits() <= edits {
			t.Errorf("the board changed without a webhook edit")
		}
		h.noChannelREST(group)
	})
}

// TestGuestServer: in a server that has not installed the bot, a user who
// installed it plays there, rated worldwide only.
func TestGuestServer(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
		guild := h.srv.NewGuestGuild()
		ch := h.srv.NewChannelIn(guild)

		for range 5 { // enough rated games to rank
			board := h.startGame(ch, alice, bob)
			board, _ = h.play(board, alice, bob, 0, 1, 3, 4, 6)
			wantSays(t, board, alice.Mention()+" wins")
		}
		top := h.srv.Slash(t, bob, ch, "ttt leaderboard", discordtest.StringOption("scope", "server")).Result(t)
		wantSays(t, top, "hasn't installed me", "global leaderboard", "everyone", "alice")
		stats := h.srv.Slash(t, alice, ch, "ttt stats").Result(t)
		wantSays(t, stats, "everywhere", "5 won")
		hist := h.srv.Slash(t, alice, ch, "ttt history").Result(t)
		wantSays(t, hist, "won against "+bob.Mention())

		// The server the bot is installed in does not rank the guest games.
		home := h.srv.Slash(t, bob, h.srv.NewChannel(), "ttt leaderboard", discordtest.StringOption("scope", "server")).Result(t)
		wantSays(t, home, "Nobody is ranked here yet")

		// A server that keeps its members' apps to themselves makes
		// every answer ephemeral: nobody could see a challenge there,
		// but a game against the bot works for its player.
		closed := h.srv.NewGuestGuild()
		h.srv.RestrictExternalApps(closed)
		ch2 := h.srv.NewChannelIn(closed)
		wantEphemeral(t, h.srv.Slash(t, alice, ch2, "ttt challenge", discordtest.UserOption("opponent", bob)).Wait(t), "alone")
		board := h.srv.Slash(t, alice, ch2, "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
		if !board.Ephemeral() {
			t.Errorf("got a public board where Discord keeps the app's answers private:\n%s", board)
		}
		end := h.playBot(alice, board)
		if !strings.Contains(end.Text(), "🤝") && !strings.Contains(end.Text(), h.srv.Bot().Mention()+" (perfect) wins") {
			t.Errorf("the game against the bot did not end:\n%s", end)
		}
		h.noChannelREST(ch, ch2)
	})
}

// TestTokenExpiredBeforeDeadline: the bot was down past the life of the
// token that reaches the board; the game still ends on time, and the next
// click on the board shows it.
func TestTokenExpiredBeforeDeadline(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
		group := h.srv.NewGroupDM()
		board := h.startGame(group, alice, bob)
		board, _ = h.play(board, alice, bob, 4)

		h.stop()
		h.clock.Advance(16 * time.Minute)
		edits := h.webhookEdits()
		h.start()
		if h.key == nil {
			h.srv.WaitReady(t)
		}
		h.waitFinished(board)

		// bob's click on the board, which still shows his turn, is how
		// the players learn the game ended while the bot was away.
		in := h.srv.Click(t, bob, board, cells(board)[0].CustomID)
		r := in.Wait(t)
		if r.Type != discordgo.InteractionResponseUpdateMessage {
			t.Fatalf("got response type %d, want the board redrawn (7): %s", r.Type, r.Data)
		}
		wantSays(t, r.Message, bob.Mention()+" ran out of time", alice.Mention()+" wins")
		if len(freeCells(r.Message)) != 0 {
			t.Errorf("the ended game's board is still playable:\n%s", r.Message)
		}
		for _, c := range h.srv.CallsTo(discordtest.RouteEditWebhookMessage)[edits:] {
			if c.Status < 300 {
				t.Errorf("the board was edited through a token past its life: %s", c)
			}
		}
		h.noChannelREST(group)
	})
}

// waitFinished waits until the timers have ended the game that board shows,
// reading the database the bot writes.
func (h *harness) waitFinished(board *discordtest.Message) {
	h.t.Helper()
	id, err := commands.ParseCustomID(cells(board)[0].CustomID)
	if err != nil {
		h.t.Fatal(err)
	}
	db, err := sqlite.Open(h.t.Context(), h.db, sqlite.Options{})
	if err != nil {
		h.t.Fatal(err)
	}
	defer db.Close()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if g, err := db.Game(h.t.Context(), id.GameID); err == nil && g.Status == tttbot.StatusFinished {
			return
		}
	}
	h.t.Fatalf("game %d did not end", id.GameID)
}
