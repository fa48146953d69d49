package gamerow

import (
	"context"
	"fmt"

	"github.com/tttbot/tttbot"
)

// StandingColumns are a rating's columns, as Standing scans them, of
// ratings r joined to players p.
const StandingColumns = `r.player_id, coalesce(p.name, ''), r.board_rows, r.board_cols, r.k,
	r.rating, r.rd, r.sigma, r.games, r.wins, r.losses, r.draws, r.streak, r.best_streak, r.updated_at`

// The rating queries both engines run. The repeated "games >= 5" is the
// condition of the ratings_ranked partial index, which a planner uses only
// when a query states it.
const (
	// RatingPairColumns are the columns of a rating Pair reads.
	RatingPairColumns = "player_id, rating, rd, sigma, games, wins, losses, draws, streak, best_streak, updated_at"
	// The ratings of players $2 and $3 in scope $1 and shape $4×$5, K $6,
	// for Pair.
	QueryRatingPair = "SELECT " + RatingPairColumns + `
		FROM ratings WHERE scope = $1 AND player_id IN ($2, $3) AND board_rows = $4 AND board_cols = $5 AND k = $6`

	// QueryBotRecord adds the record of BotRecord's player $1 at level $2.
	QueryBotRecord = `INSERT INTO bot_records (player_id, bot_level, wins, losses, draws, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (player_id, bot_level) DO UPDATE SET
		wins = bot_records.wins + excluded.wins, losses = bot_records.losses + excluded.losses,
		draws = bot_records.draws + excluded.draws, updated_at = excluded.updated_at`

	QueryLeaderboardTotal = `SELECT coalesce(sum(players), 0) FROM rating_counts
		WHERE scope = $1 AND board_rows = $2 AND board_cols = $3 AND k = $4`

	// A player's ratings in a scope, each with its rank: the players in the
	// bands above, plus those ahead in the player's own band.
	QueryStats = `SELECT ` + StandingColumns + `,
		CASE WHEN r.games >= 5 THEN 1
			+ (SELECT coalesce(sum(c.players), 0) FROM rating_counts c
				WHERE c.scope = r.scope AND c.board_rows = r.board_rows AND c.board_cols = r.board_cols AND c.k = r.k AND c.band > r.band)
			+ (SELECT count(*) FROM ratings o
				WHERE o.scope = r.scope AND o.board_rows = r.board_rows AND o.board_cols = r.board_cols AND o.k = r.k AND o.games >= 5
				AND (o.conservative, o.player_id) > (r.conservative, r.player_id) AND o.conservative < (r.band + 1) * 16)
		ELSE 0 END
		FROM ratings r LEFT JOIN players p ON p.id = r.player_id
		WHERE r.scope = $1 AND r.player_id = $2
		ORDER BY r.games DESC, r.board_rows, r.board_cols, r.k`

	// QueryAddRatingHistory records the two ratings game $6, finishing
	// at $9, left in scope $1 and shape $3×$4, K $5: player $2's rating
	// and deviation $7 and $8, and player $10's, $11 and $12. (SQLite
	// numbers parameters in the order they first appear.)
	QueryAddRatingHistory = `INSERT INTO rating_history (scope, player_id, board_rows, board_cols, k, game_id, rating, rd, at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9), ($1, $10, $3, $4, $5, $6, $11, $12, $9)`

	// A player's last ratings in scope $1, $3 per shape, by shape and
	// then oldest first.
	QueryRatingHistory = `SELECT board_rows, board_cols, k, rating, rd, at FROM (
			SELECT board_rows, board_cols, k, rating, rd, at, game_id,
				row_number() OVER (PARTITION BY board_rows, board_cols, k ORDER BY at DESC, game_id DESC) AS n
			FROM rating_history WHERE scope = $1 AND player_id = $2) h
		WHERE n <= $3 ORDER BY board_rows, board_cols, k, at, game_id`

	// The erasure of player $2's history in scope $1, and a guild's reset.
	QueryEraseRatingHistory = `DELETE FROM rating_history WHERE scope = $1 AND player_id = $2`
	QueryResetRatingHistory = `DELETE FROM rating_history WHERE scope = $1`

	QueryBotRecords = `SELECT bot_level, wins, losses, draws FROM bot_records WHERE player_id = $1 ORDER BY bot_level`

	// A player's history in a guild, and in DMs: two queries, since
	// "guild_id IS NOT DISTINCT FROM $2" would not use PostgreSQL's index.
	historyColumns = `SELECT r.game_id, g.board_rows, g.board_cols, g.k, r.opponent_id, coalesce(r.bot_level, ''),
			r.outcome, r.reason, r.finished_at
		FROM results r JOIN games g ON g.id = r.game_id`
	QueryHistory   = historyColumns + ` WHERE r.player_id = $1 AND r.guild_id = $2 ORDER BY r.finished_at DESC, r.game_id DESC LIMIT $3`
	QueryHistoryDM = historyColumns + ` WHERE r.player_id = $1 AND r.guild_id IS NULL ORDER BY r.finished_at DESC, r.game_id DESC LIMIT $2`
)

// BandWidth is the width of a rating_counts band, as in the migrations.
const BandWidth = 16

