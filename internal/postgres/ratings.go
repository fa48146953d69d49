package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
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
	queryRatingPair   = gamerow.QueryRatingPair + " ORDER BY player_id FOR UPDATE"
	queryRatingUpdate = `UPDATE ratings SET rating = $6, rd = $7, sigma = $8, games = $9, wins = $10, losses = $11,
		draws = $12, streak = $13, best_streak = $14, updated_at = $15
		WHERE scope = $1 AND player_id = $2 AND board_rows = $3 AND board_cols = $4 AND k = $5`
	// The bands above the leaderboard's offset-th entry ($5) and the band
	// holding it.
	leaderboardBands = `bands AS (
			SELECT band, players, sum(players) OVER (ORDER BY band DESC ROWS UNBOUNDED PRECEDING) - players AS above
			FROM rating_counts WHERE scope = $1 AND board_rows = $2 AND board_cols = $3 AND k = $4),
		start AS (SELECT band, above FROM bands WHERE above + players > $5 ORDER BY band DESC LIMIT 1)`
	// A page from the top of its first band: the keys off the index alone,
	// then their rows.
	queryLeaderboardPage = `WITH ` + leaderboardBands + `,
		page AS (
			SELECT o.player_id FROM start, LATERAL (
				SELECT player_id, conservative FROM ratings
				WHERE scope = $1 AND board_rows = $2 AND board_cols = $3 AND k = $4 AND games >= 5
					AND conservative < (start.band + 1) * 16
				ORDER BY conservative DESC, player_id DESC LIMIT $6 OFFSET $5 - start.above) o)
		SELECT ` + gamerow.StandingColumns + ` FROM page
		JOIN ratings r ON r.scope = $1 AND r.player_id = page.player_id AND r.board_rows = $2 AND r.board_cols = $3 AND r.k = $4
		LEFT JOIN players p ON p.id = r.player_id
		ORDER BY r.conservative DESC, r.player_id DESC`

	// A read-only snapshot, so that several statements of a page agree.
	beginSnapshot = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
)

// rate records a game that just finished, in its transaction t: between
// two people, in both players' ratings in its guild and globally; against
// the bot, in the human's record at its level, unless it had a hint. The
// writes go on w.
func rate(ctx context.Context, t *tx, g *tttbot.Game, w *pgx.Batch) error {
	if g.VsBot() {
		if g.InBotRecord() {
			w.Queue(gamerow.QueryBotRecord, gamerow.BotRecordArgs(g)...)
		}
		return nil
	}
	scopes := g.Scopes()
	if len(scopes) == 0 {
		return nil // unrated
	}
	// Players in ID order, as every game locks them.
	players := []string{g.Challenger, g.Opponent}
	slices.Sort(players)
	d := rating.Default()
	b := &pgx.Batch{}
	recs := make([][2]tttbot.Standing, len(scopes))
	for i, scope := range scopes {
		b.Queue(queryRatingDefaults, scope, players[0], players[1], g.Rows, g.Cols, g.K, d.R, d.RD, d.Sigma, g.FinishedAt.UnixMilli())
		b.Queue(queryRatingPair, scope, players[0], players[1], g.Rows, g.Cols, g.K).Query(func(rows pgx.Rows) (err error) {
			recs[i], err = gamerow.Pair(rows, g)
			return err
		})
	}
	if err := t.c.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("read ratings: %w", err)
	}
	for i, scope := range scopes {
		rated := g.Rate(recs[i])
		for _, s := range rated {
			w.Queue(queryRatingUpdate, gamerow.RatingArgs(scope, s)...)
		}
		w.Queue(gamerow.QueryAddRatingHistory, gamerow.RatingHistoryArgs(scope, g, rated)...)
	}
	return nil
}

// snapshot runs the statements of b in one read-only snapshot, in one
// round trip.
func (db *DB) snapshot(ctx context.Context, b *pgx.Batch) error {
	return db.read(ctx, func() error { return db.snapshotOnce(ctx, b) })
}

// snapshotOnce is one run of snapshot. Its batch is new each run: pgx
// keeps in a queued query the statement as the connection prepared it.
func (db *DB) snapshotOnce(ctx context.Context, b *pgx.Batch) error {
	all := &pgx.Batch{}
	all.Queue(beginSnapshot)
	for _, q := range b.QueuedQueries {
		all.QueuedQueries = append(all.QueuedQueries, &pgx.QueuedQuery{SQL: q.SQL, Arguments: q.Arguments, Fn: q.Fn})
	}
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
	if err := tttbot.CheckPage(shape, offset, limit); err != nil {
		return page, err
	}
	b := &pgx.Batch{}
	b.Queue(gamerow.QueryLeaderboardTotal, scope, shape.Rows, shape.Cols, shape.K).QueryRow(func(row pgx.Row) error {
		return row.Scan(&page.Total)
	})
	b.Queue(queryLeaderboardPage, scope, shape.Rows, shape.Cols, shape.K, int64(offset), limit).Query(func(rows pgx.Rows) error {
		page.Standings = nil // a snapshot run again after a lost connection reads them again
		return gamerow.Page(rows, offset, &page)
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
	b.Queue(gamerow.QueryStats, scope, player).Query(func(rows pgx.Rows) (err error) {
		st.Ratings, err = gamerow.Ratings(rows)
		return err
	})
	b.Queue(gamerow.QueryBotRecords, player).Query(func(rows pgx.Rows) (err error) {
		st.VsBot, err = gamerow.BotRecords(rows)
		return err
	})
	b.Queue(gamerow.QueryRatingHistory, scope, player, tttbot.RatingHistoryLimit).Query(func(rows pgx.Rows) (err error) {
		st.History, err = gamerow.RatingHistories(rows, st.Ratings)
		return err
	})
	if err := db.snapshot(ctx, b); err != nil {
		return nil, fmt.Errorf("read stats: %w", err)
	}
	return st, nil
}

// History returns player's last finished games in guildID, newest first.
func (db *DB) History(ctx context.Context, player, guildID string, limit int) ([]tttbot.HistoryEntry, error) {
	return gamerow.ReadHistory(ctx, db.query, player, guildID, limit)
}
