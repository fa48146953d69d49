package storetest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/rating"
)

// Moves of a 3×3 game from the empty board, X first.
var (
	xWins = []int{0, 3, 1, 4, 2}
	oWins = []int{0, 3, 1, 4, 8, 5}
	draw  = []int{0, 1, 2, 4, 3, 5, 7, 6, 8}
)

var shape3 = tttbot.Shape{Rows: 3, Cols: 3, K: 3}

// finishGame plays a game of a (X) against b in channel with the given moves.
func finishGame(t testing.TB, db *DB, channel, a, b string, cells []int) *tttbot.Game {
	t.Helper()
	g := PlayCells(t, db, StartGame(t, db, channel, a, b), cells...)
	if g.Status != tttbot.StatusFinished {
		t.Fatalf("game did not finish: %s", g.Board)
	}
	return g
}

// standing returns player's standing in scope on 3×3, or the zero Standing.
func standing(t testing.TB, db *DB, scope, player string) tttbot.Standing {
	t.Helper()
	st := Must[*tttbot.Stats](t)(db.Stats(t.Context(), scope, player))
	for _, s := range st.Ratings {
		if s.Shape == shape3 {
			return s
		}
	}
	return tttbot.Standing{}
}

// countRows counts the rows of table.
func countRows(t testing.TB, db *DB, table string) int {
	t.Helper()
	var n int
	OK(t, db.SQL.QueryRow("SELECT count(*) FROM "+table).Scan(&n))
	return n
}

// checkCounts compares rating_counts, kept by triggers, with a count of the
// ratings themselves.
func checkCounts(t testing.TB, db *DB) {
	t.Helper()
	var bad int
	OK(t, db.SQL.QueryRow(`SELECT count(*) FROM (
		SELECT scope, board_rows, board_cols, k, band, count(*) AS n FROM ratings WHERE games >= 5
			GROUP BY scope, board_rows, board_cols, k, band) want
		FULL JOIN (SELECT * FROM rating_counts WHERE players > 0) got USING (scope, board_rows, board_cols, k, band)
		WHERE want.n IS DISTINCT FROM got.players`).Scan(&bad))
	if bad != 0 {
		t.Errorf("rating_counts disagrees with ratings in %d bands", bad)
	}
}

func testRatedGame(t *testing.T, newDB Opener) {
	tests := []struct {
		name   string
		cells  []int
		scoreA float64 // alice's, who plays X
		alice  [5]int  // wins, losses, draws, streak, best
		bob    [5]int
	}{
		{"win", xWins, rating.Win, [5]int{1, 0, 0, 1, 1}, [5]int{0, 1, 0, -1, 0}},
		{"loss", oWins, rating.Loss, [5]int{0, 1, 0, -1, 0}, [5]int{1, 0, 0, 1, 1}},
		{"draw", draw, rating.Draw, [5]int{0, 0, 1, 0, 0}, [5]int{0, 0, 1, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t, Options{})
			g := finishGame(t, db, "c1", "alice", "bob", tt.cells)
			wantA, wantB := rating.UpdatePair(rating.Default(), rating.Default(), tt.scoreA, rating.DefaultTau)
			for _, scope := range []string{"", "guild"} {
				for _, p := range []struct {
					id     string
					want   rating.Rating
					record [5]int
				}{{"alice", wantA, tt.alice}, {"bob", wantB, tt.bob}} {
					s := standing(t, db, scope, p.id)
					got := rating.Rating{R: s.R, RD: s.RD, Sigma: s.Sigma}
					if got != p.want {
						t.Errorf("scope %q, %s: got rating %+v, want %+v", scope, p.id, got, p.want)
					}
					if rec := [5]int{s.Wins, s.Losses, s.Draws, s.Streak, s.Best}; rec != p.record || s.Games != 1 {
						t.Errorf("scope %q, %s: got %d games, record %v, want 1 game, %v", scope, p.id, s.Games, rec, p.record)
					}
					if s.Rank != 0 || !s.UpdatedAt.Equal(g.FinishedAt) {
						t.Errorf("scope %q, %s: got rank %d, updated %v; want unranked after one game, updated %v", scope, p.id, s.Rank, s.UpdatedAt, g.FinishedAt)
					}
				}
			}
			if tt.scoreA == rating.Draw {
				a, b := standing(t, db, "", "alice"), standing(t, db, "", "bob")
				if a.R != b.R || a.RD != b.RD || a.R != rating.DefaultR {
					t.Errorf("draw between newcomers: got %v ± %v and %v ± %v, want both %v", a.R, a.RD, b.R, b.RD, float64(rating.DefaultR))
				}
			}
			if n := countRows(t, db, "bot_records"); n != 0 {
				t.Errorf("got %d bot records after a game between people, want 0", n)
			}
		})
	}
}