// ReadHistory returns player's last finished games in guildID ("" for
// DMs), newest first, at most limit, through q.
func ReadHistory(ctx context.Context, q Query, player, guildID string, limit int) (out []tttbot.HistoryEntry, err error) {
	if err := tttbot.CheckHistory(limit); err != nil {
		return nil, err
	}
	query, args := QueryHistory, []any{player, guildID, limit}
	if guildID == "" {
		query, args = QueryHistoryDM, []any{player, limit}
	}
	err = q(ctx, func(rows Rows) (err error) {
		out, err = Entries(rows)
		return err
	}, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	return out, nil
}

// Standing reads the StandingColumns of row, then extra.
func Standing(row Scanner, extra ...any) (tttbot.Standing, error) {
	var s tttbot.Standing
	var updated int64
	dest := append([]any{&s.Player, &s.Name, &s.Shape.Rows, &s.Shape.Cols, &s.Shape.K,
		&s.R, &s.RD, &s.Sigma, &s.Games, &s.Wins, &s.Losses, &s.Draws, &s.Streak, &s.Best, &updated}, extra...)
	if err := row.Scan(dest...); err != nil {
		return s, err
	}
	s.UpdatedAt = FromMS(updated)
	return s, nil
}

// Pair reads the rows of QueryRatingPair for game g as g.Rate takes them:
// the challenger's first; a zero Standing for a player without one.
func Pair(rows Rows, g *tttbot.Game) ([2]tttbot.Standing, error) {
	var pair [2]tttbot.Standing
	for rows.Next() {
		var s tttbot.Standing
		var updated int64
		if err := rows.Scan(&s.Player, &s.R, &s.RD, &s.Sigma, &s.Games, &s.Wins, &s.Losses, &s.Draws, &s.Streak, &s.Best, &updated); err != nil {
			return pair, fmt.Errorf("read ratings: %w", err)
		}
		s.UpdatedAt = FromMS(updated)
		if s.Player == g.Opponent {
			pair[1] = s
		} else {
			pair[0] = s
		}
	}
	if err := rows.Err(); err != nil {
		return pair, fmt.Errorf("read ratings: %w", err)
	}
	return pair, nil
}

// RatingArgs are s's values in the order scope, player, shape, rating,
// deviation, volatility, record, streaks, time: how both stores write a
// rating.
func RatingArgs(scope string, s tttbot.Standing) []any {
	return []any{scope, s.Player, s.Shape.Rows, s.Shape.Cols, s.Shape.K, s.R, s.RD, s.Sigma,
		s.Games, s.Wins, s.Losses, s.Draws, s.Streak, s.Best, s.UpdatedAt.UnixMilli()}
}

// RatingHistoryArgs are the values of QueryAddRatingHistory for the
// ratings rated that game g left in scope.
func RatingHistoryArgs(scope string, g *tttbot.Game, rated [2]tttbot.Standing) []any {
	return []any{scope, rated[0].Player, g.Rows, g.Cols, g.K, g.ID, rated[0].R, rated[0].RD, g.FinishedAt.UnixMilli(),
		rated[1].Player, rated[1].R, rated[1].RD}
}

// BotRecordArgs are the values of QueryBotRecord for finished game g
// against the bot.
func BotRecordArgs(g *tttbot.Game) []any {
	player, r := g.BotRecord()
	return []any{player, r.Level, r.Wins, r.Losses, r.Draws, g.FinishedAt.UnixMilli()}
}

// Page reads the rows of a leaderboard page (StandingColumns) starting at
// the offset-th entry into page.
func Page(rows Rows, offset int, page *tttbot.LeaderboardPage) error {
	for rows.Next() {
		s, err := Standing(rows)
		if err != nil {
			return err
		}
		s.Rank = offset + len(page.Standings) + 1
		page.Standings = append(page.Standings, s)
	}
	return rows.Err()
}

// Ratings reads the rows of QueryStats.
func Ratings(rows Rows) ([]tttbot.Standing, error) {
	return collect(rows, func(row Scanner) (tttbot.Standing, error) {
		var rank int
		s, err := Standing(row, &rank)
		s.Rank = rank
		return s, err
	})
}

// RatingHistories reads the rows of QueryRatingHistory, in the order of
// the shapes of ratings, one for each: as Stats.History lists them.
func RatingHistories(rows Rows, ratings []tttbot.Standing) ([]tttbot.RatingHistory, error) {
	byShape := map[tttbot.Shape][]tttbot.RatingPoint{}
	for rows.Next() {
		var s tttbot.Shape
		var p tttbot.RatingPoint
		var at int64
		if err := rows.Scan(&s.Rows, &s.Cols, &s.K, &p.R, &p.RD, &at); err != nil {
			return nil, err
		}
		p.At = FromMS(at)
		byShape[s] = append(byShape[s], p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []tttbot.RatingHistory
	for _, r := range ratings {
		out = append(out, tttbot.RatingHistory{Shape: r.Shape, Points: byShape[r.Shape]})
	}
	return out, nil
}

// BotRecords reads the rows of QueryBotRecords.
func BotRecords(rows Rows) ([]tttbot.BotRecord, error) {
	return collect(rows, func(row Scanner) (r tttbot.BotRecord, err error) {
		return r, row.Scan(&r.Level, &r.Wins, &r.Losses, &r.Draws)
	})
}

// Entries reads the rows of QueryHistory or QueryHistoryDM.
func Entries(rows Rows) ([]tttbot.HistoryEntry, error) {
	return collect(rows, func(row Scanner) (e tttbot.HistoryEntry, err error) {
		var at int64
		err = row.Scan(&e.GameID, &e.Shape.Rows, &e.Shape.Cols, &e.Shape.K, &e.Opponent, &e.BotLevel, &e.Outcome, &e.Reason, &at)
		e.FinishedAt = FromMS(at)
		return e, err
	})
}
