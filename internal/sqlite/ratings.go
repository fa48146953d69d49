package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
)

var _ tttbot.RatingStore = (*DB)(nil)

// The rating queries. Those a player waits for must stay on an index as
// players and games pile up (see TestRatingQueryPlans). The repeated
// "games >= 5" is the condition of the ratings_ranked partial index, which
// SQLite uses only when a query states it.
const (
	// The band holding the leaderboard's offset-th entry, the number of
	// entries in the bands above it, and the leaderboard's size.
	queryLeaderboardBand = `SELECT band, above, total FROM (
		SELECT band, players,
			sum(players) OVER (ORDER BY band DESC ROWS UNBOUNDED PRECEDING) - players AS above,
			sum(players) OVER () AS total
		FROM rating_counts WHERE scope = ?1 AND board_rows = ?2 AND board_cols = ?3 AND k = ?4)
		WHERE above + players > ?5 ORDER BY band DESC LIMIT 1`

	// A page from the top of a band: the keys off the index alone, then
	// their rows.
	queryLeaderboardPage = `WITH page AS (
			SELECT player_id FROM ratings
			WHERE scope = ?1 AND board_rows = ?2 AND board_cols = ?3 AND k = ?4 AND games >= 5 AND conservative < ?5
			ORDER BY conservative DESC, player_id DESC LIMIT ?6 OFFSET ?7)
		SELECT ` + gamerow.StandingColumns + ` FROM page
		JOIN ratings r ON r.scope = ?1 AND r.player_id = page.player_id AND r.board_rows = ?2 AND r.board_cols = ?3 AND r.k = ?4
		LEFT JOIN players p ON p.id = r.player_id
		ORDER BY r.conservative DESC, r.player_id DESC`

	// The rows of gamerow.QueryRatingPair, one lookup per player: SQLite
	// reads "player_id IN (?2, ?3)" through a temporary table of the list,
	// built per statement (see TestNoTemporaryTables).
	queryRatingOf   = "SELECT " + gamerow.RatingPairColumns + " FROM ratings WHERE scope = ?1 AND board_rows = ?4 AND board_cols = ?5 AND k = ?6 AND player_id = "
	queryRatingPair = queryRatingOf + "?2 UNION ALL " + queryRatingOf + "?3"

	// A player's rating after a game, which gamerow.RatingArgs gives: one
	// row per statement, as an upsert of several rows goes through a
	// temporary table.
	querySaveRating = `INSERT INTO ratings (scope, player_id, board_rows, board_cols, k,
		rating, rd, sigma, games, wins, losses, draws, streak, best_streak, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (scope, player_id, board_rows, board_cols, k) DO UPDATE SET
		rating = excluded.rating, rd = excluded.rd, sigma = excluded.sigma, games = excluded.games,
		wins = excluded.wins, losses = excluded.losses, draws = excluded.draws,
		streak = excluded.streak, best_streak = excluded.best_streak, updated_at = excluded.updated_at`
)

// rate records a game that just finished: between two people, in both
// players' ratings in its guild and globally; against the bot, in the
// human's record at its level, unless it had a hint. It runs in the transaction that finishes the
// game, so it happens exactly once, with the game.
func rate(ctx context.Context, tx *sql.Conn, g *tttbot.Game) error {
	if g.VsBot() {
		if !g.InBotRecord() {
			return nil
		}
		_, err := tx.ExecContext(ctx, gamerow.QueryBotRecord, gamerow.BotRecordArgs(g)...)
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
	rows, err := tx.QueryContext(ctx, queryRatingPair, scope, g.Challenger, g.Opponent, g.Rows, g.Cols, g.K)
	if err != nil {
		return err
	}
	defer rows.Close()
	before, err := gamerow.Pair(rows, g)
	if err != nil {
		return err
	}
	rated := g.Rate(before)
	for _, s := range rated {
		if _, err := tx.ExecContext(ctx, querySaveRating, gamerow.RatingArgs(scope, s)...); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, gamerow.QueryAddRatingHistory, gamerow.RatingHistoryArgs(scope, g, rated)...)
	return err
}

// Leaderboard returns up to limit ranked players of scope and shape from
// the offset-th, best first. See tttbot.RatingStore.
func (db *DB) Leaderboard(ctx context.Context, scope string, shape tttbot.Shape, offset, limit int) (tttbot.LeaderboardPage, error) {
	var page tttbot.LeaderboardPage
	if err := tttbot.CheckPage(shape, offset, limit); err != nil {
		return page, err
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
		err = tx.QueryRowContext(ctx, gamerow.QueryLeaderboardTotal, scope, shape.Rows, shape.Cols, shape.K).Scan(&page.Total)
		if err != nil {
			return page, fmt.Errorf("read leaderboard: %w", err)
		}
		return page, nil
	}
	if err != nil {
		return page, fmt.Errorf("read leaderboard: %w", err)
	}
	rows, err := tx.QueryContext(ctx, queryLeaderboardPage, scope, shape.Rows, shape.Cols, shape.K,
		float64((band+1)*gamerow.BandWidth), limit, int64(offset)-above)
	if err != nil {
		return page, fmt.Errorf("read leaderboard: %w", err)
	}
	defer rows.Close()
	if err := gamerow.Page(rows, offset, &page); err != nil {
		return tttbot.LeaderboardPage{}, fmt.Errorf("read leaderboard: %w", err)
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
	rows, err := tx.QueryContext(ctx, gamerow.QueryStats, scope, player)
	if err != nil {
		return nil, fmt.Errorf("read stats: %w", err)
	}
	defer rows.Close()
	if st.Ratings, err = gamerow.Ratings(rows); err != nil {
		return nil, fmt.Errorf("read stats: %w", err)
	}
	rows, err = tx.QueryContext(ctx, gamerow.QueryBotRecords, player)
	if err != nil {
		return nil, fmt.Errorf("read bot records: %w", err)
	}
	defer rows.Close()
	if st.VsBot, err = gamerow.BotRecords(rows); err != nil {
		return nil, fmt.Errorf("read bot records: %w", err)
	}
	rows, err = tx.QueryContext(ctx, gamerow.QueryRatingHistory, scope, player, tttbot.RatingHistoryLimit)
	if err != nil {
		return nil, fmt.Errorf("read rating history: %w", err)
	}
	defer rows.Close()
	if st.History, err = gamerow.RatingHistories(rows, st.Ratings); err != nil {
		return nil, fmt.Errorf("read rating history: %w", err)
	}
	return st, nil
}

// History returns player's last finished games in guildID, newest first.
func (db *DB) History(ctx context.Context, player, guildID string, limit int) ([]tttbot.HistoryEntry, error) {
	return gamerow.ReadHistory(ctx, db.query, player, guildID, limit)
}
