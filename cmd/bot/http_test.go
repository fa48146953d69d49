package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/health"
)

// get fetches url and returns its status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func TestHealthAndMetricsGatewayMode(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.NewUser("alice")
	first := h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
	board := h.srv.Click(t, alice, first, freeCells(first)[0].CustomID).Result(t)
	// A cell still free, clicked on the first board: stale.
	for i, c := range cells(board) {
		if !c.Disabled {
			wantEphemeral(t, h.srv.ClickStale(t, alice, first, cells(first)[i].CustomID).Wait(t), "out of date")
			break
		}
	}

	code, body := get(t, "http://"+h.addr+"/healthz")
	var hb health.Body
	if err := json.Unmarshal([]byte(body), &hb); err != nil {
		t.Fatalf("healthz: %v in %s", err, body)
	}
	if code != http.StatusOK || hb.Status != "ok" || hb.Checks["database"] != "ok" ||
		!strings.HasPrefix(hb.Checks["gateway"], "ok, heartbeat ") {
		t.Errorf("healthz: got %d %s, want 200 with the database and the gateway ok", code, body)
	}
	code, body = get(t, "http://"+h.addr+"/metrics")
	if code != http.StatusOK {
		t.Fatalf("metrics: got status %d, want 200", code)
	}
	for _, want := range []string{
		`tttbot_interactions_total{outcome="ok",type="command"} 1`,
		`tttbot_interactions_total{outcome="ok",type="component"} 1`,
		`tttbot_interactions_total{outcome="stale",type="component"} 1`,
		`tttbot_interaction_handle_seconds_count{type="component"} 2`,
		`tttbot_ai_search_nodes_count{level="perfect"} 1`,
		`tttbot_store_seconds_count{method="Play"}`,
		`tttbot_store_seconds_count{method="StartGame"} 1`,
		`tttbot_games_active 1`,
		`tttbot_discord_rest_requests_total{code="20`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if code, _ := get(t, "http://"+h.addr+"/interactions"); code != http.StatusNotFound {
		t.Errorf("interactions endpoint in gateway mode: got %d, want 404", code)
	}
}

// httpBot runs the bot in http mode against a local Discord that carries
// only its REST calls, and returns the bot's address and a signer.
func httpBot(t *testing.T) (*discordtest.Server, string, func(body string) *http.Request) {
	srv := discordtest.NewServer(t)
	key := ed25519.NewKeyFromSeed([]byte("tttbot-e2e-http-mode-key-0123456"))
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

	cfg := botConfigFor(t, srv)
	cfg.Discord.Mode = config.ModeHTTP
	cfg.Discord.PublicKey = hex.EncodeToString(key.Public().(ed25519.PublicKey))
	addr, _ := runBot(t, cfg, serveOptions{now: func() time.Time { return now }, seed: 1})
	sign := func(body string) *http.Request {
		r, err := http.NewRequest(http.MethodPost, "http://"+addr+cfg.HTTP.Path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		ts := strconv.FormatInt(now.Unix(), 10)
		r.Header.Set("X-Signature-Timestamp", ts)
		r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, []byte(ts+body))))
		return r
	}
	return srv, addr, sign
}

// botConfigFor is the configuration of a bot on srv with a database under
// t.TempDir and its HTTP server on a free loopback port.
func botConfigFor(t *testing.T, srv *discordtest.Server) config.Config {
	cfg := config.Default()
	cfg.Discord.Token = config.Secret(srv.Token())
	cfg.Discord.APIURL = srv.URL()
	cfg.Database.Path = filepath.Join(t.TempDir(), "tttbot.db")
	cfg.HTTP.Listen = "127.0.0.1:0"
	return cfg
}

// runBot runs serve on cfg until the test ends and returns the addresses
// of its public and admin HTTP servers, "" for one it does not run.
func runBot(t *testing.T, cfg config.Config, o serveOptions) (public, admin string) {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithCancel(context.Background())
	ready, errc := make(chan struct{}), make(chan error, 1)
	o.listening = func(a net.Addr) { public = a.String() }
	o.admin = func(a net.Addr) { admin = a.String() }
	o.ready = func() { close(ready) }
	if o.identifyInterval == 0 {
		o.identifyInterval = identifyInterval
	}
	go func() { errc <- serve(ctx, cfg, log, o) }()
	select {
	case <-ready:
	case err := <-errc:
		cancel()
		t.Fatalf("bot did not start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("bot shutdown: %v", err)
		}
	})
	return public, admin
}

