package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot"
)

// testSettings: a guild's settings read back as saved, and a refused
// change changes nothing.
func testSettings(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	const guild = "900"
	got := Must[*tttbot.Settings](t)(db.Settings(t.Context(), guild))
	if diff := cmp.Diff(&tttbot.Settings{GuildID: guild}, got); diff != "" {
		t.Errorf("a guild that set nothing (-want +got):\n%s", diff)
	}
	yes := true
	want := tttbot.Settings{
		GuildID: guild, Channels: []string{"11", "12"}, Role: "13", TournamentRole: "14", Cooldown: 30 * time.Second,
		Simultaneous:     &yes,
		Defaults:         tttbot.Defaults{Size: 4, K: 3, Level: "hard", First: tttbot.FirstThem},
		ChallengeTimeout: time.Hour, TurnTimeout: 45 * time.Second,
		X: tttbot.Mark{Name: "cat", ID: "14", Animated: true}, O: tttbot.Mark{Name: "🐶"},
		Locale: "pt-BR", Daily: tttbot.NewDaily("15", 0, t0), UpdatedAt: t0,
	}
	saved := Must[*tttbot.Settings](t)(db.UpdateSettings(t.Context(), guild, func(s *tttbot.Settings) error {
		*s = want
		s.GuildID = "another" // the store keeps the guild's own
		return nil
	}))
	for _, s := range []*tttbot.Settings{saved, Must[*tttbot.Settings](t)(db.Settings(t.Context(), guild))} {
		if diff := cmp.Diff(&want, s); diff != "" {
			t.Errorf("settings (-want +got):\n%s", diff)
		}
	}

	// A refused change, by the change itself or by Validate, changes nothing.
	refusal := tttbot.Errorf(tttbot.EINVALID, "no")
	for _, change := range []func(*tttbot.Settings) error{
		func(s *tttbot.Settings) error { s.Cooldown = 0; return refusal },
		func(s *tttbot.Settings) error { s.Cooldown = 2 * time.Hour; return nil },
		func(s *tttbot.Settings) error { s.O = s.X; return nil },
	} {
		if _, err := db.UpdateSettings(t.Context(), guild, change); tttbot.ErrorCode(err) != tttbot.EINVALID {
			t.Errorf("got %v, want a refusal", err)
		}
	}
	if diff := cmp.Diff(&want, Must[*tttbot.Settings](t)(db.Settings(t.Context(), guild))); diff != "" {
		t.Errorf("after refused changes (-want +got):\n%s", diff)
	}
	if _, err := db.UpdateSettings(t.Context(), "", func(*tttbot.Settings) error { return nil }); !errors.Is(err, tttbot.ErrSettingsOutOfGuild) {
		t.Errorf("settings of no guild: got %v, want %v", err, tttbot.ErrSettingsOutOfGuild)
	}
}

// guildGame plays a 3×3 game of a (X) against b in guild with cells.
func guildGame(t *testing.T, db *DB, guild, channel, a, b string, cells []int) *tttbot.Game {
	t.Helper()
	g := Challenge(channel, a, b)
	g.GuildID = guild
	OK(t, db.StartGame(t.Context(), g, nil))
	g = Must[*tttbot.Game](t)(db.Accept(t.Context(), tttbot.AcceptRequest{GameID: g.ID, Player: b, Version: g.Version, XPlayer: a, At: t0, Deadline: t0.Add(time.Minute)}))
	return PlayCells(t, db, g, cells...)
}

