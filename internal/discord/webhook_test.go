package discord_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/interaction"
)

// webhookREST answers an interaction's token calls: the callback, GET
// @original (once gets requests are in at the same time, or after a second
// with a 503) and follow-ups. The first limited callbacks get a 429.
type webhookREST struct {
	gets    int
	limited int

	mu        sync.Mutex
	callbacks []time.Time
	followups int
	waiting   int
	all       chan struct{} // closed once gets GETs wait together
}

func (f *webhookREST) session(t *testing.T) *discordgo.Session {
	t.Helper()
	f.all = make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v9/interactions/{id}/{token}/callback", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.callbacks = append(f.callbacks, time.Now())
		if len(f.callbacks) <= f.limited {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			io.WriteString(w, `{"message":"You are being rate limited.","retry_after":0.05,"global":false}`)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /api/v9/webhooks/{app}/{token}/messages/@original", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		if f.waiting++; f.waiting == f.gets {
			close(f.all)
		}
		f.mu.Unlock()
		select {
		case <-f.all:
			fmt.Fprintf(w, `{"id":"9%s","channel_id":"20"}`, r.PathValue("token"))
		case <-time.After(time.Second):
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	mux.HandleFunc("POST /api/v9/webhooks/{app}/{token}", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.followups++
		w.WriteHeader(http.StatusNoContent)
	})
	return newREST(t, mux)
}

func tokenInteraction(n int) *discordgo.Interaction {
	return &discordgo.Interaction{ID: fmt.Sprint(100 + n), AppID: "5", Type: discordgo.InteractionApplicationCommand,
		Token: fmt.Sprintf("tok%d", n), ChannelID: "20", Data: discordgo.ApplicationCommandInteractionData{Name: "ttt"}}
}

var boardReply = interaction.Reply{
	Response: &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Content: "board"},
	},
	TrackGame: 7, FetchBoard: true,
	Followup: &discordgo.InteractionResponseData{Content: "rematch?"},
}

// The calls of different interactions do not wait for each other: against
// Discord each takes tens of milliseconds, and one at a time for the whole
// bot would queue without end under load.
func TestInteractionCallsRunAtOnce(t *testing.T) {
	const n = 4
	rest := &webhookREST{gets: n}
	s := rest.session(t)
	var wg sync.WaitGroup
	tracked := make([]*fakeHandler, n)
	for k := range n {
		tracked[k] = &fakeHandler{reply: boardReply}
		wg.Go(func() {
			discord.Respond(context.Background(), s, tracked[k], tokenInteraction(k), slog.New(slog.DiscardHandler))
		})
	}
	wg.Wait()
	for k, f := range tracked {
		if got, want := f.tracked[7], fmt.Sprintf("9tok%d", k); got != want {
			t.Errorf("interaction %d: got board message %q, want %q", k, got, want)
		}
	}
	if rest.followups != n {
		t.Errorf("got %d follow-ups, want %d", rest.followups, n)
	}
}

// The session keeps no rate-limit bucket for an interaction's token: one
// an interaction would grow its memory for as long as it runs.
func TestInteractionCallsLeaveNoBucket(t *testing.T) {
	rest := &webhookREST{gets: 1}
	s := rest.session(t)
	i := tokenInteraction(1)
	f := &fakeHandler{reply: boardReply}
	discord.Respond(context.Background(), s, f, i, slog.New(slog.DiscardHandler))
	if f.tracked[7] == "" || rest.followups != 1 || len(rest.callbacks) != 1 {
		t.Fatalf("got message %q, %d follow-ups, %d callbacks; want the message, 1, 1", f.tracked[7], rest.followups, len(rest.callbacks))
	}
	for _, key := range []string{
		discordgo.EndpointInteractionResponse(i.ID, i.Token),
		discordgo.EndpointWebhookToken(i.AppID, i.Token),
		discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original"),
	} {
		// GetBucket makes a bucket it does not have, with one request left.
		if b := s.Ratelimiter.GetBucket(key); b.Remaining != 1 {
			t.Errorf("got a used bucket for %s (%d left), want none", key, b.Remaining)
		}
	}
}

// A 429 on a token call is waited out and the call sent again.
func TestInteractionCallWaitsOutRateLimit(t *testing.T) {
	rest := &webhookREST{gets: 1, limited: 1}
	s := rest.session(t)
	f := &fakeHandler{reply: interaction.Reply{Response: boardReply.Response}}
	discord.Respond(context.Background(), s, f, tokenInteraction(1), slog.New(slog.DiscardHandler))
	if len(rest.callbacks) != 2 {
		t.Fatalf("got %d callbacks, want 2 (a 429, then the answer)", len(rest.callbacks))
	}
	if d := rest.callbacks[1].Sub(rest.callbacks[0]); d < 50*time.Millisecond {
		t.Errorf("got the callback sent again after %v, want at least the 50ms Retry-After", d)
	}
}
