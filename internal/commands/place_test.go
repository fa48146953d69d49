package commands

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/play"
)

// Where an interaction comes from, as Discord describes it.
type origin struct {
	guild  string
	ctx    discordgo.InteractionContextType
	owners map[discordgo.ApplicationIntegrationType]string // nil: a payload from before user installs
	perms  int64                                           // the app's
	member int64                                           // the user's, in a guild
}

var (
	inServer   = origin{"g1", discordgo.InteractionContextGuild, map[discordgo.ApplicationIntegrationType]string{0: "g1"}, channelPermissions, discordgo.PermissionUseExternalApps}
	inBlind    = origin{"g1", discordgo.InteractionContextGuild, map[discordgo.ApplicationIntegrationType]string{0: "g1"}, discordgo.PermissionSendMessages, discordgo.PermissionUseExternalApps}
	inGuest    = origin{"g2", discordgo.InteractionContextGuild, map[discordgo.ApplicationIntegrationType]string{1: alice}, discordgo.PermissionEmbedLinks, discordgo.PermissionUseExternalApps}
	inPrivate  = origin{"g2", discordgo.InteractionContextGuild, map[discordgo.ApplicationIntegrationType]string{1: alice}, discordgo.PermissionEmbedLinks, 0}
	inBothHere = origin{"g1", discordgo.InteractionContextGuild, map[discordgo.ApplicationIntegrationType]string{0: "g1", 1: alice}, channelPermissions, discordgo.PermissionUseExternalApps}
	inBotDM    = origin{"", discordgo.InteractionContextBotDM, map[discordgo.ApplicationIntegrationType]string{1: alice}, discordgo.PermissionEmbedLinks, discordgo.PermissionUseExternalApps}
	inGroupDM  = origin{"", discordgo.InteractionContextPrivateChannel, map[discordgo.ApplicationIntegrationType]string{1: alice}, discordgo.PermissionEmbedLinks, discordgo.PermissionUseExternalApps}
	inOldDM    = origin{"", discordgo.InteractionContextGuild, nil, 0, discordgo.PermissionUseExternalApps}
	inOldGuild = origin{"g1", discordgo.InteractionContextGuild, nil, 0, discordgo.PermissionUseExternalApps}
)

// from sets where i comes from, with a token of its own.
func from(i *discordgo.Interaction, o origin) *discordgo.Interaction {
	i.GuildID, i.Context, i.AuthorizingIntegrationOwners, i.AppPermissions = o.guild, o.ctx, o.owners, o.perms
	i.Token = "token-" + i.ID
	if i.Member != nil {
		i.Member.Permissions = o.member
	}
	if o.guild == "" && i.Member != nil {
		i.User, i.Member = i.Member.User, nil
	}
	return i
}

func TestPlace(t *testing.T) {
	tests := []struct {
		name                 string
		o                    origin
		webhook, guest, inDM bool
	}{
		{"server that installed the bot", inServer, false, false, false},
		{"channel the bot cannot see", inBlind, true, false, false},
		{"server without the bot", inGuest, true, true, false},
		{"server with both installs", inBothHere, false, false, false},
		{"DM with the bot", inBotDM, true, false, true},
		{"group DM", inGroupDM, true, false, false},
		{"DM before user installs", inOldDM, false, false, true},
		{"server before user installs", inOldGuild, false, false, false},
	}
	h, _ := newTestHandler(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := from(newInteraction(discordgo.InteractionApplicationCommand, alice, tt.o.guild, "c1", nil), tt.o)
			p := h.place(i)
			if p.Webhook != tt.webhook || p.Guest != tt.guest || botDM(i) != tt.inDM {
				t.Errorf("got webhook %v, guest %v, bot DM %v; want %v, %v, %v", p.Webhook, p.Guest, botDM(i), tt.webhook, tt.guest, tt.inDM)
			}
			// Every board keeps the token that posted it (see newBoard).
			wantTok := tttbot.Token{Value: i.Token, Expires: testNow.Add(tttbot.TokenLife)}
			if p.Token != wantTok || p.GuildID != tt.o.guild || p.ChannelID != "c1" {
				t.Errorf("got %+v, want token %+v in %q/c1", p, wantTok, tt.o.guild)
			}
		})
	}
}

