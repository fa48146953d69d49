package discord_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

func TestGatewayHealth(t *testing.T) {
	ack := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		ready    bool
		age      time.Duration
		wantNote string
		wantErr  string
	}{
		{"connected", true, 12 * time.Second, "heartbeat 12s ago", ""},
		{"just under the bound", true, discord.HeartbeatStale, "heartbeat 1m33s ago", ""},
		{"acks stopped", true, discord.HeartbeatStale + time.Second, "", "no heartbeat acknowledged for 1m34s"},
		{"disconnected", false, 3 * time.Second, "", "not connected (last heartbeat acknowledged 3s ago)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := discord.NewSession("token", "https://discord.com/api/v9")
			if err != nil {
				t.Fatal(err)
			}
			s.DataReady, s.LastHeartbeatAck = tt.ready, ack
			g := discord.NewGateway(s, slog.New(slog.DiscardHandler))
			note, err := g.Health(ack.Add(tt.age))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if note != tt.wantNote || gotErr != tt.wantErr {
				t.Errorf("got %q, %q; want %q, %q", note, gotErr, tt.wantNote, tt.wantErr)
			}
		})
	}
}

// Open returns as soon as its context ends, wherever the connection hangs.
func TestGatewayOpenCancelled(t *testing.T) {
	for _, tt := range discordtest.ConnectHangs() {
		t.Run(tt.Name, func(t *testing.T) {
			srv := discordtest.NewServer(t)
			s, err := discord.NewSession(srv.Token(), srv.URL())
			if err != nil {
				t.Fatal(err)
			}
			hung := tt.Start(t, srv)
			gw := discord.NewGateway(s, slog.New(slog.DiscardHandler))
			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() {
				_, _, err := gw.Open(ctx)
				errc <- err
			}()
			hung()
			cancel()
			// Not a measure of speed: the hangs last until the server
			// closes, and discordgo's own timeouts are 20s and 45s.
			select {
			case err := <-errc:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("got %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Open still running after its context ended")
			}
		})
	}
}

// A gateway that fails to open is opened again under Backoff.Retry.
func TestGatewayOpenRetried(t *testing.T) {
	srv := discordtest.NewServer(t)
	s, err := discord.NewSession(srv.Token(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	srv.FailNext(t, discordtest.RouteGateway, 2, http.StatusInternalServerError)
	gw := discord.NewGateway(s, slog.New(slog.DiscardHandler))
	w := &waits{}
	err = testBackoff(w).Retry(t.Context(), slog.New(slog.DiscardHandler), "open gateway", func(ctx context.Context) error {
		_, _, err := gw.Open(ctx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer gw.Close(context.Background())
	if got := len(w.list()); got != 2 {
		t.Errorf("got %d waits, want 2", got)
	}
}

// A token the gateway refuses (close 4004) is final.
func TestGatewayOpenRefused(t *testing.T) {
	srv := discordtest.NewServer(t)
	s, err := discord.NewSession("wrong-token", srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	gw := discord.NewGateway(s, slog.New(slog.DiscardHandler))
	w := &waits{}
	err = testBackoff(w).Retry(t.Context(), slog.New(slog.DiscardHandler), "open gateway", func(ctx context.Context) error {
		_, _, err := gw.Open(ctx)
		return err
	})
	var auth *discord.AuthError
	if !errors.As(err, &auth) || auth.Status != http.StatusUnauthorized {
		t.Errorf("got %v, want an AuthError with status 401", err)
	}
	if got := w.list(); len(got) != 0 {
		t.Errorf("got waits %v, want none", got)
	}
}
