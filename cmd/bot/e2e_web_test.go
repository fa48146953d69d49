package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

// webHarness runs the bot with its web pages on, their links at the
// bot's own address.
func webHarness(t *testing.T) *harness {
	return startHarnessWith(t, nil, discordtest.Options{}, func(h *harness) {
		h.configure = func(c *config.Config) {
			c.Web.Enabled, c.Web.PublicURL = true, "https://ttt.example"
		}
	})
}

// page fetches the page a link button points at, from the bot's own
// listener.
func (h *harness) page(t *testing.T, link string) (int, string) {
	t.Helper()
	path, ok := strings.CutPrefix(link, "https://ttt.example")
	if !ok {
		t.Fatalf("link %q is not to the pages", link)
	}
	resp, err := http.Get("http://" + h.addr + path)
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

// link is the URL of m's link button, failing without one.
func link(t *testing.T, m *discordtest.Message) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if b.URL != "" {
			return b.URL
		}
	}
	t.Fatalf("no link button in %s", m)
	return ""
}

// TestWebPages: end to end, an admin turns the server's page on from
// Discord and its link serves the leaderboard; off, the same link is a
// 404; a player makes their profile public and its link serves it.
func TestWebPages(t *testing.T) {
	h := webHarness(t)
	admin, alice := h.srv.NewAdminUser("admin"), h.srv.NewUser("alice")
	lobby := h.srv.NewChannel()
	on := link(t, h.adminSays(t, admin, lobby, "web on", nil, "https://ttt.example/s/"))
	if code, body := h.page(t, on); code != http.StatusOK || !strings.Contains(body, "Leaderboard") {
		t.Errorf("the server's page: got %d %.200s", code, body)
	}
	h.adminSays(t, admin, lobby, "web off", nil, "off")
	if code, _ := h.page(t, on); code != http.StatusNotFound {
		t.Errorf("the server's page once off: got %d, want 404", code)
	}

	r := h.srv.Slash(t, alice, lobby, "ttt profile", discordtest.BoolOption("public", true)).Wait(t)
	if !r.Ephemeral() {
		t.Fatalf("/ttt profile: got a public answer %s", r.Data)
	}
	if code, body := h.page(t, link(t, r.Message)); code != http.StatusOK || !strings.Contains(body, "Profile of alice") {
		t.Errorf("the profile: got %d %.200s", code, body)
	}
}
