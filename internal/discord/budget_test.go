package discord_test

import (
	"context"
	"crypto/ed25519"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/interaction"
)

// heldHandler answers each interaction with the reply the test sends on
// replies, holding the handler until then: work that outlasts the budget.
type heldHandler struct {
	replies chan interaction.Reply

	mu      sync.Mutex
	tracked map[int64]string
}

func (h *heldHandler) Handle(ctx context.Context, _ *discordgo.Interaction) interaction.Reply {
	select {
	case r := <-h.replies:
		return r
	case <-ctx.Done():
		r := ephemeralReply("failed")
		r.Code = tttbot.EINTERNAL
		return r
	}
}

func (h *heldHandler) TrackMessage(_ context.Context, gameID int64, messageID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.tracked[gameID] = messageID
}

// Private says /ttt help alone is answered privately.
func (h *heldHandler) Private(i *discordgo.Interaction) bool {
	return i.ApplicationCommandData().Options[0].Name == "help"
}

func (h *heldHandler) trackedMessage(gameID int64) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tracked[gameID]
}

type counter struct{ deferred, abandoned atomic.Int64 }

func (c *counter) Deferred()  { c.deferred.Add(1) }
func (c *counter) Abandoned() { c.abandoned.Add(1) }

func ephemeralReply(text string) interaction.Reply {
	return interaction.Reply{Response: &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: text, Flags: discordgo.MessageFlagsEphemeral},
	}}
}

func boardData(text string) *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{Content: text, Components: []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "·", CustomID: "cell:0"}}},
	}}
}

// A handler held past the budget: the interaction is deferred within it —
// type 5 for a command, type 6 for a click — and the reply, once the
// handler has it, fills the command's message or redraws the clicked board
// through @original; a refusal of a click is a private follow-up. Both ways
// in: the gateway and the HTTP endpoint.
func TestBudgetDefers(t *testing.T) {
	for _, mode := range []string{"gateway", "http"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			// A budget this short defers every interaction the handler
			// holds: the test waits for the deferral before it releases.
			srv, h, c := serveHeld(t, mode, discord.Budget{DeferAfter: time.Millisecond})
			alice := srv.NewUser("alice")
			ch := srv.NewChannel()

			cmd := srv.Slash(t, alice, ch, "ttt challenge")
			if r := cmd.Wait(t); r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || r.Ephemeral() {
				t.Fatalf("command's first answer: got type %d (ephemeral %v), want a public 5", r.Type, r.Ephemeral())
			}
			h.replies <- interaction.Reply{
				Response:  &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: boardData("board")},
				TrackGame: 7,
			}
			board := cmd.Result(t)
			if board.Content != "board" || len(board.Grid()) != 1 {
				t.Fatalf("command's message: got %v, want the board", board)
			}
			srv.WaitCalls(t, discordtest.RouteEditWebhookMessage, 1)
			waitFor(t, "the board tracked", func() bool { return h.trackedMessage(7) == board.ID })

			click := srv.Click(t, alice, board, "cell:0")
			if r := click.Wait(t); r.Type != discordgo.InteractionResponseDeferredMessageUpdate {
				t.Fatalf("click's first answer: got type %d, want 6", r.Type)
			}
			h.replies <- interaction.Reply{Response: &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseUpdateMessage, Data: boardData("moved"),
			}}
			if m := click.Result(t); m.ID != board.ID || m.Content != "moved" {
				t.Errorf("clicked board: got %v, want board %s redrawn", m, board.ID)
			}

			refused := srv.Click(t, alice, srv.Message(ch, board.ID), "cell:0")
			refused.Wait(t)
			h.replies <- ephemeralReply("not your turn")
			srv.WaitCalls(t, discordtest.RouteFollowup, 1)
			f := refused.Followups()
			if len(f) != 1 || f[0].Content != "not your turn" || !f[0].Ephemeral() {
				t.Errorf("refusal: got follow-ups %v, want one private", f)
			}
			if m := srv.Message(ch, board.ID); m.Content != "moved" {
				t.Errorf("board after a refusal: got %q, want it unchanged", m.Content)
			}

			failed := srv.Slash(t, alice, ch, "ttt challenge")
			failed.Wait(t)
			r := ephemeralReply("something went wrong")
			r.Code = tttbot.EINTERNAL
			h.replies <- r
			if m := failed.Result(t); m.Content != "something went wrong" {
				t.Errorf("failed command's message: got %v", m)
			}
			help := srv.Slash(t, alice, ch, "ttt help")
			if r := help.Wait(t); r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || !r.Ephemeral() {
				t.Fatalf("private command's first answer: got type %d (ephemeral %v), want a private 5", r.Type, r.Ephemeral())
			}
			h.replies <- ephemeralReply("help text")
			if m := help.Result(t); m.Content != "help text" || !m.Ephemeral() {
				t.Errorf("private command's message: got %v, want the private help", m)
			}
			if d, a := c.deferred.Load(), c.abandoned.Load(); d != 5 || a != 1 {
				t.Errorf("counted %d deferred, %d abandoned; want 5 and 1", d, a)
			}
		})
	}
}

