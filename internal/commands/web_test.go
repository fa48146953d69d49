package commands

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

// linkURL is the URL of r's one link button, "" without one.
func linkURL(t *testing.T, r *discordgo.InteractionResponseData) string {
	t.Helper()
	var urls []string
	for _, row := range r.Components {
		for _, c := range row.(discordgo.ActionsRow).Components {
			if b, ok := c.(discordgo.Button); ok && b.Style == discordgo.LinkButton {
				urls = append(urls, b.URL)
			}
		}
	}
	if len(urls) > 1 {
		t.Fatalf("got link buttons to %v, want at most one", urls)
	}
	return strings.Join(urls, "")
}

// TestAdminWeb: /ttt-admin web on gives the server a page and links to
// it, off takes it down, and /ttt-admin show says which.
func TestAdminWeb(t *testing.T) {
	h, db := newTestHandler(t)
	h.ServeWeb("https://ttt.example/")
	admin := func(sub string) *discordgo.InteractionResponseData {
		i := slash(t, "10", "2000", "30", `{"name":"ttt-admin","options":[{"type":2,"name":"web","options":[{"type":1,"name":"`+sub+`"}]}]}`)
		i.Member.Permissions = discordgo.PermissionManageGuild
		r := h.Handle(t.Context(), i)
		if r.Code != "" {
			t.Fatalf("web %s: refused: %q", sub, r.Response.Data.Content)
		}
		return r.Response.Data
	}
	on := admin("on")
	st, err := db.Settings(t.Context(), "2000")
	if err != nil || st.Web == "" {
		t.Fatalf("settings after on: %+v, %v", st, err)
	}
	want := "https://ttt.example/s/" + st.Web
	if got := linkURL(t, on); got != want || !strings.Contains(on.Content, want) {
		t.Errorf("on: got %q with a link to %q, want the page %s", on.Content, got, want)
	}
	off := admin("off")
	if got := linkURL(t, off); got != "" || !strings.Contains(off.Content, "off") {
		t.Errorf("off: got %q with a link to %q, want off and no link", off.Content, got)
	}
	if _, err := db.WebGuild(t.Context(), st.Web); tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
		t.Errorf("the page after off: got %v, want ENOTFOUND", err)
	}
}

// TestProfileCommand: /ttt profile public:true makes the profile public
// and links to it; public:false makes it private again.
func TestProfileCommand(t *testing.T) {
	h, db := newTestHandler(t)
	profile := func(public string) *discordgo.InteractionResponseData {
		r := h.Handle(t.Context(), slash(t, "10", "2000", "30", `{"name":"ttt","options":[{"type":1,"name":"profile","options":[{"type":5,"name":"public","value":`+public+`}]}]}`))
		if r.Code != "" || r.Response.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
			t.Fatalf("public:%s: got %+v, want a private answer", public, r.Response.Data)
		}
		return r.Response.Data
	}
	// Without web pages, no link.
	if got := linkURL(t, profile("true")); got != "" {
		t.Errorf("without pages: got a link to %q", got)
	}
	h.ServeWeb("https://ttt.example")
	r := profile("true")
	p, err := db.Profiles(t.Context(), []string{"10"})
	if err != nil || !p["10"].Public {
		t.Fatalf("after public:true: %+v, %v", p, err)
	}
	if got, want := linkURL(t, r), "https://ttt.example/p/"+p["10"].WebID; got != want {
		t.Errorf("public:true: got a link to %q, want %q", got, want)
	}
	if got := linkURL(t, profile("false")); got != "" {
		t.Errorf("public:false: got a link to %q", got)
	}
	if p, err = db.Profiles(t.Context(), []string{"10"}); err != nil || p["10"].Public {
		t.Errorf("after public:false: %+v, %v", p, err)
	}
}