// A rating carries from game to game: the second game is rated from the
// first one's result, and the record and streaks add up.
func testRatingsAccumulate(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	a, b := rating.Default(), rating.Default()
	var history []tttbot.RatingPoint
	for i, tc := range []struct {
		cells  []int
		scoreA float64
	}{{xWins, 1}, {xWins, 1}, {oWins, 0}, {draw, 0.5}, {xWins, 1}, {xWins, 1}, {xWins, 1}} {
		g := finishGame(t, db, fmt.Sprint("c", i), "alice", "bob", tc.cells)
		a, b = rating.UpdatePair(a, b, tc.scoreA, rating.DefaultTau)
		history = append(history, tttbot.RatingPoint{At: g.FinishedAt, R: a.R, RD: a.RD})
	}
	for _, scope := range []string{"guild", ""} {
		want := []tttbot.RatingHistory{{Shape: shape3, Points: history}}
		if diff := gocmp.Diff(want, Must[*tttbot.Stats](t)(db.Stats(t.Context(), scope, "alice")).History); diff != "" {
			t.Errorf("alice's rating history in scope %q (-want +got):\n%s", scope, diff)
		}
	}
	got := standing(t, db, "guild", "alice")
	if r := (rating.Rating{R: got.R, RD: got.RD, Sigma: got.Sigma}); r != a {
		t.Errorf("alice after 7 games: got %+v, want %+v", r, a)
	}
	if got.Games != 7 || got.Wins != 5 || got.Losses != 1 || got.Draws != 1 || got.Streak != 3 || got.Best != 3 {
		t.Errorf("alice: got %+v, want 7 games 5-1-1, streak 3, best 3", got)
	}
	bob := standing(t, db, "guild", "bob")
	if bob.Streak != -3 || bob.Best != 1 || bob.R != b.R {
		t.Errorf("bob: got streak %d best %d rating %v, want -3, 1, %v", bob.Streak, bob.Best, bob.R, b.R)
	}
	if got.Rank != 1 || bob.Rank != 2 {
		t.Errorf("got ranks %d and %d, want 1 and 2", got.Rank, bob.Rank)
	}
	checkCounts(t, db)
}

// A player back from a break is rated as if each ratingPeriod without a
// game had been a rating period without games: their deviation has grown.
func testRatingsAfterBreak(t *testing.T, newDB Opener) {
	for _, tt := range []struct {
		name    string
		brk     time.Duration
		periods int
	}{
		{"six days", 6 * 24 * time.Hour, 0},
		{"ten weeks", 10 * ratingPeriod, 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t, Options{})
			finishGame(t, db, "c1", "alice", "bob", xWins)
			a, b := rating.UpdatePair(rating.Default(), rating.Default(), rating.Win, rating.DefaultTau)

			g := PlayCells(t, db, StartGame(t, db, "c2", "alice", "bob"), xWins[:len(xWins)-2]...)
			// The last move comes after the break, within its turn.
			m := Click(g, g.Turn, xWins[len(xWins)-2])
			m.Deadline = m.At.Add(tt.brk + time.Minute)
			g = Must[*tttbot.Game](t)(db.Play(t.Context(), m, nil))
			m = Click(g, g.Turn, xWins[len(xWins)-1])
			m.At = m.At.Add(tt.brk)
			if g, err := db.Play(t.Context(), m, nil); err != nil || g.Status != tttbot.StatusFinished {
				t.Fatalf("last move: got %v, %v; want the game finished", g, err)
			}
			a, _ = rating.UpdatePair(a.Idle(tt.periods), b.Idle(tt.periods), rating.Win, rating.DefaultTau)
			got := standing(t, db, "guild", "alice")
			if r := (rating.Rating{R: got.R, RD: got.RD, Sigma: got.Sigma}); r != a {
				t.Errorf("alice: got %+v, want %+v", r, a)
			}
		})
	}
}

