package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/dbcheck"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/storetest"
)

// TestStore runs the store contract on a database in t.TempDir().
func TestStore(t *testing.T) {
	storetest.Run(t, func(t testing.TB, o storetest.Options) *storetest.DB {
		opts := Options{SimultaneousGames: o.SimultaneousGames, Now: o.Now}
		db, path := newDB(t, opts)
		raw, err := sql.Open("sqlite3", dsn(path, nil))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { raw.Close() })
		return &storetest.DB{
			Store: db,
			SQL:   raw,
			Check: func(ctx context.Context, acked []tttbot.Move) ([]dbcheck.Problem, error) {
				return Check(ctx, path, acked)
			},
			Reopen: func(t testing.TB) storetest.Store {
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
				again, err := Open(t.Context(), path, opts)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { again.Close() })
				return again
			},
			Lock: []string{"BEGIN EXCLUSIVE"},
		}
	})
}

// TestQueryPlans checks that the lookups the bot makes on every command and
// timer tick, and the leaderboard and history queries the results table is
// for, read an index rather than scanning a table.
func TestQueryPlans(t *testing.T) {
	db, _ := newDB(t, Options{})
	tests := []struct {
		name, query string
		args        []any
		index       string
	}{
		{"open game", gamerow.QueryOpenGame, []any{"c", "u"},
			"games_open_by_challenger (channel_id=? AND challenger_id=?)"},
		{"open game", gamerow.QueryOpenGame, []any{"c", "u"},
			"games_open_by_opponent (channel_id=? AND opponent_id=?)"},
		{"player busy", gamerow.QueryPlayerBusy, []any{"c", 1, "a", "b"}, "games_open_by_"},
		{"channel busy", gamerow.QueryChannelBusy, []any{"c", 1}, "games_open_by_"},
		{"due", queryDueGames, []any{0, 10, 0, 0}, "games_open_by_deadline"},
		{"last game started", gamerow.QueryLastStart, []any{"u", "g"}, "COVERING INDEX games_by_challenger"},
		{"leaderboard", `SELECT player_id, count(*) FILTER (WHERE outcome = 'win') AS wins, count(*)
			FROM results WHERE guild_id = ? GROUP BY player_id ORDER BY wins DESC LIMIT 10`,
			[]any{"g"}, "COVERING INDEX results_by_guild"},
		{"history", `SELECT game_id, outcome FROM results WHERE player_id = ?
			ORDER BY finished_at DESC LIMIT 20`, []any{"u"}, "results_by_player"},
		{"replay", `SELECT ply, cell FROM moves WHERE game_id = ? ORDER BY ply`, []any{1}, "PRIMARY KEY"},
		{"prune interactions", gamerow.QueryPruneInteractions, []any{10, 0}, "SCAN interactions"},
	}
	for _, tt := range tests {
		text := queryPlan(t, db, tt.query, tt.args...)
		t.Logf("%s: %s", tt.name, text)
		if !strings.Contains(text, tt.index) || strings.Contains(text, "SCAN games") ||
			strings.Contains(text, "SCAN results") || strings.Contains(text, "TEMP B-TREE") && tt.name != "leaderboard" {
			t.Errorf("%s: plan %q does not use %s", tt.name, text, tt.index)
		}
	}
}

// TestRatingQueryPlans checks that what a player waits for reads an index:
// a leaderboard page, a rank, a history.
func TestRatingQueryPlans(t *testing.T) {
	db, _ := newDB(t, Options{})
	tests := []struct {
		name, query string
		args        []any
		want        []string
	}{
		{"pair", queryRatingPair, []any{"g", "a", "b", 3, 3, 3}, []string{
			"SEARCH ratings USING INDEX sqlite_autoindex_ratings_1 (scope=? AND player_id=? AND board_rows=? AND board_cols=? AND k=?)"}},
		{"band", queryLeaderboardBand, []any{"g", 3, 3, 3, 0}, []string{"SEARCH rating_counts USING PRIMARY KEY"}},
		{"page", queryLeaderboardPage, []any{"g", 3, 3, 3, 1600.0, 10, 0}, []string{
			"SEARCH ratings USING INDEX ratings_ranked (scope=? AND board_rows=? AND board_cols=? AND k=? AND conservative<?)",
			"SEARCH r USING INDEX sqlite_autoindex_ratings_1", "SEARCH p USING INDEX sqlite_autoindex_players_1"}},
		{"stats", gamerow.QueryStats, []any{"g", "a"}, []string{
			"SEARCH r USING INDEX sqlite_autoindex_ratings_1 (scope=? AND player_id=?)",
			"SEARCH c USING PRIMARY KEY (scope=? AND board_rows=? AND board_cols=? AND k=? AND band>?)",
			"SEARCH o USING INDEX ratings_ranked (scope=? AND board_rows=? AND board_cols=? AND k=? AND conservative>? AND conservative<?)"}},
		{"bot records", gamerow.QueryBotRecords, []any{"a"}, []string{"SEARCH bot_records USING PRIMARY KEY (player_id=?)"}},
		{"history", gamerow.QueryHistory, []any{"a", "g", 10}, []string{"SEARCH r USING INDEX results_history (player_id=? AND guild_id=?)", "SEARCH g USING INTEGER PRIMARY KEY"}},
		{"history in DMs", gamerow.QueryHistoryDM, []any{"a", 10}, []string{"SEARCH r USING INDEX results_history (player_id=? AND guild_id=?)"}},
	}
	for _, tt := range tests {
		text := queryPlan(t, db, tt.query, tt.args...)
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: plan %q lacks %q", tt.name, text, w)
			}
		}
		if strings.Contains(text, "SCAN ratings") || strings.Contains(text, "SCAN results") || strings.Contains(text, "SCAN rating_counts") {
			t.Errorf("%s: plan %q scans a table", tt.name, text)
		}
	}
}

