package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/dbcheck"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/pgurl"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/internal/storetest"
)

// newDB opens a store on a schema of its own, closed when t ends.
func newDB(t testing.TB, opts Options) (*DB, string) {
	t.Helper()
	url := pgtest.Store(t)
	db, err := Open(t.Context(), url, opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db, url
}

// TestStore runs the store contract on a schema of its own.
func TestStore(t *testing.T) {
	storetest.Run(t, func(t testing.TB, o storetest.Options) *storetest.DB {
		opts := Options{SimultaneousGames: o.SimultaneousGames, Now: o.Now}
		db, url := newDB(t, opts)
		cfg, err := parse(url)
		if err != nil {
			t.Fatal(err)
		}
		raw := stdlib.OpenDB(*cfg)
		t.Cleanup(func() { raw.Close() })
		return &storetest.DB{
			Store: db,
			SQL:   raw,
			Check: func(ctx context.Context, acked []tttbot.Move) ([]dbcheck.Problem, error) {
				return Check(ctx, url, acked)
			},
			Reopen: func(t testing.TB) storetest.Store {
				db.Close()
				again, err := Open(t.Context(), url, opts)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { again.Close() })
				return again
			},
			Lock:        []string{"BEGIN", "LOCK TABLE games IN ACCESS EXCLUSIVE MODE"},
			LockWaiters: "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'games'::regclass",
		}
	})
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// TestOpenRefusesReadOnly: a database that takes no writes fails the
// probe, so Open refuses it and Ping of a store on it fails.
func TestOpenRefusesReadOnly(t *testing.T) {
	_, url := newDB(t, Options{})
	ro := url + "&default_transaction_read_only=on"
	_, err := Open(t.Context(), ro, Options{})
	if err == nil || !strings.Contains(err.Error(), "write probe") {
		t.Errorf("open a read-only database: got %v, want a failed write probe", err)
	}
}

// TestOpenHidesPassword: errors name the database without its password.
func TestOpenHidesPassword(t *testing.T) {
	for _, url := range []string{
		"postgres://tttbot:hunter2@127.0.0.1:1/tttbot?connect_timeout=1",
		"postgres://tttbot:hunter2@127.0.0.1:1/tttbot?pool_max_conns=many",
		"postgres://tttbot@127.0.0.1:1/tttbot?connect_timeout=1&sslmode=disable&sslpassword=hunter2",
		"host=127.0.0.1 password=hunter2 port=notaport",
	} {
		_, err := Open(t.Context(), url, Options{})
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("open %s: got %v, want an error without the password", pgurl.Redact(url), err)
		}
	}
}

// TestMigrations goes all the way down and up again: every migration's
// Down undoes its Up.
func TestMigrations(t *testing.T) {
	url := pgtest.URL(t)
	applied, err := MigrateUp(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	st, err := MigrationStatus(t.Context(), url)
	if err != nil || st.Current != st.Latest || len(applied) != len(st.Migrations) {
		t.Fatalf("after up: got %+v, %v; want every migration applied", st, err)
	}
	for range applied {
		if _, err := MigrateDown(t.Context(), url); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := MigrationStatus(t.Context(), url); err != nil || st.Current != 0 {
		t.Fatalf("after down: got version %d, %v; want 0", st.Current, err)
	}
	if _, err := MigrateDown(t.Context(), url); err == nil {
		t.Error("down from nothing: got no error")
	}
	db, err := Open(t.Context(), url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
}

// TestQueryPlans checks that the lookups of every command, timer tick,
// leaderboard and stats can read an index rather than scan a table. The
// tables are empty, so the planner is told to avoid scans where it can,
// and which of two fitting indexes it picks says little: BenchmarkRatings
// times the reads at 100,000 players.
func TestQueryPlans(t *testing.T) {
	_, url := newDB(t, Options{})
	cfg, err := parse(url)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pgx.ConnectConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if _, err := c.Exec(t.Context(), "SET enable_seqscan = off"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		args        []any
		want        []string
	}{
		{"open game", gamerow.QueryOpenGame, []any{"c", "u"}, []string{"games_open_by_"}},
		{"player busy", gamerow.QueryPlayerBusy, []any{"c", 1, "a", "b"}, []string{"games_open_by_"}},
		{"channel busy", gamerow.QueryChannelBusy, []any{"c", 1}, []string{"games_open_by_"}},
		{"due", queryDue, []any{0, 10, 0, 0}, []string{"games_open_by_deadline"}},
		{"last game started", gamerow.QueryLastStart, []any{"u", "g"}, []string{"games_by_challenger"}},
		{"a change's settings", queryChangeSettings, []any{1}, []string{"guilds_pkey", "games_pkey"}},
		{"prune interactions", gamerow.QueryPruneInteractions, []any{10, 0}, []string{"interactions_pkey"}},
		{"leaderboard", queryLeaderboardPage, []any{"g", 3, 3, 3, int64(0), 10}, []string{"rating_counts_pkey", "ratings_ranked"}},
		{"stats", gamerow.QueryStats, []any{"g", "a"}, []string{"ratings_pkey", "rating_counts_pkey"}},
		{"history", gamerow.QueryHistory, []any{"a", "g", 10}, []string{"on results r"}},
		{"history in DMs", gamerow.QueryHistoryDM, []any{"a", 10}, []string{"on results r"}},
	}
	for _, tt := range tests {
		rows, err := c.Query(t.Context(), "EXPLAIN "+tt.query, tt.args...)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		for _, w := range tt.want {
			if !strings.Contains(plan, w) {
				t.Errorf("%s: plan lacks %s:\n%s", tt.name, w, plan)
			}
		}
		for _, table := range []string{"games", "results", "ratings", "interactions"} {
			if strings.Contains(plan, "Seq Scan on "+table) {
				t.Errorf("%s: plan scans %s:\n%s", tt.name, table, plan)
			}
		}
	}
}

// TestChannelTaken: the schema's refusal of a second exclusive open game
// in a channel reads as the channel being busy.
func TestChannelTaken(t *testing.T) {
	db, _ := newDB(t, Options{})
	g := &tttbot.Game{GuildID: "guild", ChannelID: "c1", Rows: 3, Cols: 3, K: 3,
		Challenger: "alice", Opponent: "bob", Status: tttbot.StatusPending, Deadline: t0.Add(time.Minute)}
	if err := db.StartGame(t.Context(), g, nil); err != nil {
		t.Fatal(err)
	}
	_, err := db.pool.Exec(t.Context(), `INSERT INTO games (guild_id, channel_id, board_rows, board_cols, k, challenger_id, opponent_id,
		status, board, version, created_at, updated_at, exclusive)
		VALUES ('guild', 'c1', 3, 3, 3, 'alice', 'bob', 'pending', '.../.../...', 1, 0, 0, true)`)
	if !channelTaken(err) {
		t.Errorf("got %v, want it read as the channel taken", err)
	}
}