func testRatedEndings(t *testing.T, newDB Opener) {
	tests := []struct {
		name   string
		finish func(t *testing.T, db *DB, g *tttbot.Game) *tttbot.Game
		loser  string
	}{
		{"timeout", func(t *testing.T, db *DB, g *tttbot.Game) *tttbot.Game {
			// bob, to move, lets his clock run out.
			g = PlayCells(t, db, g, 4)
			return Must[*tttbot.Game](t)(db.Expire(t.Context(), g.ID, g.Version, g.Deadline.Add(tttbot.DeadlineGrace)))
		}, "bob"},
		{"resign", func(t *testing.T, db *DB, g *tttbot.Game) *tttbot.Game {
			return Must[*tttbot.Game](t)(db.Resign(t.Context(), g.ID, "alice", t0, nil))
		}, "alice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t, Options{})
			g := tt.finish(t, db, StartGame(t, db, "c1", "alice", "bob"))
			if g.Status != tttbot.StatusFinished || g.Winner == tt.loser {
				t.Fatalf("got status %s winner %q, want %s to lose", g.Status, g.Winner, tt.loser)
			}
			for _, scope := range []string{"", "guild"} {
				l, w := standing(t, db, scope, tt.loser), standing(t, db, scope, g.Winner)
				if l.Losses != 1 || l.Games != 1 || l.R >= rating.DefaultR || w.Wins != 1 || w.R <= rating.DefaultR {
					t.Errorf("scope %q: got loser %+v, winner %+v; want a rated loss and win", scope, l, w)
				}
			}
		})
	}
}

// Challenges that never became a game and games against the bot leave the
// ratings alone; games against the bot count in the human's record.
func testUnratedGames(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()

	declined := Challenge("c1", "alice", "bob")
	OK(t, db.StartGame(ctx, declined, nil))
	Must[*tttbot.Game](t)(db.Decline(ctx, declined.ID, "bob", declined.Version, t0, nil))
	expired := Challenge("c2", "alice", "bob")
	OK(t, db.StartGame(ctx, expired, nil))
	Must[*tttbot.Game](t)(db.Expire(ctx, expired.ID, expired.Version, expired.Deadline.Add(tttbot.DeadlineGrace)))
	if n := countRows(t, db, "ratings") + countRows(t, db, "bot_records") + countRows(t, db, "results"); n != 0 {
		t.Fatalf("a declined and an expired challenge left %d rows of results, ratings and records", n)
	}

	vsBot := func(level string, cells []int, resign bool) {
		t.Helper()
		g := &tttbot.Game{GuildID: "guild", ChannelID: "c3", Rows: 3, Cols: 3, K: 3, Challenger: "carol", Opponent: "bot",
			BotLevel: level, XPlayer: "carol", OPlayer: "bot", Status: tttbot.StatusActive}
		OK(t, db.StartGame(ctx, g, nil))
		g = PlayCells(t, db, g, cells...)
		if resign {
			g = Must[*tttbot.Game](t)(db.Resign(ctx, g.ID, "carol", t0, nil))
		}
		if g.Status != tttbot.StatusFinished {
			t.Fatalf("bot game did not finish: %s", g.Board)
		}
	}
	vsBot("easy", xWins, false)
	vsBot("easy", xWins, false)
	vsBot("easy", draw, false)
	vsBot("perfect", oWins, false)
	vsBot("perfect", nil, true)
	if n := countRows(t, db, "ratings"); n != 0 {
		t.Errorf("games against the bot left %d ratings, want none", n)
	}
	st := Must[*tttbot.Stats](t)(db.Stats(ctx, "guild", "carol"))
	want := &tttbot.Stats{Player: "carol", VsBot: []tttbot.BotRecord{
		{Level: "easy", Wins: 2, Draws: 1}, {Level: "perfect", Losses: 2},
	}}
	if diff := gocmp.Diff(want, st); diff != "" {
		t.Errorf("carol's stats (-want +got):\n%s", diff)
	}
	if st := Must[*tttbot.Stats](t)(db.Stats(ctx, "guild", "nobody")); len(st.Ratings)+len(st.VsBot) != 0 {
		t.Errorf("stats of a stranger: got %+v, want none", st)
	}
}

