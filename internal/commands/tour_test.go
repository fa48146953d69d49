package commands

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
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

// A tour renders every reply, board and page the bot can send, in one
// language: the pseudo-locale and limits tests read what it collects.

// carol plays no game in the tour: her pages are the empty ones.
const carol = "30"

// tourClock is the tour's clock, which it moves on to fire timers.
type tourClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *tourClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *tourClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// posts keeps what the timers edit.
type posts struct {
	mu  sync.Mutex
	got []*discordgo.InteractionResponseData
}

func (p *posts) EditMessage(_ context.Context, _, _ string, data *discordgo.InteractionResponseData) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.got = append(p.got, data)
	return nil
}

func (p *posts) EditResponse(_ context.Context, _ string, data *discordgo.InteractionResponseData) error {
	return p.EditMessage(context.Background(), "", "", data)
}

func (p *posts) SendMessage(_ context.Context, _ string, data *discordgo.InteractionResponseData) (string, error) {
	return "", p.EditMessage(context.Background(), "", "", data)
}

func (p *posts) GuildEmojis(context.Context, string) ([]*discordgo.Emoji, error) { return nil, nil }

// rendered is one message the bot sent on the tour, named by the step
// that sent it.
type rendered struct {
	what string
	data *discordgo.InteractionResponseData
}

type tourist struct {
	t      testing.TB
	h      *Handler
	db     *sqlite.DB
	clock  *tourClock
	posts  *posts
	locale string
	out    []rendered
}

// do sends i as a user whose locale, and whose guild's, is the tour's.
func (tr *tourist) do(what string, i *discordgo.Interaction) interaction.Reply {
	tr.t.Helper()
	l := discordgo.Locale(tr.locale)
	i.ID, i.Locale = interactionAt(tr.clock.Now()), l
	if i.GuildID != "" {
		i.GuildLocale = &l
	}
	r := tr.h.Handle(context.Background(), i)
	if r.Response == nil || r.Response.Data == nil {
		tr.t.Fatalf("%s: no message in %+v", what, r.Response)
	}
	if i.Type == discordgo.InteractionApplicationCommand && r.Code == "" {
		if got, want := r.Response.Data.Flags&discordgo.MessageFlagsEphemeral != 0, tr.h.Private(i); got != want {
			tr.t.Errorf("%s: answered privately %v, but Private says %v", what, got, want)
		}
	}
	tr.out = append(tr.out, rendered{what, r.Response.Data})
	if r.Edit != nil {
		tr.out = append(tr.out, rendered{what + ", its edit", r.Edit.Data})
	}
	if r.TrackGame != 0 {
		tr.h.TrackMessage(context.Background(), r.TrackGame, fmt.Sprint("m", r.TrackGame))
	}
	return r
}

// ok is do for a step that must not be refused.
func (tr *tourist) ok(what string, i *discordgo.Interaction) interaction.Reply {
	tr.t.Helper()
	r := tr.do(what, i)
	if r.Code != "" {
		tr.t.Fatalf("%s: refused (%s): %s", what, r.Code, shown(r.Response.Data))
	}
	return r
}

// refused is do for a step that must be refused.
func (tr *tourist) refused(what string, i *discordgo.Interaction) {
	tr.t.Helper()
	if r := tr.do(what, i); r.Code == "" {
		tr.t.Fatalf("%s: not refused: %s", what, shown(r.Response.Data))
	}
}

// tick moves the clock on by d and fires the timers.
func (tr *tourist) tick(what string, d time.Duration) {
	tr.t.Helper()
	tr.clock.add(d)
	if _, err := tr.h.play.FireDue(context.Background(), tr.h); err != nil {
		tr.t.Fatalf("%s: %v", what, err)
	}
	tr.posts.mu.Lock()
	defer tr.posts.mu.Unlock()
	if len(tr.posts.got) == 0 {
		tr.t.Fatalf("%s: the timers posted nothing", what)
	}
	for _, d := range tr.posts.got {
		tr.out = append(tr.out, rendered{what, d})
	}
	tr.posts.got = nil
}

func (tr *tourist) game(id int64) *tttbot.Game {
	tr.t.Helper()
	g, err := tr.db.Game(context.Background(), id)
	if err != nil {
		tr.t.Fatal(err)
	}
	return g
}

// click is user's click of button id on game g's board.
func (tr *tourist) click(what, user string, g int64, id CustomID) interaction.Reply {
	tr.t.Helper()
	return tr.do(what, click(user, "2000", "c1", fmt.Sprint("m", g), "c1", id.String()))
}

