package discord_test

import (
	"log/slog"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/discord"
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