func TestCheckMissingDatabase(t *testing.T) {
	if _, err := Check(t.Context(), t.TempDir()+"/none.db", nil); err == nil {
		t.Fatal("got no error for a missing database")
	}
}

// TestCheckFindsOrphans: SQLite enforces foreign keys only on connections
// that ask, so a row may refer to nothing; Check says so.
func TestCheckFindsOrphans(t *testing.T) {
	db, path := newDB(t, Options{})
	storetest.StartGame(t, db, "c1", "a", "b")
	if _, err := db.w.Exec("PRAGMA foreign_keys = OFF; INSERT INTO moves VALUES (999, 1, 0, 'a', 0); PRAGMA foreign_keys = ON"); err != nil {
		t.Fatal(err)
	}
	problems, err := Check(t.Context(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "a row of moves refers to a row of games that does not exist"
	if len(problems) == 0 || !strings.Contains(problems[0].String(), want) {
		t.Errorf("got problems %v, want %q first", problems, want)
	}
}

var shape3 = tttbot.Shape{Rows: 3, Cols: 3, K: 3}

// TestChannelTaken: the schema's refusal of a second exclusive open game
// in a channel reads as the channel being busy.
func TestChannelTaken(t *testing.T) {
	db, _ := newDB(t, Options{})
	storetest.StartGame(t, db, "c1", "alice", "bob")
	_, err := db.w.Exec(`INSERT INTO games (guild_id, channel_id, board_rows, board_cols, k, challenger_id, opponent_id,
		status, board, version, created_at, updated_at, exclusive)
		VALUES ('guild', 'c1', 3, 3, 3, 'alice', 'bob', 'pending', '.../.../...', 1, 0, 0, 1)`)
	if !channelTaken(err) {
		t.Errorf("got %v, want it read as the channel taken", err)
	}
	if channelTaken(errors.New("UNIQUE constraint failed: games.channel_id")) {
		t.Error("got a plain error read as the channel taken")
	}
}

// TestNoTemporaryTables: the statements of a click and of a game's start
// and end open no temporary table (OpenEphemeral), which SQLite gives a
// page cache of its own, allocated and freed per statement: RETURNING,
// "x IN (list)" on an index or in a CHECK of three values or more, and a
// multi-row upsert each open one.
func TestNoTemporaryTables(t *testing.T) {
	db, _ := newDB(t, Options{})
	at := time.UnixMilli(1)
	changed, _ := updateQuery(&tttbot.Game{}, &tttbot.Game{
		XPlayer: "a", OPlayer: "b", Status: tttbot.StatusFinished, Board: "XXX/.../...", Turn: "a",
		Deadline: at, Winner: "a", Reason: tttbot.ReasonLine, FinishedAt: at, MessageID: "m",
		Token: tttbot.Token{Value: "t", Expires: at},
	}, new(time.Duration))
	tests := []struct{ name, query string }{
		{"game", gamerow.QueryGame},
		{"game to change", queryGameToChange},
		{"open game", gamerow.QueryOpenGame},
		{"player busy", gamerow.QueryPlayerBusy},
		{"channel busy", gamerow.QueryChannelBusy},
		{"turn timeout", queryTurnTimeout},
		{"add guild", queryAddGuild},
		{"save player", gamerow.QuerySavePlayer},
		{"rename player", gamerow.QueryRenamePlayer},
		{"insert game", gamerow.QueryInsertGame},
		{"update game", changed},
		{"insert move", gamerow.QueryInsertMove},
		{"results", gamerow.QueryInsertResults},
		{"rating pair", queryRatingPair},
		{"save rating", querySaveRating},
		{"rating history", gamerow.QueryAddRatingHistory},
		{"bot record", gamerow.QueryBotRecord},
		{"interaction", querySeen},
	}
	for _, tt := range tests {
		if slices.Contains(opcodes(t, db, tt.query), "OpenEphemeral") {
			t.Errorf("%s: %q opens a temporary table", tt.name, tt.query)
		}
	}
	if !slices.Contains(opcodes(t, db, changed+" RETURNING id"), "OpenEphemeral") {
		t.Error("RETURNING opens no temporary table: the test cannot tell")
	}
}

// opcodes lists the opcodes of query's program, as EXPLAIN gives them.
func opcodes(t *testing.T, db *DB, query string) []string {
	t.Helper()
	conn, err := db.r.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var ops []string
	err = conn.Raw(func(dc any) error {
		st, err := dc.(*sqlite3.SQLiteConn).Prepare("EXPLAIN " + query)
		if err != nil {
			return err
		}
		defer st.Close()
		rows, err := st.Query(make([]driver.Value, st.NumInput())) //nolint:staticcheck // the driver's own API
		if err != nil {
			return err
		}
		defer rows.Close()
		row := make([]driver.Value, len(rows.Columns()))
		for rows.Next(row) == nil {
			ops = append(ops, fmt.Sprint(row[1]))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("explain %q: %v", query, err)
	}
	return ops
}
