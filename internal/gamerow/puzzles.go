package gamerow

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/rating"
)

// PuzzleColumns are a puzzle's columns, as Puzzle scans them.
const PuzzleColumns = `id, board_rows, board_cols, k, start, line, kind, coalesce(game_id, 0), rating, rd, sigma`

// The puzzle queries both engines run.
const (
	QueryAddPuzzle = `INSERT INTO puzzles (id, board_rows, board_cols, k, start, line, plies, kind, game_id,
			rating, rd, sigma, attempts, solves, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, 0, $13) ON CONFLICT (id) DO NOTHING`

	QueryPuzzle = `SELECT ` + PuzzleColumns + ` FROM puzzles WHERE id = $1`

	// The puzzle rated nearest $2 that player $1 has not attempted: the
	// nearest above and the nearest below, each a walk up or down the
	// rating index that skips the puzzles seen, then the nearer. The walks
	// read the index alone, which holds the IDs, and the puzzle's row is
	// read once, for the one chosen.
	// QueryNextPuzzleShape is the same among the puzzles of shape
	// $3×$4, K $5.
	QueryNextPuzzle = `SELECT ` + PuzzleColumns + ` FROM puzzles WHERE id = (SELECT id FROM (
			SELECT * FROM (SELECT id, rating FROM puzzles WHERE ` + unseen + ` AND rating >= $2
				ORDER BY rating LIMIT 1) AS up
			UNION ALL
			SELECT * FROM (SELECT id, rating FROM puzzles WHERE ` + unseen + ` AND rating < $2
				ORDER BY rating DESC LIMIT 1) AS down) AS near
		ORDER BY abs(rating - $2) LIMIT 1)`
	QueryNextPuzzleShape = `SELECT ` + PuzzleColumns + ` FROM puzzles WHERE id = (SELECT id FROM (
			SELECT * FROM (SELECT id, rating FROM puzzles WHERE ` + unseen + ` AND rating >= $2` + ofShape + `
				ORDER BY rating LIMIT 1) AS up
			UNION ALL
			SELECT * FROM (SELECT id, rating FROM puzzles WHERE ` + unseen + ` AND rating < $2` + ofShape + `
				ORDER BY rating DESC LIMIT 1) AS down) AS near
		ORDER BY abs(rating - $2) LIMIT 1)`
	unseen  = `NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.player_id = $1 AND a.puzzle_id = puzzles.id)`
	ofShape = ` AND board_rows = $3 AND board_cols = $4 AND k = $5`

	// A player's puzzle standing, its rank, whether they attempted puzzle
	// $2 before, and the puzzle's rating, read in an attempt's
	// transaction.
	QueryPuzzleStandingOf = `SELECT rating, rd, sigma, attempts, solves, streak, best_streak, updated_at
		FROM puzzle_ratings WHERE player_id = $1`
	QueryPuzzleSeen   = `SELECT EXISTS (SELECT 1 FROM puzzle_attempts WHERE player_id = $1 AND puzzle_id = $2)`
	QueryPuzzleRating = `SELECT rating, rd, sigma FROM puzzles WHERE id = $1`

	QuerySavePuzzleStanding = `INSERT INTO puzzle_ratings (player_id, rating, rd, sigma, attempts, solves, streak, best_streak, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (player_id) DO UPDATE SET
		rating = excluded.rating, rd = excluded.rd, sigma = excluded.sigma, attempts = excluded.attempts,
		solves = excluded.solves, streak = excluded.streak, best_streak = excluded.best_streak, updated_at = excluded.updated_at`
	QueryRatePuzzle = `UPDATE puzzles SET rating = $1, rd = $2, sigma = $3, attempts = attempts + 1, solves = solves + $4
		WHERE id = $5`
	// Two attempts at a puzzle in the same millisecond are one.
	QueryAddAttempt = `INSERT INTO puzzle_attempts (player_id, puzzle_id, at, solved, rated, plies, took_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`

	// A player's standing with its rank on the puzzle leaderboard: the
	// ranked players ahead, counted on the ranked index.
	QueryPuzzleStanding = `SELECT r.player_id, coalesce(p.name, ''), r.rating, r.rd, r.sigma, r.attempts, r.solves,
			r.streak, r.best_streak, r.updated_at,
			CASE WHEN r.attempts >= 5 THEN 1 + (SELECT count(*) FROM puzzle_ratings o
				WHERE o.attempts >= 5 AND (o.conservative, o.player_id) > (r.conservative, r.player_id)) ELSE 0 END
		FROM puzzle_ratings r LEFT JOIN players p ON p.id = r.player_id WHERE r.player_id = $1`

	// A page of the puzzle leaderboard, $1 players from the $2-th, and its
	// size: a walk down the ranked index.
	QueryPuzzleLeaderboard = `SELECT r.player_id, coalesce(p.name, ''), r.rating, r.rd, r.sigma, r.attempts, r.solves,
			r.streak, r.best_streak, r.updated_at, 0
		FROM puzzle_ratings r LEFT JOIN players p ON p.id = r.player_id WHERE r.attempts >= 5
		ORDER BY r.conservative DESC, r.player_id DESC LIMIT $1 OFFSET $2`
	QueryPuzzleLeaderboardTotal = `SELECT count(*) FROM puzzle_ratings WHERE attempts >= 5`

	// The erasure of player $1's puzzle rating and attempts.
	QueryErasePuzzleAttempts = `DELETE FROM puzzle_attempts WHERE player_id = $1`
	QueryErasePuzzleRating   = `DELETE FROM puzzle_ratings WHERE player_id = $1`
)

