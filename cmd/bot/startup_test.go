package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/health"
)

// startup runs serve against srv in gateway mode, its backoff's waits
// recorded instead of slept.
type startup struct {
	ready  chan struct{}
	errc   chan error
	cancel context.CancelFunc

	mu    sync.Mutex
	waits int
}

func startServe(t *testing.T, srv *discordtest.Server) *startup {
	t.Helper()
	cfg := botConfigFor(t, srv)
	cfg.HTTP.Listen = ""
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithCancel(context.Background())
	st := &startup{ready: make(chan struct{}), errc: make(chan error, 1), cancel: cancel}
	b := discord.Backoff{Sleep: func(ctx context.Context, _ time.Duration) error {
		st.mu.Lock()
		defer st.mu.Unlock()
		st.waits++
		return ctx.Err()
	}}
	go func() {
		st.errc <- serve(ctx, cfg, log, serveOptions{seed: 1, ready: func() { close(st.ready) }, backoff: b, identifyInterval: identifyInterval})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-st.errc:
		case <-time.After(10 * time.Second):
			t.Error("serve still running 10s after its context ended")
		}
	})
	return st
}

// waitReady fails the test unless serve starts serving.
func (st *startup) waitReady(t *testing.T) {
	t.Helper()
	select {
	case <-st.ready:
	case err := <-st.errc:
		st.errc <- err // for the cleanup
		t.Fatalf("bot did not start: %v", err)
	}
}

// result waits for serve to return, failing the test after 5s: not a
// measure of speed, a guard against waiting for discordgo's own timeouts
// (20s for a REST call, 45s for a websocket handshake).
func (st *startup) result(t *testing.T) error {
	t.Helper()
	select {
	case err := <-st.errc:
		st.errc <- err
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("serve still running")
		return nil
	}
}

func (st *startup) waitCount() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.waits
}

// Start-up calls that fail with a 5xx or 429 are retried; registration
// retries in the background while the bot serves.
func TestServeRetriesStartup(t *testing.T) {
	tests := []struct {
		name   string
		route  string
		status int // of two failures
		waits  int // the backoff's
	}{
		{"gateway URL 500", discordtest.RouteGateway, http.StatusInternalServerError, 2},
		// discordgo waits out a 429 on the gateway URL itself, inside Open.
		{"gateway URL 429", discordtest.RouteGateway, http.StatusTooManyRequests, 0},
		{"registration 500", discordtest.RouteOverwriteGlobal, http.StatusInternalServerError, 2},
		{"registration 429", discordtest.RouteOverwriteGlobal, http.StatusTooManyRequests, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := discordtest.NewServer(t)
			srv.FailNext(t, tt.route, 2, tt.status)
			st := startServe(t, srv)
			st.waitReady(t)
			calls := srv.WaitCalls(t, discordtest.RouteOverwriteGlobal, 1)
			if tt.route == discordtest.RouteOverwriteGlobal {
				calls = srv.WaitCalls(t, discordtest.RouteOverwriteGlobal, 3)
			}
			if last := calls[len(calls)-1]; last.Status != http.StatusOK {
				t.Errorf("last registration: got %v, want 200", last)
			}
			if len(srv.Commands("")) == 0 {
				t.Error("no commands registered")
			}
			if got := st.waitCount(); got != tt.waits {
				t.Errorf("got %d waits, want %d", got, tt.waits)
			}
		})
	}
}

// Discord refusing the bot stops it, with a message that says what to fix.
func TestServeStopsWhenRefused(t *testing.T) {
	tests := []struct {
		status int
		says   string
	}{
		{http.StatusUnauthorized, "set DISCORD_TOKEN"},
		// Global commands need no guild: the token is not the bot's, or
		// not the application's.
		{http.StatusForbidden, "discord.application_id, if set, to that application's ID"},
	}
	for _, tt := range tests {
		status := tt.status
		t.Run(http.StatusText(status), func(t *testing.T) {
			srv := discordtest.NewServer(t)
			srv.FailNext(t, discordtest.RouteOverwriteGlobal, 1, status)
			st := startServe(t, srv)
			var auth *discord.AuthError
			err := st.result(t)
			if !errors.As(err, &auth) || auth.Status != status {
				t.Errorf("got %v, want an AuthError with status %d", err, status)
			} else if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %q, want it to say %q", err, tt.says)
			}
			if got := len(srv.CallsTo(discordtest.RouteOverwriteGlobal)); got != 1 {
				t.Errorf("got %d registrations, want 1", got)
			}
		})
	}
}