// checkSound fails unless Check finds the database sound.
func checkSound(t *testing.T, db *DB) {
	t.Helper()
	problems, err := db.Check(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 0 {
		t.Errorf("Check: %v", problems)
	}
}

// testResetRatings: a guild's reset empties its leaderboard and leaves the
// other guilds', the global one and the games' history alone; its new
// games are rated from scratch; the database stays sound.
func testResetRatings(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	for range tttbot.MinRatedGames {
		guildGame(t, db, "901", "c1", "alice", "bob", xWins)
		guildGame(t, db, "902", "c2", "alice", "bob", oWins)
	}
	n := Must[int](t)(db.ResetRatings(t.Context(), "901"))
	if n != 2 {
		t.Errorf("reset %d ratings, want 2", n)
	}
	board := func(scope string) int {
		return Must[tttbot.LeaderboardPage](t)(db.Leaderboard(t.Context(), scope, shape3, 0, 10)).Total
	}
	if a, b, g := board("901"), board("902"), board(""); a != 0 || b != 2 || g != 2 {
		t.Errorf("leaderboards after the reset: guild %d, other guild %d, global %d players; want 0, 2, 2", a, b, g)
	}
	if h := Must[[]tttbot.HistoryEntry](t)(db.History(t.Context(), "alice", "901", 20)); len(h) != tttbot.MinRatedGames {
		t.Errorf("history after the reset: %d games, want %d", len(h), tttbot.MinRatedGames)
	}
	// Two players' ratings after each game, globally and in its guild,
	// less the guild's.
	if got, want := countRows(t, db, "rating_history"), 2*2*2*tttbot.MinRatedGames-2*tttbot.MinRatedGames; got != want {
		t.Errorf("rating history after the reset: %d rows, want %d", got, want)
	}
	checkSound(t, db)
	guildGame(t, db, "901", "c1", "alice", "bob", draw)
	if s := standing(t, db, "901", "alice"); s.Games != 1 || s.Draws != 1 {
		t.Errorf("after a game past the reset: %d games, %d draws; want 1, 1", s.Games, s.Draws)
	}
	if h := Must[*tttbot.Stats](t)(db.Stats(t.Context(), "901", "alice")).History; len(h) != 1 || len(h[0].Points) != 1 {
		t.Errorf("rating history past the reset: %+v, want the one game's", h)
	}
	if s := standing(t, db, "", "alice"); s.Games != 2*tttbot.MinRatedGames+1 {
		t.Errorf("global games %d, want %d", s.Games, 2*tttbot.MinRatedGames+1)
	}
	checkCounts(t, db)
	checkSound(t, db)
}

// testForgetPlayer: a forgotten player's open games end first, their name,
// ratings and records go, their opponents' games still replay under a
// placeholder, and the database stays sound.
func testForgetPlayer(t *testing.T, newDB Opener) {
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	won := guildGame(t, db, "901", "c1", "alice", "bob", xWins)
	OK(t, db.StartGame(ctx, &tttbot.Game{GuildID: "901", ChannelID: "c2", Rows: 3, Cols: 3, K: 3, Challenger: "alice",
		Opponent: "bot", BotLevel: "easy", XPlayer: "alice", OPlayer: "bot", Status: tttbot.StatusActive}, nil, tttbot.Player{ID: "alice", Name: "Alice"}))
	active := PlayCells(t, db, StartGame(t, db, "c3", "carol", "alice"), 4)
	pending := Challenge("c4", "dave", "alice")
	OK(t, db.StartGame(ctx, pending, nil))
	both := guildGame(t, db, "901", "c5", "erin", "alice", draw)

	e := Must[*tttbot.Erasure](t)(db.ForgetPlayer(ctx, "alice", t0.Add(time.Hour)))
	if !e.Named || e.Ratings != 3 || e.Records != 1 || e.Games != 5 || len(e.Closed) != 3 {
		t.Errorf("erasure %+v: want named, 3 ratings (global and two guilds), 1 record against the bot (the game it resigned), 5 games, 3 closed", e)
	}
	for _, c := range e.Closed {
		if c.Status.Open() || c.HasPlayer("alice") {
			t.Errorf("closed game %d: status %s, players %s and %s", c.ID, c.Status, c.Challenger, c.Opponent)
		}
	}
	a := Must[*tttbot.Game](t)(db.Game(ctx, active.ID))
	if a.Status != tttbot.StatusFinished || a.Reason != tttbot.ReasonResign || a.Winner != "carol" {
		t.Errorf("alice's active game: %s by %s won by %q; want carol winning by resignation", a.Status, a.Reason, a.Winner)
	}
	if p := Must[*tttbot.Game](t)(db.Game(ctx, pending.ID)); p.Status != tttbot.StatusDeclined {
		t.Errorf("the challenge to alice: %s, want declined", p.Status)
	}
	for _, table := range []string{"ratings", "rating_history", "bot_records"} {
		var n int
		OK(t, db.SQL.QueryRow("SELECT count(*) FROM "+table+" WHERE player_id = 'alice'").Scan(&n))
		if n != 0 {
			t.Errorf("%s: %d rows of alice left", table, n)
		}
	}
	for _, table := range []string{"players WHERE id", "games WHERE challenger_id = 'alice' OR opponent_id", "moves WHERE player_id", "results WHERE opponent_id = 'alice' OR player_id"} {
		var n int
		OK(t, db.SQL.QueryRow("SELECT count(*) FROM "+table+" = 'alice'").Scan(&n))
		if n != 0 {
			t.Errorf("%s: %d rows still name alice", table, n)
		}
	}
	// bob's game replays, against a placeholder.
	w := Must[*tttbot.Game](t)(db.Game(ctx, won.ID))
	if !tttbot.Forgotten(w.Challenger) || w.Winner != w.Challenger || w.XPlayer != w.Challenger {
		t.Errorf("bob's game: challenger %q, X %q, winner %q; want one placeholder", w.Challenger, w.XPlayer, w.Winner)
	}
	h := Must[[]tttbot.HistoryEntry](t)(db.History(ctx, "bob", "901", 10))
	if len(h) != 1 || h[0].Opponent != w.Challenger || h[0].Outcome != tttbot.Loss {
		t.Errorf("bob's history: %+v", h)
	}
	if s := standing(t, db, "", "bob"); s.Games != 1 || s.Losses != 1 {
		t.Errorf("bob's rating: %d games, %d losses; want 1, 1", s.Games, s.Losses)
	}
	checkSound(t, db)

	// The other player of a game forgotten too: two placeholders.
	Must[*tttbot.Erasure](t)(db.ForgetPlayer(ctx, "erin", t0.Add(time.Hour)))
	b := Must[*tttbot.Game](t)(db.Game(ctx, both.ID))
	if !tttbot.Forgotten(b.Challenger) || !tttbot.Forgotten(b.Opponent) || b.Challenger == b.Opponent {
		t.Errorf("a game of two forgotten players: %q against %q", b.Challenger, b.Opponent)
	}
	checkSound(t, db)

	if e := Must[*tttbot.Erasure](t)(db.ForgetPlayer(ctx, "nobody", time.Time{})); e.Named || e.Games != 0 || e.Ratings != 0 {
		t.Errorf("forgetting a stranger: %+v, want nothing", e)
	}
	if _, err := db.ForgetPlayer(ctx, b.Challenger, time.Time{}); tttbot.ErrorCode(err) != tttbot.EINVALID {
		t.Errorf("forgetting a placeholder: got %v, want a refusal", err)
	}
}

// testStartGame: StartGame hands prepare the guild's settings and the
// challenger's last game there, stores what prepare completes, and stores
// nothing when it refuses; Accept and Play apply the guild's role and
// turn timeout in their transactions.
func testStartGame(t *testing.T, newDB Opener) {
	c := &clock{t0}
	db := newDB(t, Options{SimultaneousGames: true, Now: c.Now})
	ctx := t.Context()
	const guild, role = "901", "77"
	Must[*tttbot.Settings](t)(db.UpdateSettings(ctx, guild, func(s *tttbot.Settings) error {
		s.Cooldown, s.Role, s.TurnTimeout = time.Minute, role, 30*time.Second
		return nil
	}))
	var seen []tttbot.Admission
	start := func(challenger, opponent string, refuse error) (*tttbot.Game, error) {
		g := &tttbot.Game{GuildID: guild, ChannelID: "c1", Challenger: challenger, Opponent: opponent}
		err := db.StartGame(ctx, g, func(g *tttbot.Game, adm tttbot.Admission) (*tttbot.MoveRequest, error) {
			seen = append(seen, adm)
			if refuse != nil {
				return nil, refuse
			}
			g.Rows, g.Cols, g.K = 3, 3, 3
			g.Status, g.Deadline = tttbot.StatusPending, c.t.Add(time.Minute)
			if opponent == "bot" {
				g.BotLevel, g.Status = "easy", tttbot.StatusActive
				g.XPlayer, g.OPlayer = challenger, opponent
			}
			return nil, nil
		}, tttbot.Player{ID: challenger, Name: "Name of " + challenger})
		return g, err
	}

	first := Must[*tttbot.Game](t)(start("alice", "bob", nil))
	if adm := seen[0]; adm.Settings.Cooldown != time.Minute || adm.Settings.Role != role || !adm.LastStart.IsZero() {
		t.Errorf("first admission: %+v, want the guild's settings and no last game", adm)
	}
	c.t = c.t.Add(10 * time.Second)
	refusal := tttbot.Errorf(tttbot.EFORBIDDEN, "no")
	if _, err := start("alice", "carol", refusal); err != refusal {
		t.Fatalf("a refused game: got %v, want the refusal", err)
	}
	if !seen[1].LastStart.Equal(first.CreatedAt) {
		t.Errorf("second admission: last start %s, want %s", seen[1].LastStart, first.CreatedAt)
	}
	var n int
	OK(t, db.SQL.QueryRow("SELECT count(*) FROM games").Scan(&n))
	if n != 1 {
		t.Errorf("%d games after a refusal, want 1", n)
	}
	// The bot in a game in the channel already: prepare makes this one a
	// game against it, and the room rules see it as such.
	Must[*tttbot.Game](t)(start("dave", "bot", nil))
	if g := Must[*tttbot.Game](t)(start("erin", "bot", nil)); g.Status != tttbot.StatusActive || g.Turn != "erin" {
		t.Errorf("a second game against the bot: %s, turn %q", g.Status, g.Turn)
	}

	// Accept: the role, then the guild's turn timeout.
	_, err := db.Accept(ctx, tttbot.AcceptRequest{GameID: first.ID, Player: "bob", Version: 1, XPlayer: "alice", At: c.t, Deadline: c.t.Add(5 * time.Minute), Roles: []string{"78"}})
	if !errors.Is(err, tttbot.ErrRoleNeeded) {
		t.Fatalf("accept without the role: got %v, want %v", err, tttbot.ErrRoleNeeded)
	}
	g := Must[*tttbot.Game](t)(db.Accept(ctx, tttbot.AcceptRequest{GameID: first.ID, Player: "bob", Version: 1, XPlayer: "alice",
		At: c.t, Deadline: c.t.Add(5 * time.Minute), Roles: []string{"78", role}}))
	if want := c.t.Add(30 * time.Second); !g.Deadline.Equal(want) {
		t.Errorf("accepted: deadline %s, want the guild's 30s: %s", g.Deadline, want)
	}
	at := c.t.Add(5 * time.Second)
	g = Must[*tttbot.Game](t)(db.Play(ctx, tttbot.MoveRequest{GameID: g.ID, Player: "alice", Cell: 4, Version: g.Version, At: at, Deadline: at.Add(5 * time.Minute)}, nil))
	if want := at.Add(30 * time.Second); !g.Deadline.Equal(want) {
		t.Errorf("after a move: deadline %s, want the guild's 30s: %s", g.Deadline, want)
	}
	checkSound(t, db)
}

// testCooldownAtOnce: two games one player starts at once, in a guild with
// a cooldown, in two channels: exactly one starts, however the
// transactions interleave.
func testCooldownAtOnce(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	const guild = "901"
	Must[*tttbot.Settings](t)(db.UpdateSettings(ctx, guild, func(s *tttbot.Settings) error { s.Cooldown = time.Hour; return nil }))
	for round := range 10 {
		challenger := fmt.Sprint("p", round)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				g := Challenge(fmt.Sprint("c", round, "-", i), challenger, fmt.Sprint("o", round, "-", i))
				g.GuildID = guild
				errs[i] = db.StartGame(ctx, g, func(g *tttbot.Game, adm tttbot.Admission) (*tttbot.MoveRequest, error) {
					return nil, adm.Settings.MayStart(g.ChannelID, nil, adm.LastStart, t0)
				})
			})
		}
		wg.Wait()
		started := 0
		for i, err := range errs {
			switch {
			case err == nil:
				started++
			case !errors.Is(err, tttbot.ErrCooldown):
				t.Errorf("round %d, game %d: got %v, want a start or the cooldown", round, i, err)
			}
		}
		if started != 1 {
			t.Fatalf("round %d: %d games started, want 1", round, started)
		}
	}
}

