package commands

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// channelPosts records the messages posted to channels, Discord's side of
// Messenger.SendMessage.
type channelPosts struct {
	edits
	mu   sync.Mutex
	sent []*discordgo.InteractionResponseData
}

func (p *channelPosts) SendMessage(_ context.Context, _ string, data *discordgo.InteractionResponseData) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent = append(p.sent, data)
	return strconv.Itoa(900 + len(p.sent)), nil
}

// tournamentSlash is /ttt tournament SUB with options (Discord's JSON).
func tournamentSlash(t *testing.T, user, guild, sub, opts string) *discordgo.Interaction {
	return slash(t, user, guild, "30", `{"name":"ttt","options":[{"type":2,"name":"tournament","options":[{"type":1,"name":"`+sub+`","options":[`+opts+`]}]}]}`)
}

func asAdmin(i *discordgo.Interaction) *discordgo.Interaction {
	i.Member.Permissions = discordgo.PermissionManageGuild
	return i
}

func buttonIDs(d *discordgo.InteractionResponseData) []string {
	var ids []string
	walk(d.Components, func(c discordgo.MessageComponent) {
		if b, ok := c.(discordgo.Button); ok {
			ids = append(ids, b.CustomID)
		}
	})
	return ids
}

// postingHandler is a Handler on a new SQLite database whose channel
// posts (rounds, boards, final tables) go to the channelPosts returned.
func postingHandler(t *testing.T) (*Handler, *sqlite.DB, *channelPosts) {
	t.Helper()
	now := func() time.Time { return testNow }
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	msg := &channelPosts{}
	return newHandler(t, db, ai.New(ai.Options{}), msg, botUser, play.Options{Now: now, Seed: 1}), db, msg
}

// TestTournamentCommands: an admin announces a knockout, four members join
// with the button, the organiser starts it and the round is posted with a
// board per game; the refusals on the way are private and say why.
func TestTournamentCommands(t *testing.T) {
	h, _, msg := postingHandler(t)
	ctx := t.Context()
	const guild, org = "2000", "10"
	create := `{"type":3,"name":"name","value":"Friday Cup"},{"type":3,"name":"format","value":"knockout"}`

	wantRefused(t, h.Handle(ctx, tournamentSlash(t, org, guild, "create", create)), "forbidden", "manage the server")
	r := h.Handle(ctx, asAdmin(tournamentSlash(t, org, guild, "create", create)))
	d := r.Response.Data
	if d == nil || d.Flags&discordgo.MessageFlagsEphemeral != 0 || !strings.Contains(shown(d), "Friday Cup") || !strings.Contains(shown(d), "Players: 0") {
		t.Fatalf("announcement: %+v", r.Response)
	}
	ids := buttonIDs(d)
	if len(ids) != 2 || ids[0] != "ttt:t:1:j" || ids[1] != "ttt:t:1:l" {
		t.Fatalf("announcement buttons %v, want Join and Leave of tournament 1", ids)
	}

	for n, p := range []string{"20", "21", "22", "23"} {
		r := h.Handle(ctx, click(p, guild, "30", "900", "30", ids[0]))
		if r.Response == nil || r.Response.Type != discordgo.InteractionResponseUpdateMessage || !strings.Contains(shown(r.Response.Data), "Players: "+strconv.Itoa(n+1)) {
			t.Fatalf("join by %s: %+v", p, r.Response)
		}
	}
	wantRefused(t, h.Handle(ctx, click("20", guild, "30", "900", "30", ids[0])), "conflict", "already in this tournament")
	wantRefused(t, h.Handle(ctx, tournamentSlash(t, "20", guild, "start", `{"type":4,"name":"id","value":1}`)), "forbidden", "organiser")
	wantRefused(t, h.Handle(ctx, tournamentSlash(t, org, "2001", "start", `{"type":4,"name":"id","value":1}`)), "not_found", "no such tournament")

	r = h.Handle(ctx, tournamentSlash(t, org, guild, "start", `{"type":4,"name":"id","value":1}`))
	if d := r.Response.Data; d == nil || d.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(d.Content, "has started") {
		t.Fatalf("start: %+v", r.Response)
	}
	if len(msg.sent) != 3 || !strings.Contains(shown(msg.sent[0]), "round 1 of 2") || !strings.Contains(shown(msg.sent[0]), "Board 2:") {
		t.Fatalf("posted %d messages, want the round's pairings and 2 boards; first: %q", len(msg.sent), shown(msg.sent[0]))
	}
	wantRefused(t, h.Handle(ctx, click("24", guild, "30", "900", "30", ids[0])), "finished", "sign-up is closed")

	r = h.Handle(ctx, tournamentSlash(t, "20", guild, "standings", `{"type":4,"name":"id","value":1}`))
	if d := r.Response.Data; d == nil || !strings.Contains(shown(d), "table after round 1") || strings.Count(shown(d), "in round 1 of 2") != 4 || strings.Contains(shown(d), "Buchholz") {
		t.Errorf("standings: %q", shown(r.Response.Data))
	}
	remove := func() *discordgo.Interaction {
		return slash(t, org, guild, "30", `{"name":"ttt","options":[{"type":2,"name":"tournament","options":[{"type":1,"name":"remove","options":[`+
			`{"type":4,"name":"id","value":1},{"type":6,"name":"player","value":"21"}]}]}],"resolved":{"users":{"21":{"id":"21"}}}}`)
	}
	r = h.Handle(ctx, remove())
	if d := r.Response.Data; d == nil || d.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(d.Content, "is out of **Friday Cup**") {
		t.Errorf("remove: %+v", r.Response)
	}
	wantRefused(t, h.Handle(ctx, remove()), "not_found", "already out of it")
	r = h.Handle(ctx, tournamentSlash(t, org, guild, "cancel", `{"type":4,"name":"id","value":1}`))
	if d := r.Response.Data; d == nil || !strings.Contains(d.Content, "is cancelled") || !strings.Contains(shown(msg.sent[len(msg.sent)-1]), "was cancelled") {
		t.Errorf("cancel: %+v", r.Response)
	}
	wantRefused(t, h.Handle(ctx, tournamentSlash(t, org, guild, "cancel", `{"type":4,"name":"id","value":1}`)), "finished", "is over")
	dm := slash(t, org, "", "30", `{"name":"ttt","options":[{"type":2,"name":"tournament","options":[{"type":1,"name":"standings","options":[{"type":4,"name":"id","value":1}]}]}]}`)
	wantRefused(t, h.Handle(ctx, dm), "invalid", "servers")
}

