package commands

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// The players of these tests; the bot plays as botUser.
const (
	botUser = "1"
	alice   = "10"
	bob     = "20"
)

var testNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// newTestHandler returns a Handler on a new SQLite database, with the real
// AI and no Discord behind it.
func newTestHandler(tb testing.TB) (*Handler, *sqlite.DB) {
	tb.Helper()
	now := func() time.Time { return testNow }
	db, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "t.db"), sqlite.Options{Now: now})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return newHandler(tb, db, ai.New(ai.Options{}), &edits{}, botUser, play.Options{Now: now, Seed: 1}), db
}

// engine is the AI of the handlers of these tests: the bot's moves, which
// the play.Service asks for, and reviews.
type engine interface {
	play.AI
	AI
}

// newHandler is New, with a play.Service on store that plays as botID, for
// tests, which fail if the catalogs do not load.
func newHandler(tb testing.TB, store tttbot.Store, engine engine, msg Messenger, botID string, opts play.Options) *Handler {
	tb.Helper()
	h, err := New(play.New(store, engine, botID, opts), store, engine, msg)
	if err != nil {
		tb.Fatal(err)
	}
	return h
}

// mustCatalog is the shipped catalogs for tests; TestCatalogs says why
// they would not load.
func mustCatalog() *i18n.Catalog {
	c, err := catalog()
	if err != nil {
		panic(err)
	}
	return c
}

// mustDefinitions is Definitions for tests.
func mustDefinitions() []*discordgo.ApplicationCommand {
	return definitions(mustCatalog())
}

var interactionIDs atomic.Int64

// interactionAt is the ID of a new interaction Discord made at t: its
// snowflake carries t.
func interactionAt(t time.Time) string {
	return strconv.FormatInt((t.UnixMilli()-1420070400000)<<22|interactionIDs.Add(1)%(1<<22), 10)
}

// newInteraction is what Discord sends when user acts in channel of guild
// ("" for a DM) at testNow: a member in a guild, a user in a DM.
func newInteraction(typ discordgo.InteractionType, user, guild, channel string, data discordgo.InteractionData) *discordgo.Interaction {
	i := &discordgo.Interaction{
		ID: interactionAt(testNow), Type: typ, GuildID: guild, ChannelID: channel, Data: data,
	}
	u := &discordgo.User{ID: user, Username: "user" + user}
	if guild == "" {
		i.User = u
	} else {
		i.Member = &discordgo.Member{User: u}
	}
	return i
}

// slash is /ttt by user with data as Discord's JSON, decoded as the
// gateway decodes it.
func slash(tb testing.TB, user, guild, channel, data string) *discordgo.Interaction {
	tb.Helper()
	var d discordgo.ApplicationCommandInteractionData
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		tb.Fatalf("command data %s: %v", data, err)
	}
	return newInteraction(discordgo.InteractionApplicationCommand, user, guild, channel, d)
}

// click is user's click on button customID of message msg, which is in
// msgChannel.
func click(user, guild, channel, msg, msgChannel, customID string) *discordgo.Interaction {
	i := newInteraction(discordgo.InteractionMessageComponent, user, guild, channel,
		discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent})
	i.Message = &discordgo.Message{ID: msg, ChannelID: msgChannel}
	return i
}

// walk calls f on each component of cs and each nested in rows and
// containers, parents first.
func walk(cs []discordgo.MessageComponent, f func(discordgo.MessageComponent)) {
	for _, c := range cs {
		f(c)
		switch c := c.(type) {
		case discordgo.ActionsRow:
			walk(c.Components, f)
		case *discordgo.Container:
			walk(c.Components, f)
		}
	}
}

// shown is the text a message shows: its content, or, in a components V2
// message, its text displays, one a line.
func shown(d *discordgo.InteractionResponseData) string {
	if d.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
		return d.Content
	}
	var lines []string
	walk(d.Components, func(c discordgo.MessageComponent) {
		if t, ok := c.(discordgo.TextDisplay); ok {
			lines = append(lines, t.Content)
		}
	})
	return strings.Join(lines, "\n")
}

// wantRefused fails unless r refuses privately with code, saying want, and
// asks for no edit or tracking.
func wantRefused(t *testing.T, r interaction.Reply, code, want string) {
	t.Helper()
	if r.Code != code {
		t.Errorf("got code %q, want %q", r.Code, code)
	}
	d := r.Response.Data
	if d == nil || d.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Fatalf("got response %+v, want an ephemeral message", r.Response)
	}
	if !strings.Contains(d.Content, want) {
		t.Errorf("got %q, want it to say %q", d.Content, want)
	}
	if r.Edit != nil || r.TrackGame != 0 || r.Followup != nil {
		t.Errorf("a refusal asks for more: edit %+v, track %d, follow-up %+v", r.Edit, r.TrackGame, r.Followup)
	}
}

// TestInteractionTooOld: an interaction Discord made a token's life ago or
// earlier is refused and changes nothing; one made just inside it is
// answered.
func TestInteractionTooOld(t *testing.T) {
	tests := []struct {
		name string
		age  time.Duration
		want string // the refusal's code, "" for none
	}{
		{"within the token's life", tttbot.TokenLife - time.Millisecond, ""},
		{"as old as the token", tttbot.TokenLife, tttbot.EINVALID},
		{"older", time.Hour, tttbot.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, db := newTestHandler(t)
			i := slash(t, alice, "2000", "c1", challenge(`{"name":"opponent","type":6,"value":"20"}`))
			i.ID = interactionAt(testNow.Add(-tt.age))
			r := h.Handle(t.Context(), i)
			_, err := db.OpenGame(t.Context(), "c1", alice)
			if tt.want == "" {
				if r.Code != "" || err != nil {
					t.Errorf("got code %q and game %v, want the challenge made", r.Code, err)
				}
				return
			}
			wantRefused(t, r, tt.want, "more than 15 minutes old")
			if tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
				t.Errorf("got %v, want no game stored", err)
			}
		})
	}
}
