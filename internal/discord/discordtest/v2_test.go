package discordtest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// v2Data is a components V2 message of cs.
func v2Data(cs ...discordgo.MessageComponent) discordgo.InteractionResponseData {
	return discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsIsComponentsV2, Components: cs}
}

func container(accent int, cs ...discordgo.MessageComponent) *discordgo.Container {
	return &discordgo.Container{AccentColor: &accent, Components: cs}
}

func text(s string) discordgo.TextDisplay { return discordgo.TextDisplay{Content: s} }

// v2Board is a 5×5 board in a container with a header, a separator and a
// control row of n buttons: 1 + 1 + 5×6 + 1 + 1+n = 34+n components.
func v2Board(n int) *discordgo.Container {
	cs := []discordgo.MessageComponent{text("header")}
	for r := range 5 {
		cells := make([]discordgo.MessageComponent, 5)
		for c := range cells {
			cells[c] = btn("\u200b", fmt.Sprintf("g:1:%d", r*5+c))
		}
		cs = append(cs, row(cells...))
	}
	cs = append(cs, discordgo.Separator{})
	controls := make([]discordgo.MessageComponent, n)
	for i := range controls {
		controls[i] = btn("c", fmt.Sprintf("c:%d", i))
	}
	return container(0x5865F2, append(cs, row(controls...))...)
}

// With the components V2 flag a message is its components, by V2's rules.
func TestCheckMessageV2(t *testing.T) {
	spacing3 := discordgo.SeparatorSpacingSize(3)
	media := func(url string) discordgo.MediaGalleryItem {
		return discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: url}}
	}
	gallery := func(n int) discordgo.MediaGallery {
		g := discordgo.MediaGallery{}
		for i := range n {
			g.Items = append(g.Items, media(fmt.Sprintf("attachment://%d.png", i)))
		}
		return g
	}
	section := func(texts int, accessory discordgo.MessageComponent) discordgo.Section {
		s := discordgo.Section{Accessory: accessory}
		for range texts {
			s.Components = append(s.Components, text("t"))
		}
		return s
	}
	withID := func(id int, customID string) discordgo.ActionsRow {
		return discordgo.ActionsRow{ID: id, Components: []discordgo.MessageComponent{btn("x", customID)}}
	}
	tests := []struct {
		name string
		data discordgo.InteractionResponseData
		want string // a substring of the one violation; "" for none
	}{
		{"5×5 board with 3 controls: 37", v2Data(v2Board(3)), ""},
		{"40 components", v2Data(v2Board(5), text("one")), ""},
		{"41 components", v2Data(v2Board(5), text("one"), text("more")), "at most 40 components in all, nested ones counted (got 41)"},
		{"gallery, file, section", v2Data(container(0, gallery(1), discordgo.FileComponent{File: discordgo.UnfurledMediaItem{URL: "attachment://a.zip"}},
			section(3, discordgo.Thumbnail{Media: discordgo.UnfurledMediaItem{URL: "https://example.com/a.png"}}))), ""},
		{"content", discordgo.InteractionResponseData{Content: "x", Flags: discordgo.MessageFlagsIsComponentsV2, Components: []discordgo.MessageComponent{text("t")}}, "cannot have content"},
		{"embeds", discordgo.InteractionResponseData{Embeds: []*discordgo.MessageEmbed{{Title: "t"}}, Flags: discordgo.MessageFlagsIsComponentsV2, Components: []discordgo.MessageComponent{text("t")}}, "cannot have embeds"},
		{"poll", discordgo.InteractionResponseData{Poll: &discordgo.Poll{}, Flags: discordgo.MessageFlagsIsComponentsV2, Components: []discordgo.MessageComponent{text("t")}}, "cannot have a poll"},
		{"4001 characters", v2Data(text(strings.Repeat("é", 2000)), container(0, text(strings.Repeat("x", 2001)))), "4000 or fewer characters (got 4001)"},
		{"4000 characters", v2Data(text(strings.Repeat("é", 2000)), container(0, text(strings.Repeat("x", 2000)))), ""},
		{"container in a container", v2Data(container(0, container(0, text("t")))), "not allowed in a container"},
		{"thumbnail in a container", v2Data(container(0, discordgo.Thumbnail{Media: discordgo.UnfurledMediaItem{URL: "attachment://a.png"}})), "not allowed in a container"},
		{"thumbnail at the top", v2Data(discordgo.Thumbnail{Media: discordgo.UnfurledMediaItem{URL: "attachment://a.png"}}), "not allowed at the top"},
		{"button at the top", v2Data(btn("x", "x")), "not allowed at the top"},
		{"empty container", v2Data(container(0)), "at least one component"},
		{"six buttons in a container's row", v2Data(container(0, row(btn("1", "1"), btn("2", "2"), btn("3", "3"), btn("4", "4"), btn("5", "5"), btn("6", "6")))), "1 to 5 components"},
		{"custom_id twice", v2Data(container(0, row(btn("a", "same"))), row(btn("b", "same"))), "used twice"},
		{"component id twice", v2Data(withID(7, "a"), container(0, withID(7, "b"))), "component id 7 is used twice"},
		{"accent colour out of range", v2Data(container(0x1000000, text("t"))), "RGB colour"},
		{"section of 4 texts", v2Data(section(4, btn("x", "x"))), "1 to 3 text displays"},
		{"section without accessory", v2Data(discordgo.Section{Components: []discordgo.MessageComponent{text("t")}}), "needs an accessory"},
		{"empty gallery", v2Data(gallery(0)), "1 to 10 items"},
		{"11 items", v2Data(gallery(11)), "1 to 10 items"},
		{"file from a link", v2Data(discordgo.FileComponent{File: discordgo.UnfurledMediaItem{URL: "https://example.com/a.zip"}}), "attachment://name"},
		{"separator spacing 3", v2Data(discordgo.Separator{Spacing: &spacing3}), "must be 1 (small) or 2 (large)"},
		{"empty text", v2Data(text("")), "needs content"},
		{"container without the flag", discordgo.InteractionResponseData{Components: []discordgo.MessageComponent{container(0, text("t"))}}, "needs the components v2 flag"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantViolation(t, tc.data, tc.want) })
	}
}

