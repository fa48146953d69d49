package discordtest

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// An interaction goes to the endpoint signed, its answer is the callback,
// and a replay sends the same signed bytes again without a callback.
func TestEndpoint(t *testing.T) {
	srv := NewServer(t)
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var posts atomic.Int32
	bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ts := r.Header.Get("X-Signature-Timestamp")
		sig, _ := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		if ts != "1795348800" || !ed25519.Verify(key.Public().(ed25519.PublicKey), append([]byte(ts), body...), sig) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		if posts.Add(1) > 1 {
			http.Error(w, "seen", http.StatusUnauthorized)
			return
		}
		json.NewEncoder(w).Encode(discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "pong"},
		})
	}))
	defer bot.Close()
	srv.UseEndpoint(bot.URL, key, func() time.Time { return now })

	in := srv.Slash(t, srv.NewUser("alice"), srv.NewChannel(), "ping")
	if m := in.Result(t); m.Content != "pong" {
		t.Errorf("got %q, want the endpoint's answer", m.Content)
	}
	if got := in.Replay(t); got != http.StatusUnauthorized {
		t.Errorf("replay: got %d, want the endpoint's 401", got)
	}
	if n := len(srv.CallsTo(RouteCallback)); n != 0 {
		t.Errorf("got %d REST callbacks, want none: the answer is the HTTP response", n)
	}
}

// A held route answers only once released.
func TestHold(t *testing.T) {
	srv := NewServer(t)
	s := open(t, srv, nil)
	ch := srv.NewChannel()
	slow := srv.Hold(t, RouteCreateMessage)
	done := make(chan error, 1)
	go func() { _, err := s.ChannelMessageSend(ch, "hi"); done <- err }()
	slow.Wait(t, 1)
	if n := len(srv.Messages(ch)); n != 0 {
		t.Errorf("got %d messages while held, want none", n)
	}
	slow.Release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Messages(ch)); n != 1 {
		t.Errorf("got %d messages once released, want 1", n)
	}
}
