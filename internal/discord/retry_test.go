package discord_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

// waits records a Backoff's waits instead of sleeping them.
type waits struct {
	mu   sync.Mutex
	got  []time.Duration
	stop int                // cancel after this many waits; 0 never
	end  context.CancelFunc // what cancels
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.got = append(w.got, d)
	if w.stop > 0 && len(w.got) >= w.stop {
		w.end()
	}
	return ctx.Err()
}

func (w *waits) list() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.got...)
}

// testBackoff waits 3/4 of each step: 750ms, 1.5s, 3s, then 3s (the 4s cap).
func testBackoff(w *waits) discord.Backoff {
	return discord.Backoff{Min: time.Second, Max: 4 * time.Second, Sleep: w.sleep, Rand: func() float64 { return 0.5 }}
}

func TestRetry(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name     string
		status   int // of the failures
		n        int // how many
		wantAuth int // the *AuthError's status; 0 for none
		wantErr  bool
		waits    []time.Duration
	}{
		{"5xx then ok", http.StatusInternalServerError, 3, 0, false, []time.Duration{750 * ms, 1500 * ms, 3000 * ms}},
		{"waits capped", http.StatusServiceUnavailable, 5, 0, false, []time.Duration{750 * ms, 1500 * ms, 3000 * ms, 3000 * ms, 3000 * ms}},
		// discordgo alone would retry a 502 at once, without backing off.
		{"502 backs off", http.StatusBadGateway, 1, 0, false, []time.Duration{750 * ms}},
		// The local Discord's 429 says retry_after 50ms.
		{"429 waits retry_after", http.StatusTooManyRequests, 2, 0, false, []time.Duration{50 * ms, 50 * ms}},
		{"401 is final", http.StatusUnauthorized, 1, http.StatusUnauthorized, true, nil},
		{"403 is final", http.StatusForbidden, 1, http.StatusForbidden, true, nil},
		{"404 is final", http.StatusNotFound, 1, 0, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := discordtest.NewServer(t)
			s, err := discord.NewSession(srv.Token(), srv.URL())
			if err != nil {
				t.Fatal(err)
			}
			srv.FailNext(t, discordtest.RouteUser, tt.n, tt.status)
			w := &waits{}
			err = testBackoff(w).Retry(t.Context(), slog.New(slog.DiscardHandler), "get bot user", func(ctx context.Context) error {
				_, _, err := discord.Self(ctx, s)
				return err
			})
			var auth *discord.AuthError
			switch {
			case !tt.wantErr && err != nil:
				t.Errorf("got %v, want success", err)
			case tt.wantErr && err == nil:
				t.Error("got success, want an error")
			case tt.wantAuth != 0 && (!errors.As(err, &auth) || auth.Status != tt.wantAuth):
				t.Errorf("got %v, want an AuthError with status %d", err, tt.wantAuth)
			case tt.wantAuth == 0 && errors.As(err, &auth):
				t.Errorf("got AuthError %v, want another error", err)
			}
			if diff := cmp.Diff(tt.waits, w.list()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			calls := len(srv.CallsTo(discordtest.RouteUser))
			if want := len(tt.waits) + 1; calls != want {
				t.Errorf("got %d calls, want %d", calls, want)
			}
		})
	}
}

// A network error is retried until ctx ends, and the log names the URL
// requested.
func TestRetryNetworkError(t *testing.T) {
	srv := discordtest.NewServer(t)
	srv.Close() // nothing listens at its URL now
	api := srv.URL()
	s, err := discord.NewSession("test-token", api)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	w := &waits{stop: 3, end: cancel}
	var buf bytes.Buffer
	err = testBackoff(w).Retry(ctx, slog.New(slog.NewTextHandler(&buf, nil)), "get bot user", func(ctx context.Context) error {
		_, _, err := discord.Self(ctx, s)
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	if got := len(w.list()); got != 3 {
		t.Errorf("got %d waits, want 3", got)
	}
	if !strings.Contains(buf.String(), api+"/users/@me") || strings.Contains(buf.String(), "discord.com") {
		t.Errorf("log names other URLs than %s/users/@me:\n%s", api, &buf)
	}
}

// A 403 says what to fix where it happened: in a guild, invite the bot
// there; elsewhere, the token is not the application's bot's.
func TestAuthErrorAdvice(t *testing.T) {
	register := func(guilds ...string) func(*testing.T, *discordtest.Server) error {
		return func(t *testing.T, srv *discordtest.Server) error {
			s, err := discord.NewSession(srv.Token(), srv.URL())
			if err != nil {
				t.Fatal(err)
			}
			return testBackoff(&waits{}).Retry(t.Context(), slog.New(slog.DiscardHandler), "register commands", func(ctx context.Context) error {
				return discord.Register(ctx, s, srv.ApplicationID(), guilds, nil, slog.New(slog.DiscardHandler))
			})
		}
	}
	tests := []struct {
		name, route string
		call        func(*testing.T, *discordtest.Server) error
		want        string
	}{
		{"gateway", discordtest.RouteGatewayBot, func(t *testing.T, srv *discordtest.Server) error {
			gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{})
			_, _, err := gw.Open(t.Context())
			return err
		}, `discord denied the token the call "get gateway", which needs a bot's token: set DISCORD_TOKEN to the token of your application's bot`},
		{"global commands", discordtest.RouteOverwriteGlobal, register(),
			`discord denied the token the call "register commands", which needs a bot's token`},
		{"guild commands", discordtest.RouteOverwriteGuild, register("42"),
			"discord denied the bot access to guild 42: invite it to each guild of discord.guild_ids with the bot and applications.commands scopes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := discordtest.NewServer(t)
			srv.FailNext(t, tt.route, 1, http.StatusForbidden)
			err := tt.call(t, srv)
			var auth *discord.AuthError
			if !errors.As(err, &auth) || auth.Status != http.StatusForbidden || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got %v, want an AuthError with status 403 saying %q", err, tt.want)
			}
		})
	}
}
