package discord

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

// recordTransport answers 204 to everything and keeps the requests.
type recordTransport struct{ reqs []*http.Request }

func (t *recordTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t.reqs = append(t.reqs, r)
	return &http.Response{StatusCode: http.StatusNoContent, Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

func TestNewTransportDefaultPassesThrough(t *testing.T) {
	base := &recordTransport{}
	for _, u := range []string{"https://discord.com/api/v9", "https://discord.com/api/v9/"} {
		got, err := NewTransport(u, base)
		if err != nil {
			t.Fatalf("NewTransport(%q): %v", u, err)
		}
		if got != base {
			t.Errorf("NewTransport(%q): got %T, want the base transport itself", u, got)
		}
	}
	if got, _ := NewTransport("https://discord.com/api/v9", nil); got != http.DefaultTransport {
		t.Errorf("NewTransport with a nil base: got %T, want http.DefaultTransport", got)
	}
}

func TestNewTransportRejectsBadURLs(t *testing.T) {
	for _, u := range []string{"", "discord.com/api/v9", "ftp://example.com/api", "http://", "http://x/api?v=9", "http://[::1", "/api/v9"} {
		if _, err := NewTransport(u, nil); err == nil {
			t.Errorf("NewTransport(%q): got no error", u)
		}
	}
}

func TestNewTransportRewrites(t *testing.T) {
	tests := []struct {
		api, in, want string
	}{
		{"http://127.0.0.1:1234/api/v9", "https://discord.com/api/v9/channels/1/messages?wait=true", "http://127.0.0.1:1234/api/v9/channels/1/messages?wait=true"},
		{"http://127.0.0.1:1234/api/v9/", "https://discord.com/api/v9/gateway", "http://127.0.0.1:1234/api/v9/gateway"},
		{"https://proxy.example/discord", "https://discord.com/api/v9/users/@me", "https://proxy.example/discord/users/@me"},
		{"https://proxy.example/discord", "https://discord.com/api/v9/channels/1/messages/2/reactions/%23%E2%83%A3/@me", "https://proxy.example/discord/channels/1/messages/2/reactions/%23%E2%83%A3/@me"},
		// Not under discordgo's API base: untouched.
		{"http://127.0.0.1:1234/api/v9", "https://cdn.discordapp.com/avatars/1/a.png", "https://cdn.discordapp.com/avatars/1/a.png"},
		{"http://127.0.0.1:1234/api/v9", "https://discord.com/api/v90/x", "https://discord.com/api/v90/x"},
		{"http://127.0.0.1:1234/api/v9", "http://discord.com/api/v9/x", "http://discord.com/api/v9/x"},
	}
	for _, tc := range tests {
		base := &recordTransport{}
		rt, err := NewTransport(tc.api, base)
		if err != nil {
			t.Fatalf("NewTransport(%q): %v", tc.api, err)
		}
		req, err := http.NewRequest(http.MethodPost, tc.in, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bot x")
		if _, err := rt.RoundTrip(req); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		sent := base.reqs[0]
		if got := sent.URL.String(); got != tc.want {
			t.Errorf("%s via %s: got %s, want %s", tc.in, tc.api, got, tc.want)
		}
		if sent.Header.Get("Authorization") != "Bot x" || sent.Method != http.MethodPost {
			t.Errorf("%s: got %s with headers %v, want the method and headers kept", tc.in, sent.Method, sent.Header)
		}
		if got := req.URL.String(); got != tc.in {
			t.Errorf("%s: the caller's request changed to %s", tc.in, got)
		}
	}
}

// TestNewTransportWithDiscordgo opens a real discordgo session through the
// transport against the local Discord.
func TestNewTransportWithDiscordgo(t *testing.T) {
	srv := discordtest.NewServer(t)
	rt, err := NewTransport(srv.URL(), http.DefaultTransport)
	if err != nil {
		t.Fatal(err)
	}
	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: rt}
	s.Identify.Intents = discordgo.IntentsNone
	if err := s.Open(); err != nil {
		t.Fatalf("open: %v", err)
	}
	defer s.Close()
	if s.State.User.ID != srv.Bot().ID {
		t.Errorf("user: got %q, want %q", s.State.User.ID, srv.Bot().ID)
	}
	ch := srv.NewChannel()
	if _, err := s.ChannelMessageSend(ch, "hello"); err != nil {
		t.Fatalf("send: %v", err)
	}
	if got := srv.Messages(ch); len(got) != 1 || got[0].Content != "hello" {
		t.Errorf("messages: got %v, want hello", got)
	}
}

// A failed call's error names the URL it went to, not Discord's.
func TestErrorNamesAPIURL(t *testing.T) {
	srv := discordtest.NewServer(t)
	srv.Close() // nothing listens at its URL now
	api := srv.URL()
	s, err := NewSession("test-token", api)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Self(t.Context(), s)
	if err == nil {
		t.Fatal("got no error from a closed server")
	}
	if want := `"` + api + `/users/@me"`; !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "discord.com") {
		t.Errorf("got %q, want it to name %s and not discord.com", err, want)
	}
}