// testResetWhileRating: a guild's reset racing games that finish there
// leaves every rating counting exactly the results it should, whichever
// commits first.
func testResetWhileRating(t *testing.T, newDB Opener) {
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	const guild = "901"
	for round := range 5 {
		// Games one move from the end, between players who have ratings
		// in the guild already.
		var games []*tttbot.Game
		for i := range 12 {
			a, b := fmt.Sprint("a", i), fmt.Sprint("b", i)
			if i%2 == 0 {
				guildGame(t, db, guild, fmt.Sprint("c", round, "-", i, "-0"), a, b, draw)
			}
			games = append(games, guildGame(t, db, guild, fmt.Sprint("c", round, "-", i), a, b, xWins[:len(xWins)-1]))
		}
		var wg sync.WaitGroup
		for _, g := range games {
			wg.Go(func() {
				if _, err := db.Play(ctx, Click(g, g.Turn, xWins[len(xWins)-1]), nil); err != nil {
					t.Errorf("round %d, game %d: %v", round, g.ID, err)
				}
			})
		}
		wg.Go(func() {
			if _, err := db.ResetRatings(ctx, guild); err != nil {
				t.Errorf("round %d, reset: %v", round, err)
			}
		})
		wg.Wait()
		checkSound(t, db)
	}
}