// serveHeld serves a heldHandler on a new local Discord through the
// gateway or the HTTP endpoint, within budget b, whose deferrals c counts.
func serveHeld(t *testing.T, mode string, b discord.Budget) (srv *discordtest.Server, h *heldHandler, c *counter) {
	t.Helper()
	srv = discordtest.NewServer(t)
	h = &heldHandler{replies: make(chan interaction.Reply), tracked: map[int64]string{}}
	c = &counter{}
	b.Counter = c
	if mode == "gateway" {
		gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{Budget: b})
		if _, _, err := gw.Open(t.Context()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { gw.Close(context.Background()) })
		gw.Serve(h)
		if err := gw.WaitConnected(t.Context()); err != nil {
			t.Fatal(err)
		}
		return srv, h, c
	}
	rest, err := discord.NewSession(srv.Token(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	hh := discord.NewHTTPHandler(testKey.Public().(ed25519.PublicKey), discord.HTTPOptions{Budget: b})
	hh.Serve(h, rest)
	web := httptest.NewServer(hh)
	t.Cleanup(func() {
		hh.Close(context.Background())
		web.Close()
	})
	srv.UseEndpoint(web.URL, testKey, time.Now)
	return srv, h, c
}

// waitFor waits until ok holds.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// Work that outlasts its limit is cancelled: the handler's context ends,
// and its reply — here a failure, with nothing done — fills the deferred
// message and counts as abandoned.
func TestBudgetWorkLimit(t *testing.T) {
	for _, mode := range []string{"gateway", "http"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			// Never sent a reply, the handler holds until its context ends.
			srv, _, c := serveHeld(t, mode, discord.Budget{DeferAfter: time.Millisecond, WorkLimit: 50 * time.Millisecond})

			in := srv.Slash(t, srv.NewUser("alice"), srv.NewChannel(), "ttt challenge")
			if r := in.Wait(t); r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
				t.Fatalf("first answer: got type %d, want 5", r.Type)
			}
			if m := in.Result(t); m.Content != "failed" {
				t.Errorf("deferred message: got %v, want the failure", m)
			}
			if d, a := c.deferred.Load(), c.abandoned.Load(); d != 1 || a != 1 {
				t.Errorf("counted %d deferred, %d abandoned; want 1 and 1", d, a)
			}
		})
	}
}

// slowHandler takes d to answer every interaction with reply "done".
type slowHandler struct{ d time.Duration }

func (h slowHandler) Handle(context.Context, *discordgo.Interaction) interaction.Reply {
	time.Sleep(h.d)
	return ephemeralReply("done")
}

func (slowHandler) TrackMessage(context.Context, int64, string) {}
func (slowHandler) Private(*discordgo.Interaction) bool         { return false }

// A handler that returns before the budget is answered in time, one that
// returns after it is deferred first, and one that returns at the instant
// the deferral is due is either, never both: the reply is late exactly
// when the deferral was made, once, and complete before the reply goes on.
func TestBudgetDeferOrAnswer(t *testing.T) {
	const deferAfter = time.Second
	tests := []struct {
		name       string
		work       time.Duration
		late, both bool
	}{
		{"before", deferAfter - time.Nanosecond, false, false},
		{"at", deferAfter, false, true},
		{"after", deferAfter + time.Nanosecond, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Timers firing at one instant run in no set order: each
			// run is one of them.
			for range 50 {
				synctest.Test(t, func(t *testing.T) {
					c := &counter{}
					b := discord.Budget{DeferAfter: deferAfter, Counter: c}
					i := &discordgo.Interaction{Type: discordgo.InteractionMessageComponent}
					var deferrals []*discordgo.InteractionResponse
					sent := false
					r, late := b.Run(t.Context(), slowHandler{tt.work}, i, func(d *discordgo.InteractionResponse) {
						deferrals = append(deferrals, d)
						time.Sleep(time.Millisecond) // the deferral's REST call or write
						sent = true
					})
					if r.Response == nil || r.Response.Data.Content != "done" {
						t.Fatalf("reply: got %+v, want the handler's", r)
					}
					if !tt.both && late != tt.late {
						t.Errorf("late: got %v, want %v", late, tt.late)
					}
					if want := map[bool]int{false: 0, true: 1}[late]; len(deferrals) != want || c.deferred.Load() != int64(want) {
						t.Fatalf("late %v: got %d deferrals, %d counted; want %d", late, len(deferrals), c.deferred.Load(), want)
					}
					if late && (!sent || deferrals[0].Type != discordgo.InteractionResponseDeferredMessageUpdate) {
						t.Errorf("deferral: got type %d, sent before the reply %v; want a 6 sent", deferrals[0].Type, sent)
					}
				})
			}
		})
	}
}
