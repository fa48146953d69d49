package commands

import (
	"context"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

// TestClickElsewhere: a button that plays a game works only from the
// game's channel, in its guild, on a message there; from anywhere else it
// is refused, and nothing is stored, edited or tracked.
func TestClickElsewhere(t *testing.T) {
	h, db := newTestHandler(t)
	ctx := context.Background()
	newGame := func(channel string) *tttbot.Game {
		g := &tttbot.Game{
			GuildID: "g1", ChannelID: channel, Rows: 3, Cols: 3, K: 3,
			Challenger: alice, Opponent: bob, XPlayer: alice, OPlayer: bob,
			Status: tttbot.StatusPending, Deadline: testNow.Add(time.Minute),
		}
		if err := db.StartGame(ctx, g, nil); err != nil {
			t.Fatal(err)
		}
		return g
	}
	accept := func(g *tttbot.Game) *tttbot.Game {
		g, err := db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: bob, Version: g.Version, XPlayer: alice, At: testNow, Deadline: testNow.Add(time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	pending := newGame("c1")
	active := accept(newGame("c2"))
	stale := accept(newGame("c4"))
	finished := accept(newGame("c3"))
	if _, err := db.Play(ctx, tttbot.MoveRequest{GameID: finished.ID, Player: alice, Cell: 4, Version: finished.Version, At: testNow, Deadline: testNow.Add(time.Minute)}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Resign(ctx, finished.ID, bob, testNow, nil); err != nil {
		t.Fatal(err)
	}

	type where struct{ guild, channel, msgChannel string }
	tests := []struct {
		name     string
		user     string
		g        *tttbot.Game
		customID CustomID
		from     where
	}{
		{"accept from another channel", bob, pending, CustomID{Action: ActAccept, GameID: pending.ID, Version: 1}, where{"g1", "c9", "c9"}},
		{"accept from another guild", bob, pending, CustomID{Action: ActAccept, GameID: pending.ID, Version: 1}, where{"g2", "c1", "c1"}},
		{"accept from a DM", bob, pending, CustomID{Action: ActAccept, GameID: pending.ID, Version: 1}, where{"", "d1", "d1"}},
		{"accept on a message elsewhere", bob, pending, CustomID{Action: ActAccept, GameID: pending.ID, Version: 1}, where{"g1", "c1", "c9"}},
		{"decline from another channel", bob, pending, CustomID{Action: ActDecline, GameID: pending.ID, Version: 1}, where{"g1", "c9", "c9"}},
		{"move from another channel", alice, active, CustomID{Action: ActMove, GameID: active.ID, Version: active.Version, Cell: 4}, where{"g1", "c9", "c9"}},
		{"move from a DM", alice, active, CustomID{Action: ActMove, GameID: active.ID, Version: active.Version, Cell: 4}, where{"", "d1", "d1"}},
		// Where it comes from is checked first, as for the other buttons.
		{"a stranger's move from another channel", carol, active, CustomID{Action: ActMove, GameID: active.ID, Version: active.Version, Cell: 4}, where{"g1", "c9", "c9"}},
		// An outdated board elsewhere would otherwise be redrawn as this one.
		{"stale move from another channel", alice, stale, CustomID{Action: ActMove, GameID: stale.ID, Version: 1, Cell: 4}, where{"g1", "c9", "c9"}},
		{"rematch from another channel", bob, finished, CustomID{Action: ActRematch, GameID: finished.ID}, where{"g1", "c9", "c9"}},
		{"resign from another channel", alice, active, CustomID{Action: ActResign, GameID: active.ID, Version: active.Version}, where{"g1", "c9", "c9"}},
		{"accept of an ended game from another channel", bob, finished, CustomID{Action: ActAccept, GameID: finished.ID, Version: 1}, where{"g1", "c9", "c9"}},
		{"decline of an ended game from another channel", bob, finished, CustomID{Action: ActDecline, GameID: finished.ID, Version: 1}, where{"g1", "c9", "c9"}},
		{"resign of an ended game from another channel", alice, finished, CustomID{Action: ActResign, GameID: finished.ID, Version: 1}, where{"g1", "c9", "c9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, err := db.Game(ctx, tt.g.ID)
			if err != nil {
				t.Fatal(err)
			}
			r := h.Handle(ctx, click(tt.user, tt.from.guild, tt.from.channel, "m9", tt.from.msgChannel, tt.customID.String()))
			wantRefused(t, r, tttbot.EINVALID, "another channel")
			if r.Edit != nil {
				t.Errorf("a refused click redraws message %s in %s", r.Edit.MessageID, r.Edit.ChannelID)
			}
			after, err := db.Game(ctx, tt.g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if after.Version != before.Version || after.Status != before.Status || after.MessageID != "" {
				t.Errorf("a refused click changed the game: version %d → %d, %s → %s, message %q",
					before.Version, after.Version, before.Status, after.Status, after.MessageID)
			}
			if g, err := db.OpenGame(ctx, tt.from.channel, bob); tt.from.channel != tt.g.ChannelID && tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
				t.Errorf("a refused click left game %+v, %v", g, err)
			}
		})
	}

	// From the game's own channel the same clicks work, and the first
	// records the board's message.
	r := h.Handle(ctx, click(bob, "g1", "c1", "m1", "c1", CustomID{Action: ActAccept, GameID: pending.ID, Version: 1}.String()))
	if r.Code != "" || r.Response.Type != discordgo.InteractionResponseUpdateMessage {
		t.Fatalf("accept in the game's channel: got code %q, response %+v", r.Code, r.Response)
	}
	if g, err := db.Game(ctx, pending.ID); err != nil || g.Status != tttbot.StatusActive || g.MessageID != "m1" {
		t.Errorf("after the accept: got %+v, %v; want active with board m1", g, err)
	}
	// A review is a private view, opened wherever its reader asks.
	r = h.Handle(ctx, click(alice, "g1", "c9", "m9", "c9", CustomID{Action: actReview, GameID: finished.ID}.String()))
	if d := r.Response.Data; r.Code != "" || d == nil || d.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("review from another channel: got code %q, response %+v; want a private review", r.Code, r.Response)
	}
}

// shownVersion reads the version a board's cells carry, in rows at the top
// (a board from before components V2) or in a container, as the gateway's
// decoder and the endpoint's give them.
func TestShownVersion(t *testing.T) {
	cell := func(version int) *discordgo.ActionsRow {
		return &discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			&discordgo.Button{CustomID: CustomID{Action: ActMove, GameID: 7, Version: version, Cell: 0}.String()}}}
	}
	resign := &discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.Button{CustomID: CustomID{Action: ActResign, GameID: 7}.String()}}}
	tests := []struct {
		name string
		cs   []discordgo.MessageComponent
		want int
	}{
		{"classic rows", []discordgo.MessageComponent{cell(3)}, 3},
		{"container", []discordgo.MessageComponent{&discordgo.Container{Components: []discordgo.MessageComponent{
			discordgo.TextDisplay{Content: "t"}, cell(5), discordgo.Separator{}, resign}}}, 5},
		{"controls alone", []discordgo.MessageComponent{&discordgo.Container{Components: []discordgo.MessageComponent{resign}}}, 0},
		{"nothing", nil, 0},
	}
	for _, tt := range tests {
		if got := shownVersion(&discordgo.Message{Components: tt.cs}); got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, got, tt.want)
		}
	}
}
