package main

import (
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
	return get(t, "http://"+h.addr+path)
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

// links lists the URLs of m's link buttons.
func links(m *discordtest.Message) []string {
	var out []string
	for _, b := range m.Buttons() {
		if b.URL != "" {
			out = append(out, b.URL)
		}
	}
	return out
}

// TestWebLinks: the replies link to the pages that exist, and only to
// them: the finished board, /ttt review, /ttt leaderboard, /ttt stats and
// /ttt history, before and after the server's page is turned on.
func TestWebLinks(t *testing.T) {
	h := webHarness(t)
	admin, alice, bob := h.srv.NewAdminUser("admin"), h.srv.NewUser("alice"), h.srv.NewUser("bob")
	ch := h.srv.NewChannel()
	replies := func() map[string]*discordtest.Message {
		board, _ := h.play(h.startGame(ch, alice, bob), alice, bob, 0, 3, 1, 4, 2)
		return map[string]*discordtest.Message{
			"board":       board,
			"review":      h.srv.Click(t, alice, board, board.Button(t, "Review").CustomID).Result(t),
			"leaderboard": h.srv.Slash(t, alice, ch, "ttt leaderboard").Result(t),
			"stats":       h.srv.Slash(t, alice, ch, "ttt stats").Result(t),
			"history":     h.srv.Slash(t, alice, ch, "ttt history").Result(t),
		}
	}
	for name, m := range replies() {
		if l := links(m); len(l) > 0 {
			t.Errorf("%s without a page: links to %v", name, l)
		}
	}
	h.adminSays(t, admin, ch, "web on", nil, "https://ttt.example/s/")
	for name, m := range replies() {
		l := links(m)
		if len(l) != 1 {
			t.Errorf("%s: links to %v, want one", name, l)
			continue
		}
		if code, body := h.page(t, l[0]); code != http.StatusOK {
			t.Errorf("%s: %s answers %d %.200s", name, l[0], code, body)
		}
	}
}
