package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/internal/storetest"
)

// openBench opens a store on a schema of its own with durable commits, as
// a deployed bot's.
func openBench(b *testing.B, opts Options) (*DB, string) {
	b.Helper()
	url := pgtest.Durable(b, pgtest.URL(b))
	db, err := Open(b.Context(), url, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db, url
}

// BenchmarkMove measures a click's move, recorded interaction included,
// from 1 and from 16 goroutines: two round trips each, on the pool's
// connections (pool_max_conns, by default the greater of 4 and the CPUs).
func BenchmarkMove(b *testing.B) {
	storetest.BenchmarkMove(b, func(b *testing.B) tttbot.GameStore {
		db, _ := openBench(b, Options{SimultaneousGames: true})
		return db
	})
}

// fixture is what the benchmarks need to know of the large database.
type fixture struct {
	db      *DB
	url     string   // the database's
	players []string // by leaderboard rank on 3×3 in the guild, best first
}

// buildFixture writes storetest.FixturePlayers players and storetest.FixtureGames finished
// games with their results, 5% against the bot, on the server itself with
// generate_series: 70% of games on 3×3, 20% on 4×4, 10% on 5×5. Ratings
// are drawn rather than played out — each player's strength spreads them
// as in life — since what is measured reads them, not how they came about;
// the leaderboards' bands are counted once, after, rather than by the
// trigger row by row. The secondary indexes are built after the rows.
func buildFixture(b *testing.B) fixture {
	b.Helper()
	start := time.Now()
	db, url := openBench(b, Options{})
	cfg, err := parse(url)
	if err != nil {
		b.Fatal(err)
	}
	c, err := pgx.ConnectConfig(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(context.Background())
	steps := fixtureSteps()
	for _, q := range steps {
		if _, err := c.Exec(b.Context(), q); err != nil {
			b.Fatalf("%.60s: %v", q, err)
		}
	}
	rows, err := c.Query(b.Context(), `SELECT player_id FROM ratings WHERE scope = $1 AND board_rows = 3 AND board_cols = 3 AND k = 3
		AND games >= 5 ORDER BY conservative DESC, player_id DESC`, storetest.FixtureGuild)
	if err != nil {
		b.Fatal(err)
	}
	players, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("fixture: %d players, %d games, %d ranked on 3×3, built in %v",
		storetest.FixturePlayers, storetest.FixtureGames, len(players), time.Since(start).Round(time.Millisecond))
	return fixture{db: db, url: url, players: players}
}

// BenchmarkRatings measures what players wait for with 100,000 players and
// 1,000,000 finished games in the database, as internal/sqlite's: a
// leaderboard page (first, middle, last), a player's stats (best, median,
// last ranked), a history. The fixture takes a while to build: -short
// skips it.
func BenchmarkRatings(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a database of 1,000,000 games; run without -short")
	}
	fx := buildFixture(b)
	storetest.BenchmarkRatingReads(b, fx.db, storetest.FixtureGuild, fx.players)
}

// fixtureSteps are the statements that build the fixture in an empty,
// migrated schema.
func fixtureSteps() []string {
	return []string{
		`SET synchronous_commit = off`,
		`SET maintenance_work_mem = '256MB'`,
		`ALTER TABLE ratings DISABLE TRIGGER ratings_count`,
		`DROP INDEX games_open_by_challenger, games_open_by_opponent, games_open_by_deadline,
			results_by_guild, results_by_player, results_history, ratings_ranked`,
		`INSERT INTO guilds (id, updated_at) VALUES ('guild', 0)`,
		`INSERT INTO players (id, name, updated_at) VALUES ('bot', 'tttbot', 0)`,
		`CREATE TEMP TABLE strength AS SELECT i, (100000000000000000 + i)::text AS id,
			1500 + 250 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS s
			FROM generate_series(0, 99999) i`,
		`INSERT INTO players (id, name, updated_at) SELECT id, 'player ' || i, 0 FROM strength`,
		// Each game: a shape, a player a, and an opponent b or the bot.
		`CREATE TEMP TABLE g AS SELECT n AS id,
			CASE WHEN r < 70 THEN 3 WHEN r < 90 THEN 4 ELSE 5 END AS sz,
			CASE WHEN r < 90 THEN 3 ELSE 4 END AS k,
			(random() * 99999)::int AS a, (random() * 99999)::int AS b, random() < 0.05 AS vs_bot, random() AS u
			FROM (SELECT n, (random() * 100)::int AS r FROM generate_series(1, 1000000) n) x`,
		`INSERT INTO games (id, guild_id, channel_id, board_rows, board_cols, k, challenger_id, opponent_id,
			bot_level, x_player_id, o_player_id, status, board, version, winner_id, reason, created_at, updated_at, finished_at)
			SELECT g.id, 'guild', 'c', sz, sz, g.k, sa.id, CASE WHEN vs_bot THEN 'bot' ELSE sb.id END,
				CASE WHEN vs_bot THEN (ARRAY['easy', 'medium', 'hard', 'perfect'])[1 + g.id % 4] END,
				sa.id, CASE WHEN vs_bot THEN 'bot' ELSE sb.id END, 'finished',
				array_to_string(array_fill(repeat('.', sz), ARRAY[sz]), '/'), 10,
				CASE WHEN u < 0.15 THEN NULL WHEN u < 0.15 + 0.85 / (1 + power(10, (sb.s - sa.s) / 400)) THEN sa.id
					WHEN vs_bot THEN 'bot' ELSE sb.id END,
				CASE WHEN u < 0.15 THEN 'draw' ELSE 'line' END,
				1740830400000 + g.id * 1000, 1740830400000 + g.id * 1000, 1740830400000 + g.id * 1000
			FROM g JOIN strength sa ON sa.i = g.a JOIN strength sb ON sb.i = CASE WHEN g.b = g.a THEN (g.a + 1) % 100000 ELSE g.b END`,
		`INSERT INTO results (game_id, player_id, opponent_id, guild_id, outcome, reason, bot_level, finished_at)
			SELECT id, p, o, guild_id, CASE WHEN winner_id IS NULL THEN 'draw' WHEN winner_id = p THEN 'win' ELSE 'loss' END,
				reason, bot_level, finished_at
			FROM games, LATERAL (VALUES (challenger_id, opponent_id), (opponent_id, challenger_id)) AS side(p, o)
			WHERE p <> 'bot'`,
		`SELECT setval(pg_get_serial_sequence('games', 'id'), 1000000)`,
		// Ratings from each player's record in each shape: the stronger,
		// the higher, and the surer the more games.
		`INSERT INTO ratings (scope, player_id, board_rows, board_cols, k, rating, rd, sigma,
			games, wins, losses, draws, streak, best_streak, updated_at)
			SELECT scope, r.player_id, g.board_rows, g.board_cols, g.k,
				s.s + 100 * (random() - 0.5), greatest(45, 350 / sqrt(count(*))), 0.06,
				count(*), count(*) FILTER (WHERE outcome = 'win'), count(*) FILTER (WHERE outcome = 'loss'),
				count(*) FILTER (WHERE outcome = 'draw'), 0, 0, 0
			FROM results r JOIN games g ON g.id = r.game_id JOIN strength s ON s.id = r.player_id,
				(VALUES (''), ('guild')) AS scopes(scope)
			WHERE r.bot_level IS NULL
			GROUP BY scope, r.player_id, g.board_rows, g.board_cols, g.k, s.s`,
		`INSERT INTO bot_records (player_id, bot_level, wins, losses, draws, updated_at)
			SELECT player_id, bot_level, count(*) FILTER (WHERE outcome = 'win'), count(*) FILTER (WHERE outcome = 'loss'),
				count(*) FILTER (WHERE outcome = 'draw'), 0
			FROM results WHERE bot_level IS NOT NULL GROUP BY player_id, bot_level`,
		`INSERT INTO rating_counts SELECT scope, board_rows, board_cols, k, band, count(*)
			FROM ratings WHERE games >= 5 GROUP BY scope, board_rows, board_cols, k, band`,
		`ALTER TABLE ratings ENABLE TRIGGER ratings_count`,
		`CREATE INDEX games_open_by_challenger ON games (channel_id, challenger_id) WHERE status IN ('pending', 'active')`,
		`CREATE INDEX games_open_by_opponent ON games (channel_id, opponent_id) WHERE status IN ('pending', 'active')`,
		`CREATE INDEX games_open_by_deadline ON games (deadline) WHERE status IN ('pending', 'active')`,
		`CREATE INDEX results_by_guild ON results (guild_id, player_id, outcome)`,
		`CREATE INDEX results_by_player ON results (player_id, finished_at)`,
		`CREATE INDEX results_history ON results (player_id, guild_id, finished_at)`,
		`CREATE INDEX ratings_ranked ON ratings (scope, board_rows, board_cols, k, conservative, player_id) WHERE games >= 5`,
		`VACUUM ANALYZE`,
	}
}

// BenchmarkNextPuzzle measures choosing a puzzle among 100,000 (see
// storetest.BenchmarkNextPuzzle).
func BenchmarkNextPuzzle(b *testing.B) {
	db, url := openBench(b, Options{})
	cfg, err := parse(url)
	if err != nil {
		b.Fatal(err)
	}
	raw := stdlib.OpenDB(*cfg)
	b.Cleanup(func() { raw.Close() })
	storetest.BenchmarkNextPuzzle(b, db, raw, "VACUUM ANALYZE puzzles", "VACUUM ANALYZE puzzle_attempts")
}