// The flag is never removed from a message that has it: an edit of a V2
// message must keep it. An edit may add it to a classic message, clearing
// its content; a deferred message becomes V2 only through @original.
func TestV2Edits(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := NewServerWith(rec, Options{CallbackDeadline: time.Minute})
	ch := srv.NewChannel()
	s := open(t, srv, nil)
	v2 := v2Data(v2Board(3))
	m, err := s.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Components: v2.Components, Flags: v2.Flags})
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.Message(ch, m.ID); !got.V2() || got.Text() != "header" || len(got.Grid()) != 6 || *got.Container().AccentColor != 0x5865F2 {
		t.Fatalf("got %v, want the V2 board", got)
	}
	edits := []struct {
		name string
		edit *discordgo.MessageEdit
		want string // a substring of the one failure; "" for none
	}{
		{"without the flag", &discordgo.MessageEdit{Components: &v2.Components}, "cannot be removed"},
		{"as classic", &discordgo.MessageEdit{Content: ptr("classic"), Components: &[]discordgo.MessageComponent{}}, "cannot be removed"},
		{"with the flag", &discordgo.MessageEdit{Components: &v2.Components, Flags: discordgo.MessageFlagsIsComponentsV2}, ""},
	}
	for _, e := range edits {
		e.edit.ID, e.edit.Channel = m.ID, ch
		before := len(rec.failures())
		_, err := s.ChannelMessageEditComplex(e.edit)
		f := rec.failures()[before:]
		if e.want == "" && (err != nil || len(f) > 0) || e.want != "" && (len(f) != 1 || !strings.Contains(f[0], e.want)) {
			t.Errorf("edit %s: got %v, failures %q; want %q", e.name, err, f, e.want)
		}
	}

	classic, err := s.ChannelMessageSend(ch, "classic")
	if err != nil {
		t.Fatal(err)
	}
	upgrade := &discordgo.MessageEdit{ID: classic.ID, Channel: ch, Components: &v2.Components, Flags: discordgo.MessageFlagsIsComponentsV2}
	before := len(rec.failures())
	if _, err := s.ChannelMessageEditComplex(upgrade); err == nil || len(rec.failures()) != before+1 || !strings.Contains(rec.failures()[before], "must clear") {
		t.Errorf("upgrade keeping the content: got %v, failures %q; want it refused", err, rec.failures()[before:])
	}
	body := fmt.Sprintf(`{"content":null,"components":%s,"flags":%d}`, mustJSON(t, v2.Components), FlagComponentsV2)
	if _, err := s.RequestRaw(http.MethodPatch, discordgo.EndpointChannelMessage(ch, classic.ID), "application/json", []byte(body), "", 0); err != nil {
		t.Errorf("upgrade clearing the content: %v", err)
	}
	if got := srv.Message(ch, classic.ID); !got.V2() || got.Content != "" {
		t.Errorf("upgraded message: got %v, want V2 without content", got)
	}
}

func ptr[T any](v T) *T { return &v }

// A deferred message becomes V2 only through an edit of @original: not by
// its deferral (type 5 takes only the ephemeral flag) and not by the
// follow-up that fills it.
func TestV2AfterDeferral(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := NewServerWith(rec, Options{})
	alice := srv.NewUser("alice")
	ch := srv.NewChannel()
	v2 := v2Data(v2Board(1))
	errs := make(chan error, 4)
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		errs <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsIsComponentsV2}})
		errs <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		_, err := s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Components: v2.Components, Flags: v2.Flags})
		errs <- err
		body := fmt.Sprintf(`{"content":null,"embeds":[],"components":%s,"flags":%d}`, mustJSON(t, v2.Components), FlagComponentsV2)
		_, err = s.RequestRaw(http.MethodPatch, discordgo.EndpointWebhookMessage(ic.AppID, ic.Token, "@original"), "application/json", []byte(body), "", 0)
		errs <- err
	})
	in := srv.Slash(t, alice, ch, "ttt slow")
	for _, what := range []string{"type 5 with the flag", "type 5", "follow-up with the flag", "edit of @original with the flag"} {
		err := <-errs
		if refused := what == "type 5 with the flag" || what == "follow-up with the flag"; refused != (err != nil) {
			t.Errorf("%s: got %v, want refused %v", what, err, refused)
		}
	}
	if m := in.Original(); m == nil || !m.V2() || m.Text() != "header" {
		t.Errorf("deferred message: got %v, want the V2 board", m)
	}
	if got := rec.failures(); len(got) != 2 || !strings.Contains(got[0], "flags 32768 not allowed") || !strings.Contains(got[1], "through an edit of @original") {
		t.Errorf("test failures: got %q, want the deferral's and the follow-up's", got)
	}
}