// TestDefinitionsEverywhere: /ttt is offered to both installs in every
// context.
func TestDefinitionsEverywhere(t *testing.T) {
	ttt := mustDefinitions()[0]
	if ttt.IntegrationTypes == nil || !slices.Equal(*ttt.IntegrationTypes, []discordgo.ApplicationIntegrationType{0, 1}) {
		t.Errorf("got integration types %v, want [0 1]", ttt.IntegrationTypes)
	}
	if ttt.Contexts == nil || !slices.Equal(*ttt.Contexts, []discordgo.InteractionContextType{0, 1, 2}) {
		t.Errorf("got contexts %v, want [0 1 2]", ttt.Contexts)
	}
}

// TestCommandsByPlace: what each command does where the bot is not the
// server's.
func TestCommandsByPlace(t *testing.T) {
	h, db := newTestHandler(t)
	ctx := context.Background()
	tests := []struct {
		name   string
		o      origin
		data   string
		user   string
		refuse string // in an ephemeral refusal; "" when it is answered
		want   string // in the answer
	}{
		{"a person in the bot DM", inBotDM, `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"` + bob + `"}]}],"resolved":{"users":{"` + bob + `":{"id":"` + bob + `","username":"bob"}}}}`, alice, "only play me", ""},
		{"the bot in the bot DM", inBotDM, `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"first","type":3,"value":"me"}]}]}`, alice, "", "your turn"},
		{"a person in a group DM", inGroupDM, `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"` + bob + `"}]}],"resolved":{"users":{"` + bob + `":{"id":"` + bob + `","username":"bob"}}}}`, alice, "", "challenges"},
		{"a person in a guest server", inGuest, `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"` + bob + `"}]}],"resolved":{"users":{"` + bob + `":{"id":"` + bob + `","username":"bob"}}}}`, alice, "", "challenges"},
		{"a person where apps answer privately", inPrivate, `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"` + bob + `"}]}],"resolved":{"users":{"` + bob + `":{"id":"` + bob + `","username":"bob"}}}}`, alice, "alone", ""},
		{"the bot where apps answer privately", inPrivate, `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"first","type":3,"value":"me"}]}]}`, alice, "", "your turn"},
		{"server settings in a guest server", inGuest, `{"name":"ttt-admin","options":[{"name":"show","type":1}]}`, alice, "hasn't", ""},
		{"server leaderboard in a guest server", inGuest, `{"name":"ttt","options":[{"name":"leaderboard","type":1,"options":[{"name":"scope","type":3,"value":"server"}]}]}`, alice, "", "global leaderboard only"},
		{"default leaderboard in a guest server", inGuest, `{"name":"ttt","options":[{"name":"leaderboard","type":1}]}`, alice, "", "everyone"},
		{"stats in a guest server", inGuest, `{"name":"ttt","options":[{"name":"stats","type":1}]}`, alice, "", "everywhere"},
		{"help", inGroupDM, `{"name":"ttt","options":[{"name":"help","type":1}]}`, alice, "", "install me for yourself"},
	}
	for n, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := from(slash(t, tt.user, tt.o.guild, "ch"+string(rune('a'+n)), tt.data), tt.o)
			r := h.Handle(ctx, i)
			if tt.refuse != "" {
				wantRefused(t, r, tttbot.EINVALID, tt.refuse)
				return
			}
			if r.Code != "" || !strings.Contains(shown(r.Response.Data), tt.want) {
				t.Errorf("got code %q, %q; want it to say %q", r.Code, shown(r.Response.Data), tt.want)
			}
		})
	}
	// The bot's game in its DM reaches its board through the command's token.
	g, err := db.OpenGame(ctx, "chb", alice)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Webhook || g.Token.Value == "" {
		t.Errorf("bot DM game: got webhook %v with token %q, want its command's token", g.Webhook, g.Token.Value)
	}
}

