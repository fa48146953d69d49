package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/tttbot/tttbot"
)

var _ tttbot.RatingStore = (*DB)(nil)

// The rating queries. Those a player waits for must stay on an index as
// players and games pile up (see TestRatingQueryPlans). The repeated
// "games >= 5" is the condition of the ratings_ranked partial index, which
// SQLite uses only when a query states it.
const (
	queryRatingPair = `SELECT player_id, rating, rd, sigma, games, wins, losses, draws, streak, best_streak, updated_at
		FROM ratings WHERE scope = ?1 AND player_id IN (?2, ?3) AND board_rows = ?4 AND board_cols = ?5 AND k = ?6`

	// The band holding the leaderboard's offset-th entry, the number of
	// entries in the bands above it, and the leaderboard's size.
	queryLeaderboardBand = `SELECT band, above, total FROM (
		SELECT band, players,
			sum(players) OVER (ORDER BY band DESC ROWS UNBOUNDED PRECEDING) - players AS above,
			sum(players) OVER () AS total
		FROM rating_counts WHERE scope = ?1 AND board_rows = ?2 AND board_cols = ?3 AND k = ?4)
		WHERE above + players > ?5 ORDER BY band DESC LIMIT 1`
	queryLeaderboardTotal = `SELECT ifnull(sum(players), 0) FROM rating_counts
		WHERE scope = ?1 AND board_rows = ?2 AND board_cols = ?3 AND k = ?4`

	// A page from the top of a band: the keys off the index alone, then
	// their rows.
	queryLeaderboardPage = `WITH page AS (
			SELECT player_id FROM ratings
			WHERE scope = ?1 AND board_rows = ?2 AND board_cols = ?3 AND k = ?4 AND games >= 5 AND conservative < ?5
			ORDER BY conservative DESC, player_id DESC LIMIT ?6 OFFSET ?7)
		SELECT ` + standingColumns + ` FROM page
		JOIN ratings r ON r.scope = ?1 AND r.player_id = page.player_id AND r.board_rows = ?2 AND r.board_cols = ?3 AND r.k = ?4
		LEFT JOIN players p ON p.id = r.player_id
		ORDER BY r.conservative DESC, r.player_id DESC`

	// A player's ratings in a scope, each with its rank: the players in the
	// bands above, plus those ahead in the player's own band.
	queryStats = `SELECT ` + standingColumns + `,
		CASE WHEN r.games >= 5 THEN 1
			+ (SELECT ifnull(sum(c.players), 0) FROM rating_counts c
				WHERE c.scope = r.scope AND c.board_rows = r.board_rows AND c.board_cols = r.board_cols AND c.k = r.k AND c.band > r.band)
			+ (SELECT count(*) FROM ratings o
				WHERE o.scope = r.scope AND o.board_rows = r.board_rows AND o.board_cols = r.board_cols AND o.k = r.k AND o.games >= 5
				AND (o.conservative, o.player_id) > (r.conservative, r.player_id) AND o.conservative < (r.band + 1) * 16)
		ELSE 0 END
		FROM ratings r LEFT JOIN players p ON p.id = r.player_id
		WHERE r.scope = ?1 AND r.player_id = ?2
		ORDER BY r.games DESC, r.board_rows, r.board_cols, r.k`

	queryBotRecords = `SELECT bot_level, wins, losses, draws FROM bot_records WHERE player_id = ? ORDER BY bot_level`

	queryHistory = `SELECT r.game_id, g.board_rows, g.board_cols, g.k, r.opponent_id, ifnull(r.bot_level, ''),
			r.outcome, r.reason, r.finished_at
		FROM results r JOIN games g ON g.id = r.game_id
		WHERE r.player_id = ?1 AND r.guild_id IS ?2
		ORDER BY r.finished_at DESC, r.game_id DESC LIMIT ?3`
)