// TestTournamentRole: a member with the role the admins chose with
// /ttt-admin tournament-role may create a tournament; /ttt-admin show lists
// the role.
func TestTournamentRole(t *testing.T) {
	h, _ := newTestHandler(t)
	ctx := t.Context()
	const guild = "2000"
	create := `{"type":3,"name":"name","value":"Club night"},{"type":3,"name":"format","value":"swiss"},{"type":5,"name":"rated","value":false}`
	member := func() *discordgo.Interaction {
		i := tournamentSlash(t, "50", guild, "create", create)
		i.Member.Roles = []string{"777"}
		return i
	}
	wantRefused(t, h.Handle(ctx, member()), "forbidden", "/ttt-admin tournament-role")
	set := asAdmin(slash(t, "10", guild, "30", `{"name":"ttt-admin","options":[{"type":2,"name":"tournament-role","options":[`+
		`{"type":1,"name":"set","options":[{"type":8,"name":"role","value":"777"}]}]}],"resolved":{"roles":{"777":{"id":"777","name":"TD"}}}}`))
	if r := h.Handle(ctx, set); r.Code != "" {
		t.Fatalf("tournament-role set: %q %+v", r.Code, r.Response.Data)
	}
	show := h.Handle(ctx, asAdmin(slash(t, "10", guild, "30", `{"name":"ttt-admin","options":[{"type":1,"name":"show"}]}`)))
	if !strings.Contains(shown(show.Response.Data), "**Who may organise tournaments**: members with <@&777>") {
		t.Errorf("show: %q", shown(show.Response.Data))
	}
	r := h.Handle(ctx, member())
	if d := r.Response.Data; d == nil || d.Flags&discordgo.MessageFlagsEphemeral != 0 || !strings.Contains(shown(d), "Club night") ||
		!strings.Contains(shown(d), "unrated") {
		t.Errorf("create by the role, unrated: %+v", r.Response)
	}
}

// TestOutcomeTimeout words a game ended on time: one player's loss, or,
// for a tournament game with no move at the round's deadline, both
// players', in every language.
func TestOutcomeTimeout(t *testing.T) {
	h, _ := newTestHandler(t)
	at := testNow
	one := &tttbot.Game{Status: tttbot.StatusActive, Challenger: "111", Opponent: "222", XPlayer: "111", OPlayer: "222", Board: "X../.../...", Turn: "222"}
	both := &tttbot.Game{Status: tttbot.StatusActive, Challenger: "111", Opponent: "222", XPlayer: "111", OPlayer: "222", Board: ".../.../...", Turn: "111"}
	for _, g := range []*tttbot.Game{one, both} {
		if err := g.RoundOver(at); err != nil {
			t.Fatal(err)
		}
	}
	en := h.cat.For("en-US")
	if got, want := h.outcome(en, one), "⏰ <@222> ran out of time. <@111> wins."; got != want {
		t.Errorf("one lost: got %q, want %q", got, want)
	}
	if got, want := h.outcome(en, both), "⏰ Neither <@111> nor <@222> moved before the round's deadline: both lose on time."; got != want {
		t.Errorf("both lost: got %q, want %q", got, want)
	}
	for _, code := range h.cat.Codes() {
		l := h.cat.For(code)
		if got := h.outcome(l, both); !strings.Contains(got, "<@111>") || !strings.Contains(got, "<@222>") || got == h.outcome(l, one) {
			t.Errorf("%s: both lost worded %q", code, got)
		}
	}
}