// TestRatingExactlyOnce races the events that can end one game — the
// winning move, a resignation by either player, the clock running out — on
// many games: exactly one wins each race, and each game is rated once.
func testRatingExactlyOnce(t *testing.T, newDB Opener) {
	const games = 25
	db := newDB(t, Options{})
	ctx := t.Context()
	var wg sync.WaitGroup
	winners := map[string]int{}
	var mu sync.Mutex
	for i := range games {
		g := PlayCells(t, db, StartGame(t, db, fmt.Sprint("c", i), "alice", "bob"), 0, 3, 1, 4) // alice to win at 2
		var done [4]*tttbot.Game
		var errs [4]error
		enders := []func() (*tttbot.Game, error){
			func() (*tttbot.Game, error) { return db.Play(ctx, Click(g, "alice", 2), nil) },
			func() (*tttbot.Game, error) { return db.Resign(ctx, g.ID, "bob", t0, nil) },
			func() (*tttbot.Game, error) { return db.Resign(ctx, g.ID, "alice", t0, nil) },
			func() (*tttbot.Game, error) {
				return db.Expire(ctx, g.ID, g.Version, g.Deadline.Add(tttbot.DeadlineGrace))
			},
		}
		for j, end := range enders {
			wg.Go(func() { done[j], errs[j] = end() })
		}
		wg.Wait()
		n := 0
		for j := range enders {
			switch code := tttbot.ErrorCode(errs[j]); code {
			case "":
				n++
				mu.Lock()
				winners[done[j].Winner]++
				mu.Unlock()
			case tttbot.EFINISHED, tttbot.ESTALE:
			default:
				t.Errorf("game %d, ender %d: got %v (%s), want success or a refusal", g.ID, j, errs[j], code)
			}
		}
		if n != 1 {
			t.Fatalf("game %d: %d events ended it, want 1", g.ID, n)
		}
	}
	for _, scope := range []string{"", "guild"} {
		a, b := standing(t, db, scope, "alice"), standing(t, db, scope, "bob")
		if a.Games != games || b.Games != games || a.Wins != winners["alice"] || b.Wins != winners["bob"] || a.Wins != b.Losses {
			t.Errorf("scope %q: got alice %d games %d wins, bob %d games %d wins; want %d games each, wins %v",
				scope, a.Games, a.Wins, b.Games, b.Wins, games, winners)
		}
	}
	if n := countRows(t, db, "results"); n != 2*games {
		t.Errorf("got %d results, want %d", n, 2*games)
	}
	checkCounts(t, db)
}

// seedRatings inserts ratings straight into the table: ties, bands' edges,
// negative ratings, players short of the minimum, and rows of another scope
// and shape that must not show.
func seedRatings(t testing.TB, db *DB, players int) {
	t.Helper()
	tx, err := db.SQL.Begin()
	OK(t, err)
	defer tx.Rollback()
	for i := range players {
		id := fmt.Sprintf("p%03d", i)
		_, err := tx.Exec("INSERT INTO players (id, name, updated_at) VALUES ($1, $2, 0)", id, "Player "+id)
		OK(t, err)
		r := 1400 + 16*float64(i%7) // conservative ratings on band edges...
		if i%5 == 0 {
			r += 0.5 // ...and inside bands
		}
		if i%11 == 0 {
			r = -40 // below zero
		}
		rd := 50 + 8*float64(i%3)
		games := 5 + i%4
		if i%6 == 0 {
			games = 4 // not ranked yet
		}
		for _, row := range []struct {
			scope string
			shape tttbot.Shape
		}{{"guild", shape3}, {"other", shape3}, {"guild", tttbot.Shape{Rows: 4, Cols: 4, K: 4}}} {
			_, err := tx.Exec(`INSERT INTO ratings (scope, player_id, board_rows, board_cols, k, rating, rd, sigma,
				games, wins, losses, draws, streak, best_streak, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 0.06, $8, $9, 0, 0, 0, 0, 0)`,
				row.scope, id, row.shape.Rows, row.shape.Cols, row.shape.K, r+float64(len(row.scope)), rd, games, games)
			OK(t, err)
		}
	}
	OK(t, tx.Commit())
}