// TestRematchPrivate: where apps answer their members privately, a rematch
// between people is refused as the challenge it would be, and stores
// nothing; against the bot it starts.
func TestRematchPrivate(t *testing.T) {
	h, db := newTestHandler(t)
	ctx := context.Background()
	ended := func(channel, opponent string) *tttbot.Game {
		t.Helper()
		g := &tttbot.Game{GuildID: "g2", ChannelID: channel, Rows: 3, Cols: 3, K: 3, Challenger: alice, Opponent: opponent,
			XPlayer: alice, OPlayer: opponent, Status: tttbot.StatusActive, Deadline: testNow.Add(time.Minute), Guest: true}
		if opponent == botUser {
			g.BotLevel = "hard"
		}
		if err := db.StartGame(ctx, g, nil); err != nil {
			t.Fatal(err)
		}
		g, err := db.Resign(ctx, g.ID, alice, testNow, nil)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	rematch := func(g *tttbot.Game) interaction.Reply {
		return h.Handle(ctx, from(click(alice, "g2", g.ChannelID, "m1", g.ChannelID, CustomID{Action: ActRematch, GameID: g.ID}.String()), inPrivate))
	}
	people := ended("cp", bob)
	wantRefused(t, rematch(people), tttbot.EINVALID, "alone")
	if g, err := db.OpenGame(ctx, "cp", alice); tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
		t.Errorf("a refused rematch stored %+v, %v", g, err)
	}
	vsBot := ended("cb", botUser)
	if r := rematch(vsBot); r.Code != "" {
		t.Errorf("rematch against the bot: code %q, want it started", r.Code)
	}
	if _, err := db.OpenGame(ctx, "cb", alice); err != nil {
		t.Errorf("rematch against the bot: %v", err)
	}
}

// TestWebhookClicks: every click that redraws a webhook game's board keeps
// its token for the game's later edits, and a click on an outdated board
// redraws it in its own answer, the only way to reach it.
func TestWebhookClicks(t *testing.T) {
	h, db := newTestHandler(t)
	ctx := context.Background()
	g := &tttbot.Game{
		ChannelID: "d1", Rows: 3, Cols: 3, K: 3,
		Challenger: alice, Opponent: bob, XPlayer: alice, OPlayer: bob,
		Status: tttbot.StatusPending, Deadline: testNow.Add(time.Minute),
		Webhook: true, Token: tttbot.Token{Value: "challenge", Expires: testNow.Add(tttbot.TokenLife)},
	}
	if err := db.StartGame(ctx, g, nil); err != nil {
		t.Fatal(err)
	}
	clickOn := func(user string, c CustomID) (interaction.Reply, *discordgo.Interaction) {
		i := from(click(user, "", "d1", "m1", "d1", c.String()), inGroupDM)
		i.Message.Components = h.render(ctx, h.gameLang(g), g, nil).components
		return h.Handle(ctx, i), i
	}
	token := func() string {
		cur, err := db.Game(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		return cur.Token.Value
	}

	// A refused click leaves the token: its answer is not the board.
	if r, _ := clickOn(alice, CustomID{Action: ActAccept, GameID: g.ID, Version: g.Version}); r.Code != tttbot.ENOTYOURS || token() != "challenge" {
		t.Errorf("alice's accept: got code %q, token %q; want %q, the challenge's", r.Code, token(), tttbot.ENOTYOURS)
	}
	r, in := clickOn(bob, CustomID{Action: ActAccept, GameID: g.ID, Version: g.Version})
	if r.Code != "" || token() != in.Token {
		t.Fatalf("bob's accept: got code %q, token %q; want it kept", r.Code, token())
	}
	old := *g // the challenge as its message still shows it
	g, _ = db.Game(ctx, g.ID)
	// A click on the board as it was before the accept: its answer shows the game now.
	i := from(click(bob, "", "d1", "m1", "d1", CustomID{Action: ActAccept, GameID: g.ID, Version: old.Version}.String()), inGroupDM)
	i.Message.Components = h.render(ctx, h.gameLang(&old), &old, nil).components
	r = h.Handle(ctx, i)
	if r.Response.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(shown(r.Response.Data), "your turn") || r.Edit != nil {
		t.Errorf("stale click: got %+v with edit %+v, want the board redrawn in the answer", r.Response, r.Edit)
	}
	if token() != i.Token {
		t.Errorf("stale click: got token %q, want the click's", token())
	}
}

// TestWebhookTimers: a deadline in a webhook game edits its board through
// its token's webhook, never the channel; with the token expired, the game
// ends all the same and nothing is sent.
func TestWebhookTimers(t *testing.T) {
	tests := []struct {
		name      string
		expires   time.Duration // the token's, from the deadline
		wantEdits []string
	}{
		{"token alive", time.Minute, []string{"token:tok"}},
		{"token expired", -time.Second, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, db := newTestHandler(t)
			msg := &edits{}
			h.msg = msg
			ctx := context.Background()
			g := &tttbot.Game{
				ChannelID: "d1", MessageID: "m1", Rows: 3, Cols: 3, K: 3,
				Challenger: alice, Opponent: bob, XPlayer: alice, OPlayer: bob,
				Status: tttbot.StatusPending, Deadline: testNow.Add(-tttbot.DeadlineGrace),
				Webhook: true, Token: tttbot.Token{Value: "tok", Expires: testNow.Add(tt.expires)},
			}
			if err := db.StartGame(ctx, g, nil); err != nil {
				t.Fatal(err)
			}
			n, err := h.play.FireDue(ctx, h)
			if err != nil || n != 1 {
				t.Fatalf("tick: %d fired, %v", n, err)
			}
			if !slices.Equal(msg.msgs, tt.wantEdits) {
				t.Errorf("got edits %q, want %q", msg.msgs, tt.wantEdits)
			}
			if cur, _ := db.Game(ctx, g.ID); cur.Status != tttbot.StatusExpired {
				t.Errorf("got %s, want the challenge expired", cur.Status)
			}
		})
	}
}

