package discord_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot/internal/discord"
)

func TestLogger(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
	logf := discord.Logger(log, "secret-token")
	logf(discordgo.LogError, 2, "rate limit unmarshal error, %s", "invalid character '<'")
	logf(discordgo.LogWarning, 2, "error reading from gateway %s websocket, token %s", "wss://gateway", "Bot secret-token")
	logf(discordgo.LogInformational, 2, "called")
	logf(discordgo.LogDebug, 2, "heartbeat")

	var got []string
	for line := range strings.Lines(buf.String()) {
		var r struct{ Level, Msg, Logger string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		got = append(got, r.Level+" "+r.Logger+": "+r.Msg)
	}
	want := []string{
		"ERROR discordgo: rate limit unmarshal error, invalid character '<'",
		"WARN discordgo: error reading from gateway wss://gateway websocket, token Bot [token]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
}
