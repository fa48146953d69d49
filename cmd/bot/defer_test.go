package main

import (
	"crypto/ed25519"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

// A database that stalls past discord.defer_after: the click is answered
// within Discord's 3s with a deferral (type 6), which the local Discord
// checks, and once the lock is released the move is stored and the board
// edited through @original. Both engines, both ways in.
func TestDeferredWhileDatabaseStalls(t *testing.T) {
	for _, st := range databaseStalls("games") {
		for _, mode := range []string{config.ModeGateway, config.ModeHTTP} {
			t.Run(st.name+"/"+mode, func(t *testing.T) {
				h, stall := stalledHarness(t, st, mode, 0)
				alice := h.srv.NewUser("alice")
				board := h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
				free := len(freeCells(board))

				release := stall()
				click := h.srv.Click(t, alice, board, freeCells(board)[0].CustomID)
				if r := click.Wait(t); r.Type != discordgo.InteractionResponseDeferredMessageUpdate {
					t.Fatalf("answer to a click on a stalled database: got type %d, want 6", r.Type)
				}
				release()
				moved := click.Result(t)
				if moved.ID != board.ID || len(freeCells(moved)) != free-2 {
					t.Errorf("board after the stall: got message %s with %d free cells, want %s with alice's move and the bot's:\n%s",
						moved.ID, len(freeCells(moved)), board.ID, moved)
				}
				if got := h.srv.CallsTo(discordtest.RouteEditWebhookMessage); len(got) != 1 || !strings.HasSuffix(got[0].Path, "/messages/@original") {
					t.Errorf("edits of @original: got %v, want one", got)
				}
			})
		}
	}
}

// Work that the stall holds past its limit is abandoned: the player is
// told it failed, after the deferral, and nothing of it is stored — the
// board stays as it was, and the challenge that failed does not block the
// channel.
func TestAbandonedWhileDatabaseStalls(t *testing.T) {
	for _, st := range databaseStalls("games") {
		t.Run(st.name, func(t *testing.T) {
			h, stall := stalledHarness(t, st, config.ModeGateway, time.Second)
			alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
			ch := h.srv.NewChannel()
			board := h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge", discordtest.StringOption("first", "me")).Result(t)

			release := stall()
			click := h.srv.Click(t, alice, board, freeCells(board)[0].CustomID)
			challenge := h.srv.Slash(t, bob, ch, "ttt challenge")
			if r := click.Wait(t); r.Type != discordgo.InteractionResponseDeferredMessageUpdate {
				t.Errorf("click: got type %d, want 6", r.Type)
			}
			if r := challenge.Wait(t); r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
				t.Errorf("challenge: got type %d, want 5", r.Type)
			}
			failed := challenge.Result(t)
			h.srv.WaitCalls(t, discordtest.RouteFollowup, 1)
			release()

			const wrong = "Something went wrong"
			if !strings.Contains(failed.Text(), wrong) || len(failed.Grid()) != 0 {
				t.Errorf("challenge's deferred message: got %v, want the failure", failed)
			}
			if f := click.Followups(); len(f) != 1 || !f[0].Ephemeral() || !strings.Contains(f[0].Text(), wrong) {
				t.Errorf("click's follow-ups: got %v, want the failure, privately", f)
			}
			if m := h.srv.Message(board.ChannelID, board.ID); m.Edits != board.Edits {
				t.Errorf("board after the abandoned move: got %d edits, want %d:\n%s", m.Edits, board.Edits, m)
			}
			// Stored, the failed challenge would hold the channel and bob.
			if again := h.srv.Slash(t, bob, ch, "ttt challenge").Result(t); len(cells(again)) != 9 {
				t.Errorf("challenge once the stall is over: got %v, want a board", again)
			}
			if again := h.srv.Click(t, alice, board, freeCells(board)[0].CustomID).Result(t); len(freeCells(again)) != len(freeCells(board))-2 {
				t.Errorf("the abandoned move played again:\n%s", again)
			}
		})
	}
}

// A click made before its turn's deadline on a database that stalls past
// the deadline is played once the stall ends, and the timers, ticking on
// meanwhile, do not end the game on time: it is due tttbot.DeadlineGrace
// after its deadline, when no click made in time can still be at work.
func TestMoveInTimeWhileDatabaseStalls(t *testing.T) {
	for _, st := range databaseStalls("games") {
		t.Run(st.name, func(t *testing.T) {
			h, stall := stalledHarness(t, st, config.ModeGateway, 0)
			alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
			board := h.startGame(h.srv.NewChannel(), alice, bob)
			h.clock.Advance(5*time.Minute - time.Second) // alice's turn ends in a second

			release := stall()
			click := h.srv.Click(t, alice, board, cells(board)[4].CustomID)
			if r := click.Wait(t); r.Type != discordgo.InteractionResponseDeferredMessageUpdate {
				t.Fatalf("answer to a click on a stalled database: got type %d, want 6", r.Type)
			}
			// The stall holds the click past the deadline, while the
			// timers tick: SQLite's read the games past the lock, and
			// PostgreSQL's wait for it beside the click.
			h.clock.Advance(20 * time.Second)
			release()
			moved := click.Result(t)
			if len(freeCells(moved)) != len(freeCells(board))-1 || strings.Contains(moved.Text(), "ran out of time") {
				t.Errorf("board after the stall: got %s, want alice's move played and bob to move", moved)
			}
			// The timers tick on: the game stays on, bob's turn running.
			since := dueListings(t, h.addr)
			waitFor(t, 10*time.Second, "the timers to tick twice", func() bool { return dueListings(t, h.addr) >= since+2 })
			if m := h.srv.Message(board.ChannelID, board.ID); strings.Contains(m.Text(), "ran out of time") {
				t.Errorf("board once the timers ticked on:\n%s", m)
			}
		})
	}
}

// stalledHarness runs the bot on st's database, in mode, deferring after
// 200ms and, when workLimit is set, abandoning work past it; stall holds
// the database's lock.
func stalledHarness(t *testing.T, st databaseStall, mode string, workLimit time.Duration) (*harness, func() func()) {
	t.Helper()
	var key ed25519.PrivateKey
	if mode == config.ModeHTTP {
		key = ed25519.NewKeyFromSeed([]byte("tttbot-e2e-http-harness-key-0123"))
	}
	var stall func() func()
	// The waits outlast the stores' own limits on a stalled database.
	h := startHarnessWith(t, key, discordtest.Options{Timeout: 30 * time.Second}, func(h *harness) {
		h.workLimit = workLimit
		h.configure = func(c *config.Config) {
			c.Discord.DeferAfter = config.Duration{Duration: 200 * time.Millisecond}
			if stall == nil {
				stall = st.open(t, c)
			}
		}
	})
	return h, stall
}