// TestStandingsColumns: a Swiss's table shows points and tie-breaks; a
// knockout's, which has none, the round each player is in or went out in.
func TestStandingsColumns(t *testing.T) {
	h, _ := newTestHandler(t)
	l := h.cat.For("en-US")
	entrants := []tttbot.Entrant{{Player: "111", Rating: 1700}, {Player: "222", Rating: 1600}, {Player: "333", Rating: 1500}, {Player: "444", Rating: 1400}}
	games := []tttbot.TournamentGame{
		{Round: 1, Board: 1, White: "111", Black: "444", Result: tttbot.ResultWhite},
		{Round: 1, Board: 2, White: "222", Black: "333", Result: tttbot.ResultBlack},
		{Round: 2, Board: 1, White: "111", Black: "333", Result: tttbot.ResultPending},
	}
	tests := []struct {
		name    string
		format  tttbot.TournamentFormat
		final   tttbot.TournamentResult
		want    []string
		notWant []string
	}{
		{"a Swiss", tttbot.Swiss, tttbot.ResultPending, []string{"1. <@111> — 1 pts · Buchholz 0 · SB 0", "3. <@222> — 0 pts · Buchholz 1 · SB 0"}, []string{"round 2 of 2"}},
		{"a knockout running", tttbot.Knockout, tttbot.ResultPending,
			[]string{"1. <@111> — in round 2 of 2", "1. <@333> — in round 2 of 2", "3. <@222> — out in round 1 of 2", "3. <@444> — out in round 1 of 2"},
			[]string{"Buchholz", "SB", "pts"}},
		{"a knockout over", tttbot.Knockout, tttbot.ResultBlack,
			[]string{"1. <@333> — 🏆 won the final", "2. <@111> — out in round 2 of 2", "3. <@222> — out in round 1 of 2"},
			[]string{"Buchholz", "SB", "pts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := &tttbot.TournamentState{Tournament: tttbot.Tournament{Name: "Cup", Format: tt.format, Status: tttbot.TournamentRunning, Round: 2, Rounds: 2},
				Entrants: entrants, Games: slices.Clone(games)}
			if st.Games[2].Result = tt.final; tt.final != tttbot.ResultPending {
				st.Status = tttbot.TournamentFinished
			}
			got := h.renderStandings(l, st, 0).content
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("the table lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("the table has %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestTournamentWebLink: the standings and the final table link to the
// tournament's web page while the server's pages are on, and only then.
func TestTournamentWebLink(t *testing.T) {
	h, db, msg := postingHandler(t)
	h.ServeWeb("https://ttt.example/")
	ctx := t.Context()
	tr := &tttbot.Tournament{GuildID: "2000", ChannelID: "30", Organiser: "10", Name: "Cup", Format: tttbot.Swiss,
		Shape: tttbot.Shape{Rows: 3, Cols: 3, K: 3}, Rounds: 1, RoundTime: time.Hour, MoveTimeout: time.Minute,
		Status: tttbot.TournamentSignup, Deadline: testNow.Add(time.Hour)}
	if err := db.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	standings := func() string {
		r := h.Handle(ctx, tournamentSlash(t, "11", "2000", "standings", `{"type":4,"name":"id","value":`+strconv.FormatInt(tr.ID, 10)+`}`))
		if r.Response.Data == nil || r.Code != "" {
			t.Fatalf("standings: %+v", r)
		}
		return linkIn(r.Response.Data)
	}
	if got := standings(); got != "" {
		t.Errorf("with the server's pages off: a link to %q", got)
	}
	if _, err := h.play.SetWeb(ctx, "2000", true); err != nil {
		t.Fatal(err)
	}
	want := "https://ttt.example/t/" + tr.WebID
	if got := standings(); got != want {
		t.Errorf("standings: a link to %q, want %q", got, want)
	}
	st, err := db.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	st.Status = tttbot.TournamentFinished
	if err := h.TournamentOver(ctx, st); err != nil {
		t.Fatal(err)
	}
	if len(msg.sent) != 1 || linkIn(msg.sent[0]) != want {
		t.Errorf("the final table: %d posts, want one linking to %s", len(msg.sent), want)
	}
}

// linkIn is the URL of d's link buttons, wherever they are, joined.
func linkIn(d *discordgo.InteractionResponseData) string {
	var urls []string
	walk(d.Components, func(c discordgo.MessageComponent) {
		if b, ok := c.(discordgo.Button); ok && b.Style == discordgo.LinkButton {
			urls = append(urls, b.URL)
		}
	})
	return strings.Join(urls, " ")
}

// TestStandingsPages: a table longer than a page is shown a page at a
// time, with buttons to the previous and next pages; a page past the end
// shows the last, and a garbled page is refused.
func TestStandingsPages(t *testing.T) {
	h, db, _ := postingHandler(t)
	ctx := t.Context()
	tr := &tttbot.Tournament{GuildID: "2000", ChannelID: "30", Organiser: "10", Name: "Cup", Format: tttbot.Swiss,
		Shape: tttbot.Shape{Rows: 3, Cols: 3, K: 3}, Rounds: 1, RoundTime: time.Hour, MoveTimeout: time.Minute,
		Status: tttbot.TournamentSignup, Deadline: testNow.Add(time.Hour)}
	if err := db.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	for n := range 45 {
		if err := h.play.JoinTournament(ctx, tr.ID, strconv.Itoa(100+n), 1500); err != nil {
			t.Fatal(err)
		}
	}
	base := "ttt:t:" + strconv.FormatInt(tr.ID, 10) + ":s"
	tests := []struct {
		name    string
		r       interaction.Reply
		footer  string
		lines   int
		buttons []string
	}{
		{"the command", h.Handle(ctx, tournamentSlash(t, "11", "2000", "standings", `{"type":4,"name":"id","value":`+strconv.FormatInt(tr.ID, 10)+`}`)),
			"Page 1 of 3", 20, []string{base + "0", base + "1"}},
		{"next", h.Handle(ctx, click("11", "2000", "30", "900", "30", base+"1")), "Page 2 of 3", 20, []string{base + "0", base + "2"}},
		{"past the end", h.Handle(ctx, click("11", "2000", "30", "900", "30", base+"9")), "Page 3 of 3", 5, []string{base + "1", base + "2"}},
	}
	for _, tt := range tests {
		d := tt.r.Response.Data
		if d == nil || tt.r.Code != "" {
			t.Fatalf("%s: %+v", tt.name, tt.r)
		}
		if got := shown(d); !strings.Contains(got, tt.footer) || strings.Count(got, "<@") != tt.lines {
			t.Errorf("%s: want %q and %d places, got:\n%s", tt.name, tt.footer, tt.lines, got)
		}
		if got := buttonIDs(d); !slices.Equal(got, tt.buttons) {
			t.Errorf("%s: buttons %v, want %v", tt.name, got, tt.buttons)
		}
	}
	for _, id := range []string{base + "-1", base + "x", base + "01", base} {
		wantRefused(t, h.Handle(ctx, click("11", "2000", "30", "900", "30", id)), "invalid", "")
	}
}

// TestRoundPosts: a round of 32 boards is posted in two messages, each
// within Discord's limit, listing every board once, the heading first and
// the deadline's rule last.
func TestRoundPosts(t *testing.T) {
	h, _ := newTestHandler(t)
	l := h.cat.For("en-US")
	st := &tttbot.TournamentState{Tournament: tttbot.Tournament{Name: "Cup", Format: tttbot.Swiss, Status: tttbot.TournamentRunning, Round: 1, Rounds: 6}}
	for b := range 32 {
		st.Games = append(st.Games, tttbot.TournamentGame{Round: 1, Board: b + 1,
			White: strconv.Itoa(100000000000000000 + 2*b), Black: strconv.Itoa(100000000000000001 + 2*b), Result: tttbot.ResultPending})
	}
	posts := h.renderRound(l, st)
	if len(posts) != 2 {
		t.Fatalf("%d posts, want 2", len(posts))
	}
	all := posts[0].content + "\n" + posts[1].content
	for _, p := range posts {
		if len(p.content) > maxContent || strings.HasSuffix(p.content, "…") {
			t.Errorf("a post of %d bytes, cut: %q", len(p.content), p.content)
		}
	}
	for b := range 32 {
		if n := strings.Count(all, "Board "+strconv.Itoa(b+1)+":"); n != 1 {
			t.Errorf("board %d listed %d times", b+1, n)
		}
	}
	if first, _, _ := strings.Cut(posts[0].content, "\n"); !strings.Contains(first, "**Cup** — round 1 of 6") || !strings.Contains(posts[1].content, l.T("tournament_deadline_rule", nil)) {
		t.Errorf("heading or rule misplaced:\n%s", all)
	}
}
