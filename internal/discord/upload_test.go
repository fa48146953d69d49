package discord_test

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/interaction"
)

// pictureFile is a file as a handler attaches it; its reader can be read
// once.
func pictureFile(name string, data []byte) *discordgo.File {
	return &discordgo.File{Name: name, ContentType: "image/png", Reader: bytes.NewReader(data)}
}

// withFile is data with a file name holding data's text, shown through
// attachment://name: in an embed, or, in a components V2 message, in a
// media gallery in its container.
func withFile(d *discordgo.InteractionResponseData, name string) *discordgo.InteractionResponseData {
	d.Files = []*discordgo.File{pictureFile(name, []byte(name+" bytes"))}
	if d.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
		d.Embeds = []*discordgo.MessageEmbed{{Image: &discordgo.MessageEmbedImage{URL: "attachment://" + name}}}
		return d
	}
	c := d.Components[0].(*discordgo.Container)
	c.Components = append(c.Components, discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{
		{Media: discordgo.UnfurledMediaItem{URL: "attachment://" + name}},
	}})
	return d
}

// v2BoardData is boardData as a components V2 message: a container of the
// text and the row.
func v2BoardData(text string) *discordgo.InteractionResponseData {
	accent := 0xE69F00
	return &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsIsComponentsV2, Components: []discordgo.MessageComponent{
		&discordgo.Container{AccentColor: &accent, Components: append([]discordgo.MessageComponent{discordgo.TextDisplay{Content: text}},
			boardData("").Components...)},
	}}
}

// checkFile fails unless m has exactly one attachment, name, with the bytes
// withFile gave it.
func checkFile(t *testing.T, what string, m *discordtest.Message, name string) {
	t.Helper()
	if len(m.Attachments) != 1 || m.Attachments[0].Filename != name || string(m.Attachments[0].Data) != name+" bytes" {
		t.Errorf("%s: got attachments %+v, want %s alone", what, m.Attachments, name)
	}
}

// Files a reply carries reach Discord on every path: the callback that
// posts or updates a message (a multipart HTTP response in HTTP mode, a
// multipart callback through the gateway), the webhook edit of @original
// and the follow-up that deliver a deferred reply, and the board edits
// after a reply, through the interaction's webhook and through channel
// REST. An edit's files replace those the message had. Components V2
// messages take the same paths: the click turns the classic board into
// one, clearing its content, and the edits keep the flag.
func TestReplyFiles(t *testing.T) {
	for _, mode := range []string{"gateway", "http"} {
		for _, timing := range []struct {
			name  string
			after time.Duration
		}{{"in time", time.Hour}, {"deferred", time.Millisecond}} {
			t.Run(mode+"/"+timing.name, func(t *testing.T) {
				t.Parallel()
				srv, h, _ := serveHeld(t, mode, discord.Budget{DeferAfter: timing.after})
				alice := srv.NewUser("alice")
				ch := srv.NewChannel()
				deferred := timing.after == time.Millisecond
				// send has the handler answer in with r: after the
				// deferral, or at once, ahead of the interaction, which
				// HTTP mode delivers only once answered.
				h.replies = make(chan interaction.Reply, 1)
				send := func(in func() *discordtest.Interaction, r interaction.Reply) *discordtest.Interaction {
					if !deferred {
						h.replies <- r
						return in()
					}
					i := in()
					i.Wait(t)
					h.replies <- r
					return i
				}

				cmd := send(func() *discordtest.Interaction { return srv.Slash(t, alice, ch, "ttt challenge") },
					interaction.Reply{Response: &discordgo.InteractionResponse{
						Type: discordgo.InteractionResponseChannelMessageWithSource, Data: withFile(boardData("board"), "a.png"),
					}})
				board := cmd.Result(t)
				checkFile(t, "command's message", board, "a.png")

				click := send(func() *discordtest.Interaction { return srv.Click(t, alice, board, "cell:0") },
					interaction.Reply{Response: &discordgo.InteractionResponse{
						Type: discordgo.InteractionResponseUpdateMessage, Data: withFile(v2BoardData("moved"), "b.png"),
					}})
				if m := click.Result(t); !m.V2() || m.Text() != "moved" || m.Content != "" || len(m.Grid()) != 1 {
					t.Errorf("clicked message: got %v, want it V2", m)
				} else {
					checkFile(t, "clicked message", m, "b.png")
				}

				r := ephemeralReply("a picture for you")
				withFile(r.Response.Data, "c.png")
				refused := send(func() *discordtest.Interaction { return srv.Click(t, alice, srv.Message(ch, board.ID), "cell:0") }, r)
				var private *discordtest.Message
				if deferred {
					srv.WaitCalls(t, discordtest.RouteFollowup, 1)
					f := refused.Followups()
					if len(f) != 1 {
						t.Fatalf("click's private answer: got follow-ups %v, want one", f)
					}
					private = f[0]
				} else {
					private = refused.Result(t)
				}
				checkFile(t, "click's private answer", private, "c.png")

				for _, e := range []*interaction.Edit{
					{GameID: 1, Version: 1, Token: cmd.Token, Data: withFile(v2BoardData("webhook edit"), "d.png")},
					{GameID: 1, Version: 2, ChannelID: ch, MessageID: board.ID, Data: withFile(v2BoardData("channel edit"), "e.png")},
				} {
					r := ephemeralReply("refused")
					r.Edit = e
					send(func() *discordtest.Interaction { return srv.Click(t, alice, srv.Message(ch, board.ID), "cell:0") }, r)
					want := e.Data.Components[0].(*discordgo.Container).Components[0].(discordgo.TextDisplay).Content
					m := srv.WaitMessage(t, ch, board.ID, func(m *discordtest.Message) bool { return m.Text() == want })
					checkFile(t, want, m, e.Data.Files[0].Name)
				}
			})
		}
	}
}

