// Package dbcheck is the consistency check of a tttbot database: it reads
// every game, move, result and rating in one snapshot and reports what no
// sequence of store transactions can produce. Its SQL is the part that
// SQLite and PostgreSQL both speak, so that internal/sqlite and
// internal/postgres run the same check and add their engine's own.
package dbcheck

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/gamerow"
)

// Problem is one broken invariant found by Run.
type Problem struct {
	GameID int64 // 0 when the problem is not one game's
	Text   string
}

func (p Problem) String() string {
	if p.GameID == 0 {
		return p.Text
	}
	return fmt.Sprintf("game %d: %s", p.GameID, p.Text)
}

// Run checks the database tx reads, which should be one snapshot, and
// reports:
//
//   - a game that does not replay from its moves (internal/game) to its
//     stored board, status, turn and winner, or whose version does not count
//     its changes;
//   - a finished game without its two results, or an open one with results;
//   - a player in two open games in one channel (the bot aside);
//   - a rating, or a record against the bot, whose wins, losses and draws
//     are not those of its results (but those of a forgotten player, who
//     has none, and those a guild's reset took out of its ratings), or a
//     leaderboard band that miscounts its players;
//   - a move of acked, one the bot told a player it had played, that is not
//     stored as given.
//
// extra are the engine's own checks, run first; each reports through add.
func Run(ctx context.Context, tx *sql.Tx, acked []tttbot.Move, extra ...func(ctx context.Context, tx *sql.Tx, add func(Problem)) error) ([]Problem, error) {
	ck := checker{tx: tx, acked: map[[2]int64]tttbot.Move{}}
	for _, m := range acked {
		ck.acked[[2]int64{m.GameID, int64(m.Ply)}] = m
	}
	for _, f := range extra {
		if err := f(ctx, tx, func(p Problem) { ck.problems = append(ck.problems, p) }); err != nil {
			return nil, fmt.Errorf("check database: %w", err)
		}
	}
	for _, f := range []func(context.Context) error{ck.games, ck.results, ck.openGames, ck.ratings} {
		if err := f(ctx); err != nil {
			return nil, fmt.Errorf("check database: %w", err)
		}
	}
	missing := slices.SortedFunc(maps.Values(ck.acked), func(a, b tttbot.Move) int {
		return cmp.Or(cmp.Compare(a.GameID, b.GameID), cmp.Compare(a.Ply, b.Ply))
	})
	for _, m := range missing {
		ck.add(m.GameID, "acknowledged move %d (cell %d by %s) is not stored", m.Ply, m.Cell, m.Player)
	}
	return ck.problems, nil
}

type checker struct {
	tx       *sql.Tx
	acked    map[[2]int64]tttbot.Move // deleted once seen
	problems []Problem
}

func (ck *checker) add(id int64, format string, args ...any) {
	ck.problems = append(ck.problems, Problem{GameID: id, Text: fmt.Sprintf(format, args...)})
}

// each runs query and calls f on every row.
func (ck *checker) each(ctx context.Context, query string, f func(*sql.Rows) error) error {
	return Each(ctx, ck.tx, query, f)
}