// ranked is the leaderboard of scope on 3×3 as a sort of its ratings.
func ranked(t testing.TB, db *DB, scope string) []string {
	t.Helper()
	rows, err := db.SQL.Query("SELECT player_id, conservative FROM ratings WHERE scope = $1 AND board_rows = 3 AND games >= 5", scope)
	OK(t, err)
	defer rows.Close()
	type entry struct {
		id string
		c  float64
	}
	var all []entry
	for rows.Next() {
		var e entry
		OK(t, rows.Scan(&e.id, &e.c))
		all = append(all, e)
	}
	slices.SortFunc(all, func(a, b entry) int { return cmp.Or(cmp.Compare(b.c, a.c), strings.Compare(b.id, a.id)) })
	var ids []string
	for _, e := range all {
		ids = append(ids, e.id)
	}
	return ids
}

func testLeaderboardPaging(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	seedRatings(t, db, 90)
	checkCounts(t, db)
	check := func(when string) {
		t.Helper()
		want := ranked(t, db, "guild")
		for _, size := range []int{1, 3, 7, 10, 100} {
			var got []string
			for offset := 0; ; offset += size {
				page := Must[tttbot.LeaderboardPage](t)(db.Leaderboard(ctx, "guild", shape3, offset, size))
				if page.Total != len(want) {
					t.Fatalf("%s: page size %d at %d: got total %d, want %d", when, size, offset, page.Total, len(want))
				}
				for i, s := range page.Standings {
					if s.Rank != offset+i+1 || s.Shape != shape3 || s.Name != "Player "+s.Player || s.Games < tttbot.MinRatedGames {
						t.Fatalf("%s: page size %d at %d, entry %d: got %+v", when, size, offset, i, s)
					}
					got = append(got, s.Player)
				}
				if len(page.Standings) < size {
					break
				}
			}
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: pages of %d (-want +got):\n%s", when, size, diff)
			}
		}
		// Each player's rank in their stats is their place on the board.
		for i, id := range want {
			if got := standing(t, db, "guild", id).Rank; got != i+1 {
				t.Errorf("%s: %s: got rank %d, want %d", when, id, got, i+1)
			}
		}
	}
	check("seeded")

	// Ratings move between bands and in and out of the board; the counts
	// follow.
	for _, q := range []string{
		"UPDATE ratings SET rating = rating + 37.25 WHERE player_id LIKE 'p01%'",
		"UPDATE ratings SET games = games + 1, wins = wins + 1 WHERE games = 4 AND player_id < 'p040'",
		"UPDATE ratings SET rating = rating - 300 WHERE player_id LIKE 'p07%'",
		"DELETE FROM ratings WHERE player_id = 'p005'",
	} {
		_, err := db.SQL.Exec(q)
		OK(t, err)
	}
	checkCounts(t, db)
	check("updated")

	// Past the end, and an empty board.
	page := Must[tttbot.LeaderboardPage](t)(db.Leaderboard(ctx, "guild", shape3, 1000, 10))
	if len(page.Standings) != 0 || page.Total == 0 {
		t.Errorf("past the end: got %d standings of %d, want none of some", len(page.Standings), page.Total)
	}
	page = Must[tttbot.LeaderboardPage](t)(db.Leaderboard(ctx, "nowhere", shape3, 0, 10))
	if len(page.Standings) != 0 || page.Total != 0 {
		t.Errorf("empty board: got %+v", page)
	}
	for _, bad := range []struct {
		shape         tttbot.Shape
		offset, limit int
	}{{tttbot.Shape{Rows: 3, Cols: 3, K: 4}, 0, 10}, {tttbot.Shape{Rows: 6, Cols: 6, K: 4}, 0, 10}, {shape3, -1, 10}, {shape3, 0, 0}} {
		_, err := db.Leaderboard(ctx, "guild", bad.shape, bad.offset, bad.limit)
		WantCode(t, err, tttbot.EINVALID)
	}
}