// move plays cell of game g as user, on its current board.
func (tr *tourist) move(what, user string, g int64, cell int) interaction.Reply {
	tr.t.Helper()
	r := tr.click(what, user, g, CustomID{Action: ActMove, GameID: g, Version: tr.game(g).Version, Cell: cell})
	if r.Code != "" {
		tr.t.Fatalf("%s: refused (%s): %s", what, r.Code, shown(r.Response.Data))
	}
	return r
}

// challengeBob is alice's challenge to bob in c1, accepted when accept.
func (tr *tourist) challengeBob(what string, accept bool) int64 {
	tr.t.Helper()
	r := tr.ok(what, slash(tr.t, alice, "2000", "c1", challenge(`{"name":"opponent","type":6,"value":"20"},{"name":"first","type":3,"value":"me"}`)))
	if accept {
		tr.click(what+", accepted", bob, r.TrackGame, CustomID{Action: ActAccept, GameID: r.TrackGame, Version: 1})
	}
	return r.TrackGame
}

func subcommand(name, opts string) string {
	return `{"name":"ttt","options":[{"name":"` + name + `","type":1,"options":[` + opts + `]}]}`
}

// ofUser is a subcommand with its user option set to who, resolved.
func ofUser(name, who string) string {
	return `{"name":"ttt","options":[{"name":"` + name + `","type":1,"options":[{"name":"user","type":6,"value":"` + who + `"}]}],` +
		`"resolved":{"users":{"` + who + `":{"id":"` + who + `"}}}}`
}