// TestWebhookNote: a board whose turns are cut short by its token's life
// says so; one that keeps the configured timeout does not.
func TestWebhookNote(t *testing.T) {
	tests := []struct {
		name    string
		webhook bool
		timeout time.Duration
		want    bool
	}{
		{"webhook game, long timeout", true, time.Hour, true},
		{"webhook game, short timeout", true, 5 * time.Minute, false},
		{"channel game, long timeout", false, time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHandler(t, nil, nil, &edits{}, botUser, play.Options{Now: func() time.Time { return testNow }, TurnTimeout: tt.timeout, ChallengeTimeout: tt.timeout})
			for _, g := range []*tttbot.Game{
				{ID: 1, Rows: 3, Cols: 3, K: 3, Challenger: alice, Opponent: bob, XPlayer: alice, OPlayer: bob, Status: tttbot.StatusPending, Deadline: testNow, Webhook: tt.webhook},
				{ID: 1, Rows: 3, Cols: 3, K: 3, Challenger: alice, Opponent: bob, XPlayer: alice, OPlayer: bob, Status: tttbot.StatusActive, Turn: alice, Board: ".../.../...", Deadline: testNow, Webhook: tt.webhook},
			} {
				content := h.render(t.Context(), h.gameLang(g), g, nil).content
				if got := strings.Contains(content, "at most 14 minutes"); got != tt.want {
					t.Errorf("%s board: got the note %v, want %v:\n%s", g.Status, got, tt.want, content)
				}
			}
		})
	}
}

// TestNewBoardFetched: the adapter fetches a new board's message only for
// a board in a server's channel whose deadline may come before any click
// and after its token expires; the token reaches the others.
func TestNewBoardFetched(t *testing.T) {
	tok := tttbot.Token{Value: "t", Expires: testNow.Add(tttbot.TokenLife)}
	tests := []struct {
		name string
		g    tttbot.Game
		want bool
	}{
		{"a turn of five minutes", tttbot.Game{ID: 1, Status: tttbot.StatusActive, Deadline: testNow.Add(5 * time.Minute), Token: tok}, false},
		{"a challenge of an hour", tttbot.Game{ID: 1, Status: tttbot.StatusPending, Deadline: testNow.Add(time.Hour), Token: tok}, true},
		{"a webhook's board", tttbot.Game{ID: 1, Status: tttbot.StatusActive, Webhook: true, Deadline: testNow.Add(time.Hour), Token: tok}, false},
		{"a game over at once", tttbot.Game{ID: 1, Status: tttbot.StatusFinished, Token: tok}, false},
		{"no token", tttbot.Game{ID: 1, Status: tttbot.StatusActive, Deadline: testNow.Add(5 * time.Minute)}, true},
		{"the bot to move", tttbot.Game{ID: 1, Status: tttbot.StatusActive, BotLevel: "easy", Opponent: "bot", Turn: "bot",
			Deadline: testNow.Add(time.Second), Token: tok}, true},
	}
	for _, tt := range tests {
		r := newBoard(message{}, &tt.g)
		if got := r.FetchBoard; got != tt.want {
			t.Errorf("%s: got fetched %v, want %v", tt.name, got, tt.want)
		}
		// A message ID the adapter learns on the way is recorded all the same.
		if wantTracked := tt.g.Status.Open(); (r.TrackGame != 0) != wantTracked {
			t.Errorf("%s: got game %d tracked, want tracked %v", tt.name, r.TrackGame, wantTracked)
		}
	}
}