// Real games feed the board: after enough of them the winners lead.
func testLeaderboardFromGames(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	// alice beats everyone, everyone beats dave, the others draw.
	players := []string{"alice", "bob", "carol", "dave"}
	n := 0
	for range 3 {
		for i, a := range players {
			for _, b := range players[i+1:] {
				cells := draw
				switch {
				case a == "alice", b == "dave":
					cells = xWins
				}
				finishGame(t, db, fmt.Sprint("c", n), a, b, cells)
				n++
			}
		}
	}
	page := Must[tttbot.LeaderboardPage](t)(db.Leaderboard(ctx, "guild", shape3, 0, 10))
	var got []string
	for _, s := range page.Standings {
		got = append(got, s.Player)
	}
	if len(got) != 4 || got[0] != "alice" || got[3] != "dave" {
		t.Errorf("got leaderboard %v, want alice first and dave last", got)
	}
	global := Must[tttbot.LeaderboardPage](t)(db.Leaderboard(ctx, "", shape3, 0, 10))
	if diff := gocmp.Diff(page, global); diff != "" {
		t.Errorf("one guild's games: the global board differs (-guild +global):\n%s", diff)
	}
	checkCounts(t, db)
}

func testHistory(t *testing.T, newDB Opener) {
	c := &clock{t0}
	db := newDB(t, Options{Now: c.Now})
	ctx := t.Context()
	var ids []int64
	for i, cells := range [][]int{xWins, oWins, draw} {
		ids = append(ids, finishGame(t, db, fmt.Sprint("c", i), "alice", "bob", cells).ID)
	}
	// A game in a DM, against the bot, and one in another guild.
	dm := &tttbot.Game{ChannelID: "dm", Rows: 4, Cols: 4, K: 4, Challenger: "alice", Opponent: "bot",
		BotLevel: "easy", XPlayer: "alice", OPlayer: "bot", Status: tttbot.StatusActive}
	OK(t, db.StartGame(ctx, dm, nil))
	Must[*tttbot.Game](t)(db.Resign(ctx, dm.ID, "alice", t0.Add(time.Hour), nil))
	other := Challenge("c9", "alice", "carol")
	other.GuildID = "elsewhere"
	OK(t, db.StartGame(ctx, other, nil))
	other = Must[*tttbot.Game](t)(db.Accept(ctx, tttbot.AcceptRequest{GameID: other.ID, Player: "carol", Version: other.Version, XPlayer: "alice", At: t0, Deadline: t0.Add(time.Minute)}))
	Must[*tttbot.Game](t)(db.Resign(ctx, other.ID, "carol", t0, nil))

	got := Must[[]tttbot.HistoryEntry](t)(db.History(ctx, "alice", "guild", 10))
	at := t0.Add(time.Second)
	want := []tttbot.HistoryEntry{
		{GameID: ids[2], Shape: shape3, Opponent: "bob", Outcome: tttbot.Draw, Reason: tttbot.ReasonDraw, FinishedAt: at},
		{GameID: ids[1], Shape: shape3, Opponent: "bob", Outcome: tttbot.Loss, Reason: tttbot.ReasonLine, FinishedAt: at},
		{GameID: ids[0], Shape: shape3, Opponent: "bob", Outcome: tttbot.Win, Reason: tttbot.ReasonLine, FinishedAt: at},
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("alice's history in the guild (-want +got):\n%s", diff)
	}
	if got := Must[[]tttbot.HistoryEntry](t)(db.History(ctx, "alice", "guild", 2)); len(got) != 2 || got[0].GameID != ids[2] {
		t.Errorf("limit 2: got %+v, want the two newest", got)
	}
	got = Must[[]tttbot.HistoryEntry](t)(db.History(ctx, "alice", "", 10))
	wantDM := []tttbot.HistoryEntry{{GameID: dm.ID, Shape: tttbot.Shape{Rows: 4, Cols: 4, K: 4}, Opponent: "bot", BotLevel: "easy",
		Outcome: tttbot.Loss, Reason: tttbot.ReasonResign, FinishedAt: t0.Add(time.Hour)}}
	if diff := gocmp.Diff(wantDM, got); diff != "" {
		t.Errorf("alice's history in DMs (-want +got):\n%s", diff)
	}
	if got := Must[[]tttbot.HistoryEntry](t)(db.History(ctx, "carol", "guild", 10)); len(got) != 0 {
		t.Errorf("carol played nobody in the guild: got %+v", got)
	}
	_, err := db.History(ctx, "alice", "guild", 0)
	WantCode(t, err, tttbot.EINVALID)
}