const standingColumns = `r.player_id, ifnull(p.name, ''), r.board_rows, r.board_cols, r.k,
	r.rating, r.rd, r.sigma, r.games, r.wins, r.losses, r.draws, r.streak, r.best_streak, r.updated_at`

// bandWidth is the width of a rating_counts band, as in the migration.
const bandWidth = 16

// rate records a game that just finished: between two people, in both
// players' ratings in its guild and globally; against the bot, in the
// human's record at its level. It runs in the transaction that finishes the
// game, so it happens exactly once, with the game.
func rate(ctx context.Context, tx *sql.Conn, g *tttbot.Game) error {
	if g.VsBot() {
		player, r := g.BotRecord()
		_, err := tx.ExecContext(ctx, `INSERT INTO bot_records (player_id, bot_level, wins, losses, draws, updated_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, bot_level) DO UPDATE SET
			wins = wins + excluded.wins, losses = losses + excluded.losses, draws = draws + excluded.draws,
			updated_at = excluded.updated_at`,
			player, r.Level, r.Wins, r.Losses, r.Draws, toMS(g.FinishedAt))
		if err != nil {
			return fmt.Errorf("update bot record: %w", err)
		}
		return nil
	}
	for _, scope := range g.Scopes() {
		if err := ratePair(ctx, tx, g, scope); err != nil {
			return fmt.Errorf("update ratings: %w", err)
		}
	}
	return nil
}