func TestHTTPMode(t *testing.T) {
	srv, addr, sign := httpBot(t)
	if n := len(srv.Identifies()); n != 0 {
		t.Errorf("got %d gateway sessions, want none in http mode", n)
	}
	if c := srv.WaitCall(t, discordtest.RouteOverwriteGlobal); c.Status != http.StatusOK {
		t.Errorf("registration: got %v, want 200", c)
	}

	do := func(r *http.Request) (int, discordgo.InteractionResponse) {
		t.Helper()
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var ir discordgo.InteractionResponse
		if resp.StatusCode == http.StatusOK {
			if err := json.NewDecoder(resp.Body).Decode(&ir); err != nil {
				t.Fatal(err)
			}
		}
		return resp.StatusCode, ir
	}
	// An interaction Discord made at the bot's clock (httpBot's): its
	// snowflake carries the time.
	id := strconv.FormatInt((time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC).UnixMilli()-1420070400000)<<22, 10)
	interaction := func(typ int, data string) string {
		return `{"id":"` + id + `","application_id":"` + srv.ApplicationID() + `","type":` + strconv.Itoa(typ) +
			`,"token":"tok","version":1,"guild_id":"2000","channel_id":"3000",` +
			`"member":{"user":{"id":"4000","username":"alice"}},"data":` + data + `}`
	}

	if code, r := do(sign(`{"id":"5000","application_id":"1000","type":1,"token":"tok","version":1}`)); code != 200 || r.Type != discordgo.InteractionResponsePong {
		t.Errorf("ping: got %d type %d, want 200 type 1", code, r.Type)
	}
	help := interaction(2, `{"id":"1","name":"ttt","type":1,"options":[{"name":"help","type":1}]}`)
	code, r := do(sign(help))
	if code != 200 || r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.Data == nil ||
		r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(r.Data.Content, "Tic-tac-toe") {
		t.Errorf("help: got %d %+v, want the ephemeral help", code, r)
	}
	click := interaction(3, `{"custom_id":"ttt:m:999:1:0","component_type":2}`)
	if code, r := do(sign(click)); code != 200 || r.Data == nil || r.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("click on no game: got %d %+v, want an ephemeral refusal", code, r)
	}
	bad := sign(help)
	bad.Header.Set("X-Signature-Ed25519", strings.Repeat("00", 64))
	if code, _ := do(bad); code != http.StatusUnauthorized {
		t.Errorf("bad signature: got %d, want 401", code)
	}

	code, body := get(t, "http://"+addr+"/healthz")
	if code != http.StatusOK {
		t.Errorf("healthz: got %d %s, want 200", code, body)
	}
	_, body = get(t, "http://"+addr+"/metrics")
	for _, want := range []string{
		`tttbot_http_interaction_requests_total{code="200"} 3`,
		`tttbot_http_interaction_requests_total{code="401"} 1`,
		`tttbot_interactions_total{outcome="ok",type="command"} 1`,
		`tttbot_interactions_total{outcome="not_found",type="component"} 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// TestRegisterCommandsOff: an instance configured not to register leaves
// Discord's commands alone in either mode, while it serves.
func TestRegisterCommandsOff(t *testing.T) {
	key := ed25519.NewKeyFromSeed([]byte("tttbot-e2e-http-mode-key-0123456"))
	for _, mode := range []string{config.ModeGateway, config.ModeHTTP} {
		srv := discordtest.NewServer(t)
		t.Run(mode, func(t *testing.T) {
			cfg := botConfigFor(t, srv)
			cfg.Discord.Mode, cfg.Discord.RegisterCommands = mode, false
			if mode == config.ModeHTTP {
				cfg.Discord.PublicKey = hex.EncodeToString(key.Public().(ed25519.PublicKey))
			}
			addr, _ := runBot(t, cfg, serveOptions{seed: 1})
			// A round trip after start-up, past the moment a registration
			// would have been made.
			if code, _ := get(t, "http://"+addr+"/healthz"); code != http.StatusOK {
				t.Errorf("healthz: got %d, want 200", code)
			}
			if mode == config.ModeGateway {
				help := srv.Slash(t, srv.NewUser("alice"), srv.NewChannel(), "ttt help").Result(t)
				wantSays(t, help, "Tic-tac-toe")
			}
		})
		// The bot has stopped, and with it any registration under way.
		if got := len(srv.CallsTo(discordtest.RouteOverwriteGlobal)); got != 0 {
			t.Errorf("%s: got %d registrations, want none", mode, got)
		}
		if n := len(srv.Commands("")); n != 0 {
			t.Errorf("%s: got %d commands registered, want none", mode, n)
		}
	}
}

// A stop while the board of a new game cannot be fetched (Discord 404s it)
// ends the retries at once: the bot stops cleanly, well within its deadline.
// A turn longer than the board's token lives has the board fetched, for
// the timers' edit should it run out before any click.
func TestHTTPModeStopsWhileRetrying(t *testing.T) {
	h := startHarnessWith(t, ed25519.NewKeyFromSeed([]byte("tttbot-e2e-http-harness-key-0123")), discordtest.Options{}, func(h *harness) {
		h.configure = func(c *config.Config) { c.Game.TurnTimeout = config.Duration{Duration: time.Hour} }
	})
	h.srv.FailNext(t, discordtest.RouteWebhookMessage, 1000, http.StatusNotFound)
	alice := h.srv.NewUser("alice")
	h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge").Result(t)
	// Retried, as a message Discord has yet to create is.
	h.srv.WaitCalls(t, discordtest.RouteWebhookMessage, 2)
	h.stop() // fails the test on an error
	if n := len(h.srv.CallsTo(discordtest.RouteWebhookMessage)); n > 3 {
		t.Errorf("got %d fetches of the board, want the retries to stop with the bot", n)
	}
}