// A deferred reply's files survive a retry: HTTP mode retries the webhook
// call Discord answered 404 (its deferral not yet read), and the retry
// sends the whole file again, though the handler's reader is spent.
func TestReplyFilesRetried(t *testing.T) {
	srv, h, _ := serveHeld(t, "http", discord.Budget{DeferAfter: time.Millisecond})
	alice := srv.NewUser("alice")
	ch := srv.NewChannel()
	cmd := srv.Slash(t, alice, ch, "ttt challenge")
	cmd.Wait(t)
	srv.FailNext(t, discordtest.RouteEditWebhookMessage, 1, http.StatusNotFound)
	h.replies <- interaction.Reply{Response: &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource, Data: withFile(boardData("board"), "a.png"),
	}}
	checkFile(t, "command's message", cmd.Result(t), "a.png")
	if n := len(srv.CallsTo(discordtest.RouteEditWebhookMessage)); n != 2 {
		t.Errorf("got %d edits of @original, want the failed one and its retry", n)
	}
}

// Messenger posts and edits with files: in a channel, and as a follow-up.
func TestMessengerFiles(t *testing.T) {
	srv, h, _ := serveHeld(t, "gateway", discord.Budget{})
	alice := srv.NewUser("alice")
	ch := srv.NewChannel()
	rest, err := discord.NewSession(srv.Token(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	m := discord.Messenger{S: rest, AppID: srv.ApplicationID()}
	id, err := m.SendMessage(t.Context(), ch, withFile(boardData("posted"), "a.png"))
	if err != nil {
		t.Fatal(err)
	}
	msgs := srv.Messages(ch)
	if len(msgs) != 1 || msgs[0].ID != id {
		t.Fatalf("got messages %v, want the one posted", msgs)
	}
	checkFile(t, "posted message", msgs[0], "a.png")

	cmd := srv.Slash(t, alice, ch, "ttt challenge")
	h.replies <- interaction.Reply{Response: &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseChannelMessageWithSource, Data: boardData("board"),
	}}
	cmd.Result(t)
	if err := m.Followup(t.Context(), cmd.Token, withFile(boardData("follow-up"), "b.png")); err != nil {
		t.Fatal(err)
	}
	f := cmd.Followups()
	if len(f) != 1 {
		t.Fatalf("got follow-ups %v, want one", f)
	}
	checkFile(t, "follow-up", f[0], "b.png")
}
