package sqlite

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/rating"
	"github.com/tttbot/tttbot/internal/storetest"
)

// fixture is what the benchmarks need to know of the large database.
type fixture struct {
	db      *DB
	players []string // by leaderboard rank on 3×3 in the guild, best first
}

// fixtureShapes are the boards the fixture's games are played on, with
// their share of the games in percent.
var fixtureShapes = []struct {
	shape tttbot.Shape
	share int
}{{shape3, 70}, {tttbot.Shape{Rows: 4, Cols: 4, K: 4}, 20}, {tttbot.Shape{Rows: 5, Cols: 5, K: 4}, 10}}

// buildFixture writes a database of storetest.FixturePlayers players and
// storetest.FixtureGames finished games, 5% of them against the bot, and the ratings
// and records they lead to, computed with internal/rating as the store
// would. Players have a hidden strength that decides their games, so the
// ratings spread as in life. The games have no moves: nothing measured here
// reads them.
//
// It writes through a connection of its own, without a journal, in one
// transaction with prepared statements, then opens the file as the bot does.
func buildFixture(b *testing.B) fixture {
	b.Helper()
	start := time.Now()
	path := filepath.Join(b.TempDir(), "large.db")
	if _, err := MigrateUp(b.Context(), path); err != nil {
		b.Fatal(err)
	}
	c, err := sql.Open("sqlite3", dsn(path, map[string]string{
		"_journal_mode": "OFF", "_synchronous": "OFF", "_foreign_keys": "0", "_cache_size": "-524288"}))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	c.SetMaxOpenConns(1)
	tx, err := c.Begin()
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	exec := func(q string, args ...any) {
		if _, err := tx.Exec(q, args...); err != nil {
			b.Fatalf("%s: %v", q, err)
		}
	}
	prepare := func(q string) *sql.Stmt {
		s, err := tx.Prepare(q)
		if err != nil {
			b.Fatalf("%s: %v", q, err)
		}
		return s
	}

	// Secondary indexes are built after the rows, in one sort each, rather
	// than row by row at random places.
	var indexes []string
	rows, err := tx.Query("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL")
	if err != nil {
		b.Fatal(err)
	}
	var names []string
	for rows.Next() {
		var name, q string
		if err := rows.Scan(&name, &q); err != nil {
			b.Fatal(err)
		}
		names, indexes = append(names, name), append(indexes, q)
	}
	rows.Close()
	for _, name := range names {
		exec("DROP INDEX " + name)
	}

	rng := rand.New(rand.NewPCG(7, 11))
	ids := make([]string, storetest.FixturePlayers)
	strength := make([]float64, storetest.FixturePlayers)
	exec("INSERT INTO guilds (id, updated_at) VALUES (?, 0)", storetest.FixtureGuild)
	exec("INSERT INTO players (id, name, updated_at) VALUES ('bot', 'tttbot', 0)")
	insPlayer := prepare("INSERT INTO players (id, name, updated_at) VALUES (?, ?, 0)")
	for i := range ids {
		ids[i] = fmt.Sprint(100_000_000_000_000_000 + i) // snowflake-sized
		strength[i] = 1500 + 250*rng.NormFloat64()
		if _, err := insPlayer.Exec(ids[i], fmt.Sprint("player ", i)); err != nil {
			b.Fatal(err)
		}
	}

	type key struct {
		player int
		shape  tttbot.Shape
	}
	// A player's rating and record on one shape, as the store keeps them.
	type record struct {
		rating.Rating
		tttbot.Standing
	}
	recs := map[key]*record{}
	bots := map[[2]string]*[3]int{}
	insGame := prepare(`INSERT INTO games (id, guild_id, channel_id, board_rows, board_cols, k, challenger_id, opponent_id,
		bot_level, x_player_id, o_player_id, status, board, version, winner_id, reason, created_at, updated_at, finished_at)
		VALUES (?1, ?2, 'c', ?3, ?4, ?5, ?6, ?7, ?8, ?6, ?7, 'finished', ?9, 10, ?10, ?11, ?12, ?12, ?12)`)
	insResults := prepare(`INSERT INTO results (game_id, player_id, opponent_id, guild_id, outcome, reason, bot_level, finished_at)
		VALUES (?1, ?2, ?3, ?4, ?5, ?7, ?8, ?9), (?1, ?3, ?2, ?4, ?6, ?7, ?8, ?9)`)
	levels := []string{"easy", "medium", "hard", "perfect"}
	t0ms := t0.UnixMilli()
	for id := int64(1); id <= storetest.FixtureGames; id++ {
		roll := rng.IntN(100)
		sh := fixtureShapes[0].shape
		for acc, i := 0, 0; i < len(fixtureShapes); i++ {
			if acc += fixtureShapes[i].share; roll < acc {
				sh = fixtureShapes[i].shape
				break
			}
		}
		board := strings.Repeat(strings.Repeat(".", sh.Cols)+"/", sh.Rows)
		board = board[:len(board)-1]
		at := t0ms + id*1000
		a := rng.IntN(storetest.FixturePlayers)
		var level, winner, reason, oa, ob string
		var bi int
		if rng.IntN(100) < 5 {
			level = levels[rng.IntN(len(levels))]
			oa, ob = "loss", "win"
			if rng.IntN(4) == 0 {
				oa, ob = "draw", "draw"
			}
		} else {
			for bi = rng.IntN(storetest.FixturePlayers); bi == a; bi = rng.IntN(storetest.FixturePlayers) {
			}
			pa := 1 / (1 + math.Pow(10, (strength[bi]-strength[a])/400))
			switch u := rng.Float64(); {
			case u < 0.15:
				oa, ob = "draw", "draw"
			case u < 0.15+0.85*pa:
				oa, ob = "win", "loss"
			default:
				oa, ob = "loss", "win"
			}
		}
		pb := "bot"
		if level == "" {
			pb = ids[bi]
		}
		switch {
		case oa == "win":
			winner, reason = ids[a], "line"
		case ob == "win":
			winner, reason = pb, "line"
		default:
			reason = "draw"
		}
		if _, err := insGame.Exec(id, storetest.FixtureGuild, sh.Rows, sh.Cols, sh.K, ids[a], pb, gamerow.NullString(level), board,
			gamerow.NullString(winner), reason, at); err != nil {
			b.Fatal(err)
		}
		if _, err := insResults.Exec(id, ids[a], pb, storetest.FixtureGuild, oa, ob, reason, gamerow.NullString(level), at); err != nil {
			b.Fatal(err)
		}
		if level != "" {
			r := bots[[2]string{ids[a], level}]
			if r == nil {
				r = new([3]int)
				bots[[2]string{ids[a], level}] = r
			}
			r[slices.Index([]string{"win", "loss", "draw"}, oa)]++
			continue
		}
		ra, rb := recs[key{a, sh}], recs[key{bi, sh}]
		if ra == nil {
			ra = &record{Rating: rating.Default()}
			recs[key{a, sh}] = ra
		}
		if rb == nil {
			rb = &record{Rating: rating.Default()}
			recs[key{bi, sh}] = rb
		}
		score := map[string]float64{"win": 1, "loss": 0, "draw": 0.5}[oa]
		ra.Rating, rb.Rating = rating.UpdatePair(ra.Rating, rb.Rating, score, rating.DefaultTau)
		ra.Count(tttbot.Outcome(oa))
		rb.Count(tttbot.Outcome(ob))
	}

	insRating := prepare(`INSERT INTO ratings (scope, player_id, board_rows, board_cols, k, rating, rd, sigma,
		games, wins, losses, draws, streak, best_streak, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	for k, r := range recs {
		for _, scope := range []string{"", storetest.FixtureGuild} {
			if _, err := insRating.Exec(scope, ids[k.player], k.shape.Rows, k.shape.Cols, k.shape.K, r.Rating.R, r.Rating.RD, r.Rating.Sigma,
				r.Games, r.Wins, r.Losses, r.Draws, r.Streak, r.Best, t0ms); err != nil {
				b.Fatal(err)
			}
		}
	}
	insBot := prepare("INSERT INTO bot_records (player_id, bot_level, wins, losses, draws, updated_at) VALUES (?, ?, ?, ?, ?, 0)")
	for k, r := range bots {
		if _, err := insBot.Exec(k[0], k[1], r[0], r[1], r[2]); err != nil {
			b.Fatal(err)
		}
	}
	seeded := time.Since(start)
	for _, q := range indexes {
		exec(q)
	}
	exec("ANALYZE")
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}

	db, err := Open(b.Context(), path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	fx := fixture{db: db}
	rows, err = db.r.Query(`SELECT player_id FROM ratings WHERE scope = ? AND board_rows = 3 AND board_cols = 3 AND k = 3
		AND games >= 5 ORDER BY conservative DESC, player_id DESC`, storetest.FixtureGuild)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			b.Fatal(err)
		}
		fx.players = append(fx.players, id)
	}
	b.Logf("fixture: %d players, %d games, %d ranked on 3×3; rows in %v, built in %v",
		storetest.FixturePlayers, storetest.FixtureGames, len(fx.players), seeded.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return fx
}

// BenchmarkRatings measures what players wait for with 100,000 players and
// 1,000,000 finished games in the database: a leaderboard page (first,
// middle, last), the stats of a player (best, median, last ranked: a rank is
// a count of those ahead), a history, and finishing a game between two rated
// players, rating update included. The fixture takes a while to build: -short
// skips it (BenchmarkFinishGame measures finishing on a small database).
func BenchmarkRatings(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a database of 1,000,000 games; run without -short")
	}
	fx := buildFixture(b)
	storetest.BenchmarkRatingReads(b, fx.db, storetest.FixtureGuild, fx.players)
}

// BenchmarkFinishGame measures the transaction that ends a game — here a
// resignation — on a small database: between two people it writes the
// results and four ratings (the guild's and the global), against the bot
// the results and a record.
func BenchmarkFinishGame(b *testing.B) {
	for _, level := range []string{"", "easy"} {
		name := "rated"
		if level != "" {
			name = "vs-bot"
		}
		b.Run(name, func(b *testing.B) {
			db, _ := newDB(b, Options{SimultaneousGames: true})
			storetest.BenchmarkFinish(b, db, storetest.FixtureGuild, []string{"alice", "bob", "carol", "dave"}, level)
		})
	}
}

// BenchmarkNextPuzzle measures choosing a puzzle among 100,000 (see
// storetest.BenchmarkNextPuzzle).
func BenchmarkNextPuzzle(b *testing.B) {
	db, path := newDB(b, Options{})
	raw, err := sql.Open("sqlite3", dsn(path, nil))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { raw.Close() })
	storetest.BenchmarkNextPuzzle(b, db, raw, "ANALYZE")
}