// testDueDaily: a daily post is claimed once at its hour, by one of
// several claims at once, then not again until its next day; a guild that
// turned it off is never due.
func testDueDaily(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	for guild, d := range map[string]tttbot.Daily{"901": tttbot.NewDaily("21", 9, t0), "902": tttbot.NewDaily("22", 10, t0), "903": {}} {
		Must[*tttbot.Settings](t)(db.UpdateSettings(ctx, guild, func(s *tttbot.Settings) error { s.Daily = d; return nil }))
	}
	nine := tttbot.NextDaily(9, t0)
	day := nine.Truncate(24 * time.Hour)
	if got := Must[[]tttbot.DailyPost](t)(db.DueDaily(ctx, nine.Add(-time.Millisecond))); len(got) != 0 {
		t.Errorf("before its hour: %+v, want none", got)
	}
	// Eight claims at once (two instances' timers): one gets the post.
	var wg sync.WaitGroup
	var mu sync.Mutex
	var got []tttbot.DailyPost
	for range 8 {
		wg.Go(func() {
			ps, err := db.DueDaily(ctx, nine.Add(time.Minute))
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			got = append(got, ps...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if diff := cmp.Diff([]tttbot.DailyPost{{GuildID: "901", Channel: "21", Day: day}}, got); diff != "" {
		t.Errorf("claims at its hour (-want +got):\n%s", diff)
	}
	s := Must[*tttbot.Settings](t)(db.Settings(ctx, "901"))
	if want := nine.AddDate(0, 0, 1); !s.Daily.Due.Equal(want) {
		t.Errorf("next post: %v, want %v", s.Daily.Due, want)
	}
	// Three days down: one post on coming back, the next the day after.
	back := nine.AddDate(0, 0, 3).Add(time.Hour)
	got = Must[[]tttbot.DailyPost](t)(db.DueDaily(ctx, back))
	if len(got) != 2 || got[0].Day != back.Truncate(24*time.Hour) {
		t.Errorf("after three days: %+v, want both guilds once, today", got)
	}
	if s := Must[*tttbot.Settings](t)(db.Settings(ctx, "901")); !s.Daily.Due.Equal(nine.AddDate(0, 0, 4)) {
		t.Errorf("next post after three days: %v, want %v", s.Daily.Due, nine.AddDate(0, 0, 4))
	}
	if got := Must[[]tttbot.DailyPost](t)(db.DueDaily(ctx, back)); len(got) != 0 {
		t.Errorf("claimed again: %+v", got)
	}
}

// testDailySolves: a member's first solve of the day's post counts, once;
// the fastest come first; a solve of another puzzle, day or guild is none.
func testDailySolves(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	day := t0.Truncate(24 * time.Hour)
	post := tttbot.DailyPost{GuildID: "901", Channel: "21", Day: day}
	if err := db.DailyPosted(ctx, post, "p1", "m1"); err != nil {
		t.Fatal(err)
	}
	// A second record of the day (another instance's) changes nothing.
	if err := db.DailyPosted(ctx, post, "p2", "m2"); err != nil {
		t.Fatal(err)
	}
	solve := func(guild, puzzle string, day time.Time, player string, took time.Duration) (tttbot.DailyBoard, bool) {
		t.Helper()
		b, ok, err := db.DailySolved(ctx, guild, puzzle, day, tttbot.DailySolve{Player: player, Took: took})
		if err != nil {
			t.Fatal(err)
		}
		return b, ok
	}
	for _, tt := range []struct {
		guild, puzzle string
		day           time.Time
	}{{"902", "p1", day}, {"901", "p2", day}, {"901", "p1", day.AddDate(0, 0, 1)}} {
		if b, ok := solve(tt.guild, tt.puzzle, tt.day, "30", time.Second); ok {
			t.Errorf("solve of %+v: %+v, want no post", tt, b)
		}
	}
	solve("901", "p1", day, "31", 40*time.Second)
	solve("901", "p1", day, "32", 9*time.Second)
	solve("901", "p1", day, "33", 20*time.Second)
	solve("901", "p1", day, "31", 2*time.Second) // a replay: the first solve stays
	b, ok := solve("901", "p1", day, "34", 90*time.Second)
	want := tttbot.DailyBoard{Channel: "21", Message: "m1", Solvers: 4, Fastest: []tttbot.DailySolve{
		{Player: "32", Took: 9 * time.Second}, {Player: "33", Took: 20 * time.Second}, {Player: "31", Took: 40 * time.Second}}}
	if diff := cmp.Diff(want, b); !ok || diff != "" {
		t.Errorf("board (-want +got, found %v):\n%s", ok, diff)
	}
}