// Each runs query in tx and calls f on every row, for the engines' own
// checks.
func Each(ctx context.Context, tx *sql.Tx, query string, f func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := f(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// games replays every game from its moves, read in one pass in game order.
func (ck *checker) games(ctx context.Context) error {
	var g *tttbot.Game
	var moves []tttbot.Move
	flush := func() {
		if g != nil {
			ck.game(g, moves)
		}
	}
	err := ck.each(ctx, `SELECT `+gamerow.Columns+`, coalesce(m.ply, 0), coalesce(m.cell, 0), coalesce(m.player_id, '')
		FROM games LEFT JOIN moves m ON m.game_id = games.id ORDER BY games.id, m.ply`, func(r *sql.Rows) error {
		var m tttbot.Move
		row, err := gamerow.Game(r, &m.Ply, &m.Cell, &m.Player)
		if err != nil {
			return err
		}
		if g == nil || g.ID != row.ID {
			flush()
			g, moves = row, moves[:0]
		}
		if m.Ply != 0 {
			m.GameID = g.ID
			moves = append(moves, m)
		}
		return nil
	})
	flush()
	return err
}

// game checks one game against its moves.
func (ck *checker) game(g *tttbot.Game, moves []tttbot.Move) {
	for _, m := range moves {
		key := [2]int64{g.ID, int64(m.Ply)}
		if a, ok := ck.acked[key]; ok {
			if a.Cell != m.Cell || a.Player != m.Player {
				ck.add(g.ID, "acknowledged move %d is cell %d by %s, stored as cell %d by %s", m.Ply, a.Cell, a.Player, m.Cell, m.Player)
			}
			delete(ck.acked, key)
		}
	}
	geo, err := game.NewGeometry(g.Rows, g.Cols, g.K)
	if err != nil {
		ck.add(g.ID, "%v", err)
		return
	}
	if (g.XPlayer != "" || g.OPlayer != "") && (!g.HasPlayer(g.XPlayer) || g.OPlayer != g.Other(g.XPlayer)) {
		ck.add(g.ID, "X %q and O %q are not its players %q and %q", g.XPlayer, g.OPlayer, g.Challenger, g.Opponent)
		return
	}
	side := map[game.Player]string{game.X: g.XPlayer, game.O: g.OPlayer}
	pos := game.NewPosition(geo)
	for i, m := range moves {
		switch {
		case m.Ply != i+1:
			ck.add(g.ID, "move %d is stored as ply %d", i+1, m.Ply)
			return
		case m.Player != side[pos.ToMove()]:
			ck.add(g.ID, "ply %d played by %q, the turn of %q", m.Ply, m.Player, side[pos.ToMove()])
			return
		case pos.Result().Over:
			ck.add(g.ID, "ply %d played after the game was over", m.Ply)
			return
		}
		if pos, err = pos.Play(m.Cell); err != nil {
			ck.add(g.ID, "ply %d on cell %d: %v", m.Ply, m.Cell, err)
			return
		}
	}
	if pos.String() != g.Board {
		ck.add(g.ID, "board is %q, its %d moves give %q", g.Board, len(moves), pos.String())
		return
	}

	// Every change bumps the version: creating (1), accepting a challenge,
	// each move, and the change that closes the game without a move.
	n, res := len(moves), pos.Result()
	accepts := []int{0}
	if !g.VsBot() {
		// A game between people starts as a challenge, except when created
		// active directly, which the store allows.
		accepts = []int{0, 1}
	}
	coherent := func(closing int) {
		for _, a := range accepts {
			if g.Version == 1+a+n+closing {
				return
			}
		}
		ck.add(g.ID, "version %d does not count its %d moves (status %s)", g.Version, n, g.Status)
	}
	switch g.Status {
	case tttbot.StatusPending, tttbot.StatusDeclined, tttbot.StatusCancelled, tttbot.StatusExpired:
		want := 2
		if g.Status == tttbot.StatusPending {
			want = 1
		}
		switch {
		case n != 0:
			ck.add(g.ID, "%s challenge has %d moves", g.Status, n)
		case g.Version != want:
			ck.add(g.ID, "%s challenge has version %d, want %d", g.Status, g.Version, want)
		case g.Winner != "" || g.Turn != "":
			ck.add(g.ID, "%s challenge has a winner %q or a turn %q", g.Status, g.Winner, g.Turn)
		}
	case tttbot.StatusActive:
		switch {
		case res.Over:
			ck.add(g.ID, "active on a finished board %s", g.Board)
		case g.Turn != side[pos.ToMove()]:
			ck.add(g.ID, "turn of %q, the board's is %q", g.Turn, side[pos.ToMove()])
		case g.Winner != "":
			ck.add(g.ID, "active with a winner %q", g.Winner)
		default:
			coherent(0)
		}
	case tttbot.StatusFinished:
		switch g.Reason {
		case tttbot.ReasonLine, tttbot.ReasonDraw:
			switch {
			case !res.Over:
				ck.add(g.ID, "finished by %s on an unfinished board %s", g.Reason, g.Board)
			case (g.Reason == tttbot.ReasonLine) != (res.Winner != game.None) || g.Winner != side[res.Winner]:
				ck.add(g.ID, "finished by %s with winner %q, the board's is %q", g.Reason, g.Winner, side[res.Winner])
			default:
				coherent(0)
			}
		case tttbot.ReasonResign, tttbot.ReasonTimeout:
			switch {
			case res.Over:
				ck.add(g.ID, "finished by %s on a board already over", g.Reason)
			case g.BothLost() && !g.Unplayed():
				ck.add(g.ID, "lost on time by both after a move")
			case g.BothLost():
				coherent(1)
			case !g.HasPlayer(g.Winner):
				ck.add(g.ID, "finished by %s with winner %q, not a player", g.Reason, g.Winner)
			case g.Reason == tttbot.ReasonTimeout && g.Winner == side[pos.ToMove()]:
				ck.add(g.ID, "won on time by %q, who was to move", g.Winner)
			default:
				coherent(1)
			}
		default:
			ck.add(g.ID, "finished without a reason")
		}
	default:
		ck.add(g.ID, "unknown status %q", g.Status)
	}
}

// results checks that exactly the finished games have results, one per
// player, that agree with the game.
func (ck *checker) results(ctx context.Context) error {
	return ck.each(ctx, `SELECT g.id, g.status, coalesce(g.winner_id, ''), coalesce(g.reason, ''),
			g.challenger_id, g.opponent_id, coalesce(r.player_id, ''), coalesce(r.opponent_id, ''),
			coalesce(r.outcome, ''), coalesce(r.reason, ''),
			(SELECT count(*) FROM results c WHERE c.game_id = g.id)
		FROM games g LEFT JOIN results r ON r.game_id = g.id
		WHERE g.status = 'finished' OR r.game_id IS NOT NULL`, func(r *sql.Rows) error {
		var id int64
		var n int
		var status, winner, reason, a, b, player, opponent, outcome, rreason string
		if err := r.Scan(&id, &status, &winner, &reason, &a, &b, &player, &opponent, &outcome, &rreason, &n); err != nil {
			return err
		}
		want := "draw"
		switch {
		case winner == "" && reason == string(tttbot.ReasonTimeout): // both lost on time
			want = "loss"
		case winner == player:
			want = "win"
		case winner == opponent:
			want = "loss"
		}
		switch {
		case status != string(tttbot.StatusFinished):
			ck.add(id, "%s game has a result", status)
		case n != 2:
			ck.add(id, "finished game has %d results, want 2", n)
		case !(player == a && opponent == b || player == b && opponent == a):
			ck.add(id, "result of %q against %q: not its players", player, opponent)
		case outcome != want || rreason != reason:
			ck.add(id, "result of %q is %s by %s, want %s by %s", player, outcome, rreason, want, reason)
		}
		return nil
	})
}

// openGames finds players with two open games in a channel. The bot, the
// opponent of a game with a bot level, may play any number.
func (ck *checker) openGames(ctx context.Context) error {
	return ck.each(ctx, `SELECT channel_id, player, count(*), min(id) FROM (
			SELECT id, channel_id, challenger_id AS player FROM games WHERE `+gamerow.Open+`
			UNION ALL
			SELECT id, channel_id, opponent_id FROM games WHERE `+gamerow.Open+` AND bot_level IS NULL) AS open_games
		GROUP BY channel_id, player HAVING count(*) > 1`, func(r *sql.Rows) error {
		var channel, player string
		var n int
		var id int64
		if err := r.Scan(&channel, &player, &n, &id); err != nil {
			return err
		}
		ck.add(id, "%q has %d open games in channel %s", player, n, channel)
		return nil
	})
}

// ratedResults is every result of a rated game between people, once in
// the global scope and once more in its guild's. A game both players lost
// on time is rated nowhere (tttbot.Game.Scopes).
const ratedResults = `SELECT '' AS scope, r.player_id, g.board_rows, g.board_cols, g.k, r.outcome
		FROM results r JOIN games g ON g.id = r.game_id
		WHERE r.bot_level IS NULL AND NOT g.unrated AND ` + notBothLost + ` AND r.player_id NOT LIKE '` + forgottenLike + `'
	UNION ALL
	SELECT r.guild_id, r.player_id, g.board_rows, g.board_cols, g.k, r.outcome
		FROM results r JOIN games g ON g.id = r.game_id
		WHERE r.bot_level IS NULL AND NOT g.unrated AND ` + notBothLost + ` AND r.guild_id IS NOT NULL AND r.guild_rated AND r.player_id NOT LIKE '` + forgottenLike + `'`

// notBothLost excludes the games both players lost on time.
const notBothLost = `NOT (g.winner_id IS NULL AND g.reason = 'timeout')`

// forgottenLike matches the placeholders of forgotten players, who have
// no ratings or records: their results count only in their opponents'.
const forgottenLike = tttbot.ForgottenPrefix + "%"

// ratings checks that each rating and each record against the bot counts
// exactly the results it was built from, so that each finished game was
// counted once, and that the leaderboards' bands count their players.
func (ck *checker) ratings(ctx context.Context) error {
	scope := func(s string) string {
		if s == "" {
			return "global"
		}
		return "guild " + s
	}
	err := ck.each(ctx, `WITH want AS (
			SELECT scope, player_id, board_rows, board_cols, k,
				count(*) FILTER (WHERE outcome = 'win') AS wins, count(*) FILTER (WHERE outcome = 'loss') AS losses, count(*) FILTER (WHERE outcome = 'draw') AS draws
			FROM (`+ratedResults+`) AS rated GROUP BY scope, player_id, board_rows, board_cols, k)
		SELECT coalesce(w.scope, t.scope), coalesce(w.player_id, t.player_id),
			coalesce(w.board_rows, t.board_rows), coalesce(w.board_cols, t.board_cols), coalesce(w.k, t.k),
			coalesce(t.wins, 0), coalesce(t.losses, 0), coalesce(t.draws, 0),
			coalesce(w.wins, 0), coalesce(w.losses, 0), coalesce(w.draws, 0)
		FROM want w FULL JOIN ratings t ON t.scope = w.scope AND t.player_id = w.player_id
			AND t.board_rows = w.board_rows AND t.board_cols = w.board_cols AND t.k = w.k
		WHERE t.player_id IS NULL OR w.player_id IS NULL
			OR t.wins <> w.wins OR t.losses <> w.losses OR t.draws <> w.draws`, func(r *sql.Rows) error {
		var sc, player string
		var rows, cols, k int
		var got, want [3]int
		if err := r.Scan(&sc, &player, &rows, &cols, &k, &got[0], &got[1], &got[2], &want[0], &want[1], &want[2]); err != nil {
			return err
		}
		ck.add(0, "%s rating of %q on %dx%d k=%d counts %d-%d-%d, its results %d-%d-%d",
			scope(sc), player, rows, cols, k, got[0], got[1], got[2], want[0], want[1], want[2])
		return nil
	})
	if err != nil {
		return err
	}
	err = ck.each(ctx, `WITH want AS (
			SELECT r.player_id, r.bot_level,
				count(*) FILTER (WHERE r.outcome = 'win') AS wins, count(*) FILTER (WHERE r.outcome = 'loss') AS losses, count(*) FILTER (WHERE r.outcome = 'draw') AS draws
			FROM results r JOIN games g ON g.id = r.game_id
			WHERE r.bot_level IS NOT NULL AND r.player_id = g.challenger_id AND r.player_id NOT LIKE '`+forgottenLike+`'
			GROUP BY r.player_id, r.bot_level)
		SELECT coalesce(w.player_id, t.player_id), coalesce(w.bot_level, t.bot_level),
			coalesce(t.wins, 0), coalesce(t.losses, 0), coalesce(t.draws, 0),
			coalesce(w.wins, 0), coalesce(w.losses, 0), coalesce(w.draws, 0)
		FROM want w FULL JOIN bot_records t ON t.player_id = w.player_id AND t.bot_level = w.bot_level
		WHERE t.player_id IS NULL OR w.player_id IS NULL
			OR t.wins <> w.wins OR t.losses <> w.losses OR t.draws <> w.draws`, func(r *sql.Rows) error {
		var player, level string
		var got, want [3]int
		if err := r.Scan(&player, &level, &got[0], &got[1], &got[2], &want[0], &want[1], &want[2]); err != nil {
			return err
		}
		ck.add(0, "record of %q against the bot at %s counts %d-%d-%d, its results %d-%d-%d",
			player, level, got[0], got[1], got[2], want[0], want[1], want[2])
		return nil
	})
	if err != nil {
		return err
	}
	return ck.each(ctx, `WITH want AS (
			SELECT scope, board_rows, board_cols, k, band, count(*) AS players
			FROM ratings WHERE games >= 5 GROUP BY scope, board_rows, board_cols, k, band)
		SELECT coalesce(w.scope, c.scope), coalesce(w.board_rows, c.board_rows), coalesce(w.board_cols, c.board_cols),
			coalesce(w.k, c.k), coalesce(w.band, c.band), coalesce(c.players, 0), coalesce(w.players, 0)
		FROM want w FULL JOIN rating_counts c ON c.scope = w.scope AND c.board_rows = w.board_rows
			AND c.board_cols = w.board_cols AND c.k = w.k AND c.band = w.band
		WHERE coalesce(c.players, 0) <> coalesce(w.players, 0)`, func(r *sql.Rows) error {
		var sc string
		var rows, cols, k, band, got, want int
		if err := r.Scan(&sc, &rows, &cols, &k, &band, &got, &want); err != nil {
			return err
		}
		ck.add(0, "%s leaderboard on %dx%d k=%d: band %d counts %d players, has %d", scope(sc), rows, cols, k, band, got, want)
		return nil
	})
}