// ratePair updates the challenger's and the opponent's ratings in scope.
func ratePair(ctx context.Context, tx *sql.Conn, g *tttbot.Game, scope string) error {
	// A player without a row yet starts from the zero Standing.
	var before [2]tttbot.Standing
	rows, err := tx.QueryContext(ctx, queryRatingPair, scope, g.Challenger, g.Opponent, g.Rows, g.Cols, g.K)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var s tttbot.Standing
		var updated int64
		if err := rows.Scan(&s.Player, &s.R, &s.RD, &s.Sigma, &s.Games, &s.Wins, &s.Losses, &s.Draws, &s.Streak, &s.Best, &updated); err != nil {
			return err
		}
		s.UpdatedAt = fromMS(updated)
		before[b2i(s.Player == g.Opponent)] = s
	}
	if err := rows.Err(); err != nil {
		return err
	}
	args := make([]any, 0, 2*15)
	for _, s := range g.Rate(before) {
		args = append(args, scope, s.Player, s.Shape.Rows, s.Shape.Cols, s.Shape.K, s.R, s.RD, s.Sigma,
			s.Games, s.Wins, s.Losses, s.Draws, s.Streak, s.Best, toMS(s.UpdatedAt))
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO ratings (scope, player_id, board_rows, board_cols, k,
		rating, rd, sigma, games, wins, losses, draws, streak, best_streak, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (scope, player_id, board_rows, board_cols, k) DO UPDATE SET
		rating = excluded.rating, rd = excluded.rd, sigma = excluded.sigma, games = excluded.games,
		wins = excluded.wins, losses = excluded.losses, draws = excluded.draws,
		streak = excluded.streak, best_streak = excluded.best_streak, updated_at = excluded.updated_at`, args...)
	return err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func scanStanding(row scanner, extra ...any) (tttbot.Standing, error) {
	var s tttbot.Standing
	var updated int64
	dest := append([]any{&s.Player, &s.Name, &s.Shape.Rows, &s.Shape.Cols, &s.Shape.K,
		&s.R, &s.RD, &s.Sigma, &s.Games, &s.Wins, &s.Losses, &s.Draws, &s.Streak, &s.Best, &updated}, extra...)
	if err := row.Scan(dest...); err != nil {
		return s, err
	}
	s.UpdatedAt = fromMS(updated)
	return s, nil
}

// Leaderboard returns up to limit ranked players of scope and shape from
// the offset-th, best first. See tttbot.RatingStore.
func (db *DB) Leaderboard(ctx context.Context, scope string, shape tttbot.Shape, offset, limit int) (tttbot.LeaderboardPage, error) {
	var page tttbot.LeaderboardPage
	// A shape no game can have would only read an empty leaderboard.
	if err := shape.Validate(); err != nil {
		return page, err
	}
	if offset < 0 || limit <= 0 {
		return page, tttbot.Errorf(tttbot.EINVALID, "a leaderboard page starts at 0 and holds at least one player")
	}
	// One read transaction: the bands and the page must be one snapshot.
	ctx = uncancelled(ctx)
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return page, fmt.Errorf("read leaderboard: %w", err)
	}
	defer tx.Rollback()
	var band, above int64
	err = tx.QueryRowContext(ctx, queryLeaderboardBand, scope, shape.Rows, shape.Cols, shape.K, offset).Scan(&band, &above, &page.Total)
	if errors.Is(err, sql.ErrNoRows) {
		// Past the end, or nobody ranked yet.
		err = tx.QueryRowContext(ctx, queryLeaderboardTotal, scope, shape.Rows, shape.Cols, shape.K).Scan(&page.Total)
		if err != nil {
			return page, fmt.Errorf("read leaderboard: %w", err)
		}
		return page, nil
	}
	if err != nil {
		return page, fmt.Errorf("read leaderboard: %w", err)
	}
	rows, err := tx.QueryContext(ctx, queryLeaderboardPage, scope, shape.Rows, shape.Cols, shape.K,
		float64((band+1)*bandWidth), limit, int64(offset)-above)
	if err != nil {
		return page, fmt.Errorf("read leaderboard: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		s, err := scanStanding(rows)
		if err != nil {
			return page, fmt.Errorf("read leaderboard: %w", err)
		}
		s.Rank = offset + len(page.Standings) + 1
		page.Standings = append(page.Standings, s)
	}
	if err := rows.Err(); err != nil {
		return page, fmt.Errorf("read leaderboard: %w", err)
	}
	return page, nil
}

// Stats returns player's ratings in scope with their ranks, and their record
// against the bot. See tttbot.RatingStore.
func (db *DB) Stats(ctx context.Context, scope, player string) (*tttbot.Stats, error) {
	st := &tttbot.Stats{Player: player}
	ctx = uncancelled(ctx)
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("read stats: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, queryStats, scope, player)
	if err != nil {
		return nil, fmt.Errorf("read stats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var rank int
		s, err := scanStanding(rows, &rank)
		if err != nil {
			return nil, fmt.Errorf("read stats: %w", err)
		}
		s.Rank = rank
		st.Ratings = append(st.Ratings, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read stats: %w", err)
	}
	rows, err = tx.QueryContext(ctx, queryBotRecords, player)
	if err != nil {
		return nil, fmt.Errorf("read bot records: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r tttbot.BotRecord
		if err := rows.Scan(&r.Level, &r.Wins, &r.Losses, &r.Draws); err != nil {
			return nil, fmt.Errorf("read bot records: %w", err)
		}
		st.VsBot = append(st.VsBot, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read bot records: %w", err)
	}
	return st, nil
}

// History returns player's last finished games in guildID, newest first.
func (db *DB) History(ctx context.Context, player, guildID string, limit int) ([]tttbot.HistoryEntry, error) {
	if limit <= 0 {
		return nil, tttbot.Errorf(tttbot.EINVALID, "a history lists at least one game")
	}
	rows, err := db.r.QueryContext(uncancelled(ctx), queryHistory, player, nullString(guildID), limit)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	defer rows.Close()
	var out []tttbot.HistoryEntry
	for rows.Next() {
		var e tttbot.HistoryEntry
		var at int64
		if err := rows.Scan(&e.GameID, &e.Shape.Rows, &e.Shape.Cols, &e.Shape.K, &e.Opponent, &e.BotLevel,
			&e.Outcome, &e.Reason, &at); err != nil {
			return nil, fmt.Errorf("read history: %w", err)
		}
		e.FinishedAt = fromMS(at)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	return out, nil
}