// A stop asked for while connecting ends serve at once, without an error.
func TestServeStopsWhileConnecting(t *testing.T) {
	for _, tt := range discordtest.ConnectHangs() {
		t.Run(tt.Name, func(t *testing.T) {
			srv := discordtest.NewServer(t)
			hung := tt.Start(t, srv)
			st := startServe(t, srv)
			hung()
			st.cancel()
			if err := st.result(t); err != nil {
				t.Errorf("got %v, want nil", err)
			}
		})
	}
}

// /healthz answers from the moment the bot has bound its address: 503,
// "starting", while it connects to Discord, then 200 once it runs.
func TestHealthWhileStarting(t *testing.T) {
	srv := discordtest.NewServer(t)
	held := srv.Hold(t, discordtest.RouteGateway)
	cfg := botConfigFor(t, srv)
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithCancel(context.Background())
	addr, ready, errc := make(chan string, 1), make(chan struct{}), make(chan error, 1)
	go func() {
		errc <- serve(ctx, cfg, log, serveOptions{seed: 1, identifyInterval: identifyInterval,
			listening: func(a net.Addr) { addr <- a.String() },
			ready:     func() { close(ready) },
		})
	}()
	defer func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	url := "http://" + <-addr + "/healthz"
	held.Wait(t, 1) // connecting to Discord

	get := func() (int, health.Body) {
		t.Helper()
		// The timeout only guards against a server that never answers.
		resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b health.Body
		if err := json.NewDecoder(resp.Body).Decode(&b); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, b
	}
	code, body := get()
	if code != http.StatusServiceUnavailable || body.Checks["startup"] != "starting: connecting to Discord" {
		t.Errorf("while connecting: got %d %+v, want 503 and the startup check starting", code, body)
	}
	held.Release()
	select {
	case <-ready:
	case err := <-errc:
		errc <- err
		t.Fatalf("bot did not start: %v", err)
	}
	if code, body := get(); code != http.StatusOK || body.Checks["database"] != "ok" {
		t.Errorf("once running: got %d %+v, want 200 with the database ok", code, body)
	}
}

// In http mode a starting bot checks what reaches its endpoint as a
// running one does, and says it is starting only to a signed interaction.
func TestHTTPEndpointWhileStarting(t *testing.T) {
	srv := discordtest.NewServer(t)
	held := srv.Hold(t, discordtest.RouteUser)
	key := ed25519.NewKeyFromSeed([]byte("tttbot-e2e-http-mode-key-0123456"))
	cfg := botConfigFor(t, srv)
	cfg.Discord.Mode = config.ModeHTTP
	cfg.Discord.PublicKey = hex.EncodeToString(key.Public().(ed25519.PublicKey))
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithCancel(context.Background())
	addr, errc := make(chan string, 1), make(chan error, 1)
	go func() {
		errc <- serve(ctx, cfg, log, serveOptions{listening: func(a net.Addr) { addr <- a.String() }})
	}()
	defer func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	url := "http://" + <-addr + cfg.HTTP.Path
	held.Wait(t, 1) // asking Discord who the bot is

	const command = `{"id":"2","application_id":"5","type":2,"token":"tok","channel_id":"20",` +
		`"user":{"id":"30","username":"ann"},"data":{"id":"3","name":"ttt","type":1}}`
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sign := func(k ed25519.PrivateKey) string { return hex.EncodeToString(ed25519.Sign(k, []byte(ts+command))) }
	other := ed25519.NewKeyFromSeed([]byte("someone-else-entirely-0123456789"))
	tests := []struct {
		name, method, signature string
		wantCode                int
		wantBody                string
	}{
		{"GET", http.MethodGet, "", http.StatusMethodNotAllowed, "Method Not Allowed"},
		{"unsigned", http.MethodPost, "", http.StatusUnauthorized, "Unauthorized"},
		{"garbage signature", http.MethodPost, "zz", http.StatusUnauthorized, "Unauthorized"},
		{"another key's signature", http.MethodPost, sign(other), http.StatusUnauthorized, "Unauthorized"},
		{"signed", http.MethodPost, sign(key), http.StatusServiceUnavailable, "starting"},
	}
	for _, tt := range tests {
		r, err := http.NewRequest(tt.method, url, strings.NewReader(command))
		if err != nil {
			t.Fatal(err)
		}
		if tt.signature != "" {
			r.Header.Set("X-Signature-Timestamp", ts)
			r.Header.Set("X-Signature-Ed25519", tt.signature)
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(string(b)); resp.StatusCode != tt.wantCode || got != tt.wantBody {
			t.Errorf("%s: got %d %q, want %d %q", tt.name, resp.StatusCode, got, tt.wantCode, tt.wantBody)
		}
	}
}