// Puzzle reads the PuzzleColumns of row; tttbot.ErrNoPuzzle when there is
// no row.
func Puzzle(row Scanner) (*tttbot.Puzzle, error) {
	var p tttbot.Puzzle
	var line string
	err := row.Scan(&p.ID, &p.Shape.Rows, &p.Shape.Cols, &p.Shape.K, &p.Start, &line, &p.Kind, &p.GameID, &p.R, &p.RD, &p.Sigma)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, tttbot.ErrNoPuzzle
	}
	if err != nil {
		return nil, fmt.Errorf("read puzzle: %w", err)
	}
	if p.Line, err = tttbot.ParseLine(line); err != nil {
		return nil, fmt.Errorf("read puzzle %s: %w", p.ID, err)
	}
	return &p, nil
}

// PuzzleArgs are the values of QueryAddPuzzle for p, stored at.
func PuzzleArgs(p *tttbot.Puzzle, at time.Time) []any {
	var game *int64
	if p.GameID != 0 {
		game = &p.GameID
	}
	return []any{p.ID, p.Shape.Rows, p.Shape.Cols, p.Shape.K, p.Start, tttbot.FormatLine(p.Line), p.Plies(),
		string(p.Kind), game, p.R, p.RD, p.Sigma, at.UnixMilli()}
}

// CheckPuzzles refuses puzzles that break the rules (see
// Puzzle.Validate) or are not rated, before any is stored.
func CheckPuzzles(ps []tttbot.Puzzle) error {
	for i := range ps {
		if err := ps[i].Validate(); err != nil {
			return err
		}
		if ps[i].RD <= 0 || ps[i].Sigma <= 0 {
			return tttbot.Errorf(tttbot.EINVALID, "puzzle %s has no rating", ps[i].ID)
		}
	}
	return nil
}

// PuzzleStandingOf reads the row of QueryPuzzleStandingOf for player: a
// zero standing but for the player when there is none.
func PuzzleStandingOf(row Scanner, player string) (tttbot.PuzzleStanding, error) {
	s := tttbot.PuzzleStanding{Player: player}
	var updated int64
	err := row.Scan(&s.R, &s.RD, &s.Sigma, &s.Attempts, &s.Solves, &s.Streak, &s.Best, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read puzzle rating: %w", err)
	}
	s.UpdatedAt = FromMS(updated)
	return s, nil
}

// PuzzleStanding reads the row of QueryPuzzleStanding for player.
func PuzzleStanding(row Scanner, player string) (tttbot.PuzzleStanding, error) {
	s := tttbot.PuzzleStanding{Player: player}
	var updated int64
	err := row.Scan(&s.Player, &s.Name, &s.R, &s.RD, &s.Sigma, &s.Attempts, &s.Solves, &s.Streak, &s.Best, &updated, &s.Rank)
	if errors.Is(err, sql.ErrNoRows) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("read puzzle standing: %w", err)
	}
	s.UpdatedAt = FromMS(updated)
	return s, nil
}

// PuzzleRating reads the row of QueryPuzzleRating; tttbot.ErrNoPuzzle
// when there is none.
func PuzzleRating(row Scanner) (rating.Rating, error) {
	var r rating.Rating
	err := row.Scan(&r.R, &r.RD, &r.Sigma)
	if errors.Is(err, sql.ErrNoRows) {
		return r, tttbot.ErrNoPuzzle
	}
	if err != nil {
		return r, fmt.Errorf("read puzzle rating: %w", err)
	}
	return r, nil
}

// AttemptWrites are the statements and values that store attempt a,
// counted (see PuzzleAttempt.Rate): the player's standing and the
// puzzle's rating when it is rated, then the attempt.
func AttemptWrites(a tttbot.PuzzleAttempt, s tttbot.PuzzleStanding, puzzle rating.Rating) (queries []string, args [][]any) {
	if a.Rated {
		solved := 0
		if a.Solved {
			solved = 1
		}
		queries = append(queries, QuerySavePuzzleStanding, QueryRatePuzzle)
		args = append(args,
			[]any{a.Player, s.R, s.RD, s.Sigma, s.Attempts, s.Solves, s.Streak, s.Best, s.UpdatedAt.UnixMilli()},
			[]any{puzzle.R, puzzle.RD, puzzle.Sigma, solved, a.PuzzleID})
	}
	queries = append(queries, QueryAddAttempt)
	args = append(args, []any{a.Player, a.PuzzleID, a.At.UnixMilli(), a.Solved, a.Rated, a.Plies, a.Took.Milliseconds()})
	return queries, args
}

// PuzzleLeaderboard reads the rows of QueryPuzzleLeaderboard into page,
// ranked from offset.
func PuzzleLeaderboard(rows Rows, offset int, page *tttbot.PuzzleLeaderboardPage) error {
	for rows.Next() {
		s, err := PuzzleStanding(rows, "")
		if err != nil {
			return err
		}
		s.Rank = offset + len(page.Standings) + 1
		page.Standings = append(page.Standings, s)
	}
	return rows.Err()
}

// ReadPuzzleLeaderboard reads a page of the puzzle leaderboard through q.
func ReadPuzzleLeaderboard(ctx context.Context, q Query, offset, limit int) (tttbot.PuzzleLeaderboardPage, error) {
	var page tttbot.PuzzleLeaderboardPage
	if offset < 0 || limit <= 0 {
		return page, tttbot.ErrBadPage
	}
	err := q(ctx, func(rows Rows) error { return PuzzleLeaderboard(rows, offset, &page) }, QueryPuzzleLeaderboard, limit, offset)
	if err == nil {
		err = q(ctx, func(rows Rows) error {
			if rows.Next() {
				if err := rows.Scan(&page.Total); err != nil {
					return err
				}
			}
			return rows.Err()
		}, QueryPuzzleLeaderboardTotal)
	}
	if err != nil {
		return page, fmt.Errorf("read puzzle leaderboard: %w", err)
	}
	return page, nil
}