// tour drives a new handler speaking catalog cat through every reply,
// board and page, as users and a guild of locale, and returns them.
func tour(t testing.TB, cat *i18n.Catalog, locale string) []rendered {
	t.Helper()
	clock := &tourClock{now: testNow}
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p := &posts{}
	h := newHandler(t, db, ai.New(ai.Options{}), p, botUser, play.Options{Now: clock.Now, Seed: 1})
	h.cat = cat
	for _, d := range definitions(cat) {
		h.defs[d.Name] = d
	}
	tr := &tourist{t: t, h: h, db: db, clock: clock, posts: p, locale: locale}

	tr.ok("help", slash(t, alice, "2000", "c1", subcommand("help", "")))
	// Challenges that never become games.
	g := tr.challengeBob("challenge", false)
	tr.refused("accept by a stranger", click(carol, "2000", "c1", fmt.Sprint("m", g), "c1", CustomID{Action: ActAccept, GameID: g, Version: 1}.String()))
	tr.click("decline", bob, g, CustomID{Action: ActDecline, GameID: g, Version: 1})
	declined := g
	tr.challengeBob("challenge to withdraw", false)
	tr.ok("withdraw", slash(t, alice, "2000", "c1", subcommand("resign", "")))
	tr.challengeBob("challenge to expire", false)
	tr.tick("expired challenge", h.opts.ChallengeTimeout+tttbot.DeadlineGrace)

	// The server's settings, once the server is known.
	admin := func(what, opts string) {
		t.Helper()
		i := slash(t, alice, "2000", "c1", `{"name":"ttt-admin","options":[`+opts+`]}`)
		i.Member.Permissions = discordgo.PermissionManageGuild
		tr.ok(what, i)
	}
	admin("admin show", `{"name":"show","type":1}`)
	admin("admin simultaneous", `{"name":"simultaneous","type":1,"options":[{"name":"allow","type":5,"value":false}]}`)
	admin("admin cooldown", `{"name":"cooldown","type":1,"options":[{"name":"seconds","type":4,"value":0}]}`)
	admin("admin timeouts", `{"name":"timeouts","type":1,"options":[{"name":"turn","type":3,"value":"default"}]}`)
	admin("admin defaults", `{"name":"defaults","type":1,"options":[{"name":"reset","type":5,"value":true}]}`)
	admin("admin marks", `{"name":"marks","type":1,"options":[{"name":"reset","type":5,"value":true}]}`)
	admin("admin language", `{"name":"language","type":1,"options":[{"name":"locale","type":3,"value":"server"}]}`)
	admin("admin reset unconfirmed", `{"name":"reset-ratings","type":1,"options":[{"name":"confirm","type":5,"value":false}]}`)
	tr.refused("admin by a member", slash(t, bob, "2000", "c1", `{"name":"ttt-admin","options":[{"name":"show","type":1}]}`))
	tr.refused("settings moved", slash(t, bob, "2000", "c1", subcommand("settings", `{"name":"simultaneous_games","type":5,"value":true}`)))
	tr.ok("forget-me unconfirmed", slash(t, carol, "2000", "c1", subcommand("forget-me", `{"name":"confirm","type":5,"value":false}`)))

	// Five wins of alice's rank both players.
	var won int64
	for n := range tttbot.MinRatedGames {
		won = tr.challengeBob(fmt.Sprintf("rated game %d", n+1), true)
		for k, cell := range []int{0, 3, 1, 4, 2} {
			tr.move(fmt.Sprintf("rated game %d, move %d", n+1, k+1), []string{alice, bob}[k%2], won, cell)
		}
	}
	g = tr.challengeBob("a game to draw", true)
	for k, cell := range []int{0, 1, 2, 4, 3, 5, 7, 6, 8} {
		tr.move(fmt.Sprintf("draw, move %d", k+1), []string{alice, bob}[k%2], g, cell)
	}

	// A rematch that runs out of time, and the refused clicks on a game.
	r := tr.click("rematch", bob, won, CustomID{Action: ActRematch, GameID: won})
	g = r.TrackGame
	tr.click("rematch accepted", alice, g, CustomID{Action: ActAccept, GameID: g, Version: 1})
	x := tr.game(g).XPlayer
	o := tr.game(g).Other(x)
	tr.move("first move", x, g, 4)
	tr.refused("out of turn", click(x, "2000", "c1", fmt.Sprint("m", g), "c1", CustomID{Action: ActMove, GameID: g, Version: tr.game(g).Version, Cell: 0}.String()))
	tr.refused("taken cell", click(o, "2000", "c1", fmt.Sprint("m", g), "c1", CustomID{Action: ActMove, GameID: g, Version: tr.game(g).Version, Cell: 4}.String()))
	tr.refused("stranger's move", click(carol, "2000", "c1", fmt.Sprint("m", g), "c1", CustomID{Action: ActMove, GameID: g, Version: tr.game(g).Version, Cell: 0}.String()))
	stale := click(o, "2000", "c1", fmt.Sprint("m", g), "c1", CustomID{Action: ActMove, GameID: g, Version: 1, Cell: 0}.String())
	stale.Message.Components = []discordgo.MessageComponent{&discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		&discordgo.Button{CustomID: CustomID{Action: ActMove, GameID: g, Version: 1, Cell: 0}.String()}}}}
	tr.refused("stale board", stale)
	tr.refused("elsewhere", click(o, "2000", "c9", "m9", "c9", CustomID{Action: ActMove, GameID: g, Version: tr.game(g).Version, Cell: 0}.String()))
	tr.tick("turn ran out", h.opts.TurnTimeout+tttbot.DeadlineGrace)
	tr.refused("rematch by a stranger", click(carol, "2000", "c1", fmt.Sprint("m", g), "c1", CustomID{Action: ActRematch, GameID: g}.String()))
	g = tr.challengeBob("a game to resign", true)
	tr.move("a move before resigning", alice, g, 4)
	tr.refused("hint in a game between people", slash(t, bob, "2000", "c1", subcommand("hint", "")))
	tr.ok("resign", slash(t, bob, "2000", "c1", subcommand("resign", "")))
	tr.refused("resign without a game", slash(t, bob, "2000", "c1", subcommand("resign", "")))
	g = tr.challengeBob("a game to resign from its board", true)
	tr.refused("resign by a stranger", click(carol, "2000", "c1", fmt.Sprint("m", g), "c1", CustomID{Action: ActResign, GameID: g}.String()))
	tr.click("resign from the board", bob, g, CustomID{Action: ActResign, GameID: g})
	tr.refused("resign of a game over", click(alice, "2000", "c1", fmt.Sprint("m", g), "c1", CustomID{Action: ActResign, GameID: g}.String()))
	tr.refused("hint without a game", slash(t, bob, "2000", "c1", subcommand("hint", "")))

	// A hint in a game against the bot, which then counts in no record.
	tr.ok("a game against the bot for a hint", slash(t, carol, "2000", "c3", subcommand("challenge",
		`{"name":"first","type":3,"value":"me"},{"name":"difficulty","type":3,"value":"easy"}`)))
	tr.ok("hint", slash(t, carol, "2000", "c3", subcommand("hint", "")))
	tr.ok("resign after a hint", slash(t, carol, "2000", "c3", subcommand("resign", "")))

	// A long 5×5 game against the bot, resigned: its board fills five
	// rows, with Resign, then Rematch and Review, below them.
	r = tr.ok("game against the bot", slash(t, alice, "2000", "c2", subcommand("challenge",
		`{"name":"size","type":4,"value":5},{"name":"win","type":4,"value":5},{"name":"first","type":3,"value":"me"},{"name":"difficulty","type":3,"value":"hard"}`)))
	vsBot := r.TrackGame
	for n := 0; tr.game(vsBot).Status == tttbot.StatusActive && n < 6; n++ {
		pos, err := tr.game(vsBot).Position()
		if err != nil {
			t.Fatal(err)
		}
		cell := pos.Moves()[0]
		tr.do(fmt.Sprintf("move %d against the bot", n+1), click(alice, "2000", "c2", fmt.Sprint("m", vsBot), "c2",
			CustomID{Action: ActMove, GameID: vsBot, Version: tr.game(vsBot).Version, Cell: cell}.String()))
	}
	if tr.game(vsBot).Status == tttbot.StatusActive {
		tr.ok("resign against the bot", slash(t, alice, "2000", "c2", subcommand("resign", "")))
	}

	// The pages.
	tr.ok("leaderboard", slash(t, alice, "2000", "c1", subcommand("leaderboard", "")))
	tr.ok("global leaderboard", slash(t, alice, "2000", "c1", subcommand("leaderboard", `{"name":"scope","type":3,"value":"global"}`)))
	tr.ok("leaderboard in a DM", slash(t, alice, "", "d1", subcommand("leaderboard", "")))
	tr.ok("empty leaderboard", slash(t, alice, "2000", "c1", subcommand("leaderboard", `{"name":"size","type":4,"value":4}`)))
	tr.refused("bad win length", slash(t, alice, "2000", "c1", subcommand("leaderboard", `{"name":"size","type":4,"value":4},{"name":"win","type":4,"value":5}`)))
	tr.refused("fixed win length", slash(t, alice, "2000", "c1", subcommand("leaderboard", `{"name":"size","type":4,"value":3},{"name":"win","type":4,"value":4}`)))
	tr.ok("stats", slash(t, alice, "2000", "c1", subcommand("stats", "")))
	tr.ok("stats of the loser", slash(t, bob, "2000", "c1", subcommand("stats", "")))
	tr.ok("stats in a DM", slash(t, alice, "", "d1", subcommand("stats", "")))
	tr.ok("stats of the bot", slash(t, alice, "2000", "c1", ofUser("stats", botUser)))
	tr.ok("stats of a newcomer", slash(t, alice, "2000", "c1", ofUser("stats", carol)))
	tr.ok("history", slash(t, alice, "2000", "c1", subcommand("history", "")))
	tr.ok("history of the bot", slash(t, alice, "2000", "c1", ofUser("history", botUser)))
	tr.ok("history of a newcomer", slash(t, alice, "2000", "c1", ofUser("history", carol)))
	tr.ok("history in a DM", slash(t, alice, "", "d1", subcommand("history", "")))
	tr.ok("replay", click(alice, "2000", "c1", "h1", "c1", CustomID{Action: actReplay, GameID: won}.String()))
	tr.ok("replay's start", click(alice, "2000", "c1", "h1", "c1", CustomID{Action: actReplayStep, GameID: won, Page: 0}.String()))
	tr.ok("replay's first move", click(alice, "2000", "c1", "h1", "c1", CustomID{Action: actReplayStep, GameID: won, Page: 1, Slot: 2}.String()))
	tr.ok("review", slash(t, alice, "2000", "c1", subcommand("review", fmt.Sprintf(`{"name":"game","type":4,"value":%d}`, vsBot))))
	tr.ok("review's next page", click(alice, "2000", "c1", "v1", "c1", CustomID{Action: actReviewPage, GameID: vsBot, Page: 1}.String()))
	tr.ok("review of a won game", click(alice, "2000", "c1", "v1", "c1", CustomID{Action: actReview, GameID: won}.String()))
	tr.ok("pictures", click(alice, "2000", "c1", "v1", "c1", CustomID{Action: actPictures, GameID: won}.String()))
	tr.ok("pictures of a game against the bot", click(alice, "2000", "c1", "v1", "c1", CustomID{Action: actPictures, GameID: vsBot}.String()))
	tr.refused("review of a declined challenge", slash(t, alice, "2000", "c1", subcommand("review", fmt.Sprintf(`{"name":"game","type":4,"value":%d}`, declined))))
	tr.refused("unknown option", slash(t, alice, "2000", "c1", subcommand("stats", `{"name":"colour","type":3,"value":"red"}`)))
	tr.ok("forget-me", slash(t, bob, "2000", "c1", subcommand("forget-me", `{"name":"confirm","type":5,"value":true}`)))
	tr.ok("history of a forgotten player's opponent", slash(t, alice, "2000", "c1", subcommand("history", "")))
	return tr.out
}
