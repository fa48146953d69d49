package storetest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
)

// checkGames fills a database with a game in each state and returns it, the
// ID of a game "a" won against "b" on a line, the ID of an active game
// against the bot, and the moves of the won game.
func checkGames(t *testing.T, newDB Opener) (db *DB, won, vsBot int64, acked []tttbot.Move) {
	db = newDB(t, Options{SimultaneousGames: true})
	g := PlayCells(t, db, StartGame(t, db, "c1", "a", "b"), 0, 3, 1, 4, 2)
	won = g.ID
	acked = Must[[]tttbot.Move](t)(db.Moves(t.Context(), won))

	b := &tttbot.Game{ChannelID: "c1", Rows: 4, Cols: 4, K: 3, Challenger: "h", Opponent: "bot",
		BotLevel: "perfect", XPlayer: "h", OPlayer: "bot", Status: tttbot.StatusActive}
	OK(t, db.StartGame(t.Context(), b, nil))
	vsBot = PlayCells(t, db, b, 5).ID

	d := Challenge("c2", "c", "d")
	OK(t, db.StartGame(t.Context(), d, nil))
	Must[*tttbot.Game](t)(db.Decline(t.Context(), d.ID, "d", d.Version, t0, nil))
	OK(t, db.StartGame(t.Context(), Challenge("c2", "e", "f"), nil))

	r := PlayCells(t, db, StartGame(t, db, "c3", "g", "h"), 0)
	Must[*tttbot.Game](t)(db.Resign(t.Context(), r.ID, "h", t0, nil))
	PlayCells(t, db, StartGame(t, db, "c4", "i", "j"), 0, 1, 2, 4, 3, 5, 7, 6, 8) // a draw

	k := &tttbot.Game{GuildID: "guild", ChannelID: "c5", Rows: 3, Cols: 3, K: 3, Challenger: "k", Opponent: "bot",
		BotLevel: "easy", XPlayer: "k", OPlayer: "bot", Status: tttbot.StatusActive}
	OK(t, db.StartGame(t.Context(), k, nil))
	PlayCells(t, db, k, xWins...) // the bot loses
	return db, won, vsBot, acked
}

func testCheck(t *testing.T, newDB Opener) {
	db, _, _, acked := checkGames(t, newDB)
	problems, err := db.Check(t.Context(), acked)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 0 {
		t.Fatalf("got problems %v in a sound database, want none", problems)
	}
}

// TestCheckFindsDamage corrupts a sound database in one way at a time and
// expects Check to name the damage.
func testCheckFindsDamage(t *testing.T, newDB Opener) {
	tests := []struct {
		name string
		sql  string // {won} is the won game's ID, {bot} the game's against the bot
		ack  func(acked []tttbot.Move) []tttbot.Move
		want []string
	}{
		{name: "lost move", sql: "DELETE FROM moves WHERE game_id = {won} AND ply = 5",
			want: []string{"acknowledged move 5 (cell 2 by a) is not stored", `board is "XXX/OO./...", its 4 moves give`}},
		{name: "acknowledged move stored differently",
			ack:  func(a []tttbot.Move) []tttbot.Move { a[2].Cell = 8; return a },
			want: []string{"acknowledged move 3 is cell 8 by a, stored as cell 1 by a"}},
		{name: "edited board", sql: "UPDATE games SET board = 'X.../..../..../....' WHERE id = {bot}",
			want: []string{"its 1 moves give"}},
		{name: "move by the wrong player", sql: "UPDATE moves SET player_id = 'b' WHERE game_id = {won} AND ply = 1",
			want: []string{`ply 1 played by "b", the turn of "a"`}},
		{name: "active on a finished board",
			sql:  "UPDATE games SET status = 'active', turn_id = 'b', winner_id = NULL, reason = NULL, finished_at = NULL WHERE id = {won}",
			want: []string{"active on a finished board", "active game has a result"}},
		{name: "wrong winner", sql: "UPDATE games SET winner_id = 'b' WHERE id = {won}",
			want: []string{`winner "b", the board's is "a"`, "result of"}},
		{name: "version skipped", sql: "UPDATE games SET version = version + 1 WHERE id = {bot}",
			want: []string{"version 3 does not count its 1 moves"}},
		{name: "result missing", sql: "DELETE FROM results WHERE game_id = {won} AND player_id = 'b'",
			want: []string{"finished game has 1 results, want 2"}},
		{name: "two open games for a player",
			sql: `INSERT INTO games (channel_id, board_rows, board_cols, k, challenger_id, opponent_id, status, board, version, created_at, updated_at)
				VALUES ('c2', 3, 3, 3, 'f', 'a', 'pending', '.../.../...', 1, 0, 0)`,
			want: []string{`"f" has 2 open games in channel c2`}},
		{name: "rating counted twice", sql: "UPDATE ratings SET games = 2, wins = 2 WHERE player_id = 'a' AND scope = ''",
			want: []string{`global rating of "a" on 3x3 k=3 counts 2-0-0, its results 1-0-0`}},
		{name: "rating missing", sql: "DELETE FROM ratings WHERE player_id = 'j' AND scope <> ''",
			want: []string{`guild guild rating of "j" on 3x3 k=3 counts 0-0-0, its results 0-0-1`}},
		{name: "record against the bot missing", sql: "DELETE FROM bot_records",
			want: []string{`record of "k" against the bot at easy counts 0-0-0, its results 1-0-0`}},
		{name: "leaderboard band miscounted", sql: "INSERT INTO rating_counts VALUES ('', 3, 3, 3, 90, 1)",
			want: []string{"global leaderboard on 3x3 k=3: band 90 counts 1 players, has 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, won, vsBot, acked := checkGames(t, newDB)
			if tt.sql != "" {
				if _, err := db.SQL.Exec(strings.NewReplacer("{won}", fmt.Sprint(won), "{bot}", fmt.Sprint(vsBot)).Replace(tt.sql)); err != nil {
					t.Fatalf("corrupt: %v", err)
				}
			}
			if tt.ack != nil {
				acked = tt.ack(acked)
			}
			problems, err := db.Check(t.Context(), acked)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			all := strings.Join(got, "\n")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("got problems:\n%s\nwant one containing %q", all, w)
				}
			}
		})
	}
}
