package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/rating"
)

// The rating queries. The repeated "games >= 5" is the condition of the
// ratings_ranked partial index, which the planner uses only when a query
// states it.
const (
	// A new player's rows, so that the pair can be locked: two games
	// finishing at once for one player then rate one after the other
	// rather than both from nothing.
	queryRatingDefaults = `INSERT INTO ratings (scope, player_id, board_rows, board_cols, k,
		rating, rd, sigma, games, wins, losses, draws, streak, best_streak, updated_at)
		VALUES ($1, $2, $4, $5, $6, $7, $8, $9, 0, 0, 0, 0, 0, 0, $10), ($1, $3, $4, $5, $6, $7, $8, $9, 0, 0, 0, 0, 0, 0, $10)
		ON CONFLICT DO NOTHING`
	queryRatingPair = `SELECT player_id, rating, rd, sigma, games, wins, losses, draws, streak, best_streak, updated_at
		FROM ratings WHERE scope = $1 AND player_id IN ($2, $3) AND board_rows = $4 AND board_cols = $5 AND k = $6
		ORDER BY player_id FOR UPDATE`
	queryRatingUpdate = `UPDATE ratings SET rating = $6, rd = $7, sigma = $8, games = $9, wins = $10, losses = $11,
		draws = $12, streak = $13, best_streak = $14, updated_at = $15
		WHERE scope = $1 AND player_id = $2 AND board_rows = $3 AND board_cols = $4 AND k = $5`
	queryBotRecord = `INSERT INTO bot_records (player_id, bot_level, wins, losses, draws, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (player_id, bot_level) DO UPDATE SET
		wins = bot_records.wins + excluded.wins, losses = bot_records.losses + excluded.losses,
		draws = bot_records.draws + excluded.draws, updated_at = excluded.updated_at`

	// The bands above the leaderboard's offset-th entry ($5) and the band
	// holding it.
	leaderboardBands = `bands AS (
			SELECT band, players, sum(players) OVER (ORDER BY band DESC ROWS UNBOUNDED PRECEDING) - players AS above
			FROM rating_counts WHERE scope = $1 AND board_rows = $2 AND board_cols = $3 AND k = $4),
		start AS (SELECT band, above FROM bands WHERE above + players > $5 ORDER BY band DESC LIMIT 1)`
	queryLeaderboardTotal = `SELECT coalesce(sum(players), 0) FROM rating_counts
		WHERE scope = $1 AND board_rows = $2 AND board_cols = $3 AND k = $4`
	// A page from the top of its first band: the keys off the index alone,
	// then their rows.
	queryLeaderboardPage = `WITH ` + leaderboardBands + `,
		page AS (
			SELECT o.player_id FROM start, LATERAL (
				SELECT player_id, conservative FROM ratings
				WHERE scope = $1 AND board_rows = $2 AND board_cols = $3 AND k = $4 AND games >= 5
					AND conservative < (start.band + 1) * 16
				ORDER BY conservative DESC, player_id DESC LIMIT $6 OFFSET $5 - start.above) o)
		SELECT ` + standingColumns + ` FROM page
		JOIN ratings r ON r.scope = $1 AND r.player_id = page.player_id AND r.board_rows = $2 AND r.board_cols = $3 AND r.k = $4
		LEFT JOIN players p ON p.id = r.player_id
		ORDER BY r.conservative DESC, r.player_id DESC`

	// A player's ratings in a scope, each with its rank: the players in the
	// bands above, plus those ahead in the player's own band.
	queryStats = `SELECT ` + standingColumns + `,
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

	queryBotRecords = `SELECT bot_level, wins, losses, draws FROM bot_records WHERE player_id = $1 ORDER BY bot_level`

	// A player's history in a guild, and in DMs: two queries, since
	// "guild_id IS NOT DISTINCT FROM $2" would not use the index.
	historyColumns = `SELECT r.game_id, g.board_rows, g.board_cols, g.k, r.opponent_id, coalesce(r.bot_level, ''),
			r.outcome, r.reason, r.finished_at
		FROM results r JOIN games g ON g.id = r.game_id`
	queryHistory   = historyColumns + ` WHERE r.player_id = $1 AND r.guild_id = $2 ORDER BY r.finished_at DESC, r.game_id DESC LIMIT $3`
	queryHistoryDM = historyColumns + ` WHERE r.player_id = $1 AND r.guild_id IS NULL ORDER BY r.finished_at DESC, r.game_id DESC LIMIT $2`

	// A read-only snapshot, so that several statements of a page agree.
	beginSnapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
)

const standingColumns = `r.player_id, coalesce(p.name, ''), r.board_rows, r.board_cols, r.k,
	r.rating, r.rd, r.sigma, r.games, r.wins, r.losses, r.draws, r.streak, r.best_streak, r.updated_at`

// rate records a game that just finished, in its transaction t: between
// two people, in both players' ratings in its guild and globally; against
// the bot, in the human's record at its level. The writes go on w.
func rate(ctx context.Context, t *tx, g *tttbot.Game, w *pgx.Batch) error {
	if g.VsBot() {
		player, r := g.BotRecord()
		w.Queue(queryBotRecord, player, r.Level, r.Wins, r.Losses, r.Draws, g.FinishedAt.UnixMilli())
		return nil
	}
	scopes := g.Scopes()
	// Players in ID order, as every game locks them.
	players := []string{g.Challenger, g.Opponent}
	slices.Sort(players)
	d := rating.Default()
	b := &pgx.Batch{}
	recs := make([][2]tttbot.Standing, len(scopes))
	for i, scope := range scopes {
		b.Queue(queryRatingDefaults, scope, players[0], players[1], g.Rows, g.Cols, g.K, d.R, d.RD, d.Sigma, g.FinishedAt.UnixMilli())
		b.Queue(queryRatingPair, scope, players[0], players[1], g.Rows, g.Cols, g.K).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var s tttbot.Standing
				var updated int64
				if err := rows.Scan(&s.Player, &s.R, &s.RD, &s.Sigma, &s.Games, &s.Wins, &s.Losses, &s.Draws, &s.Streak, &s.Best, &updated); err != nil {
					return err
				}
				s.UpdatedAt = fromMS(updated)
				recs[i][b2i(s.Player == g.Opponent)] = s
			}
			return rows.Err()
		})
	}
	if err := t.c.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("read ratings: %w", err)
	}
	for i, scope := range scopes {
		for _, s := range g.Rate(recs[i]) {
			w.Queue(queryRatingUpdate, scope, s.Player, s.Shape.Rows, s.Shape.Cols, s.Shape.K, s.R, s.RD, s.Sigma,
				s.Games, s.Wins, s.Losses, s.Draws, s.Streak, s.Best, s.UpdatedAt.UnixMilli())
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// scanStanding reads the standingColumns of a row, then extra.
func scanStanding(row pgx.Row, extra ...any) (tttbot.Standing, error) {
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

// snapshot runs the statements of b in one read-only snapshot, in one
// round trip.
func (db *DB) snapshot(ctx context.Context, b *pgx.Batch) error {
	all := &pgx.Batch{}
	all.Queue(beginSnapshot)
	all.QueuedQueries = append(all.QueuedQueries, b.QueuedQueries...)
	all.Queue("COMMIT")
	c, err := db.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	if err := c.SendBatch(ctx, all).Close(); err != nil {
		// The snapshot may still be open: the connection must not go
		// back to the pool in it.
		if _, rerr := c.Exec(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
			c.Conn().Close(context.WithoutCancel(ctx))
		}
		return err
	}
	return nil
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
	b := &pgx.Batch{}
	b.Queue(queryLeaderboardTotal, scope, shape.Rows, shape.Cols, shape.K).QueryRow(func(row pgx.Row) error {
		return row.Scan(&page.Total)
	})
	b.Queue(queryLeaderboardPage, scope, shape.Rows, shape.Cols, shape.K, int64(offset), limit).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			s, err := scanStanding(rows)
			if err != nil {
				return err
			}
			s.Rank = offset + len(page.Standings) + 1
			page.Standings = append(page.Standings, s)
		}
		return rows.Err()
	})
	if err := db.snapshot(ctx, b); err != nil {
		return tttbot.LeaderboardPage{}, fmt.Errorf("read leaderboard: %w", err)
	}
	return page, nil
}

// Stats returns player's ratings in scope with their ranks, and their record
// against the bot. See tttbot.RatingStore.
func (db *DB) Stats(ctx context.Context, scope, player string) (*tttbot.Stats, error) {
	st := &tttbot.Stats{Player: player}
	b := &pgx.Batch{}
	b.Queue(queryStats, scope, player).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var rank int
			s, err := scanStanding(rows, &rank)
			if err != nil {
				return err
			}
			s.Rank = rank
			st.Ratings = append(st.Ratings, s)
		}
		return rows.Err()
	})
	b.Queue(queryBotRecords, player).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var r tttbot.BotRecord
			if err := rows.Scan(&r.Level, &r.Wins, &r.Losses, &r.Draws); err != nil {
				return err
			}
			st.VsBot = append(st.VsBot, r)
		}
		return rows.Err()
	})
	if err := db.snapshot(ctx, b); err != nil {
		return nil, fmt.Errorf("read stats: %w", err)
	}
	return st, nil
}

// History returns player's last finished games in guildID, newest first.
func (db *DB) History(ctx context.Context, player, guildID string, limit int) ([]tttbot.HistoryEntry, error) {
	if limit <= 0 {
		return nil, tttbot.Errorf(tttbot.EINVALID, "a history lists at least one game")
	}
	var rows pgx.Rows
	var err error
	if guildID == "" {
		rows, err = db.pool.Query(ctx, queryHistoryDM, player, limit)
	} else {
		rows, err = db.pool.Query(ctx, queryHistory, player, guildID, limit)
	}
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
