package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
)

var _ tttbot.PuzzleStore = (*DB)(nil)

// AddPuzzles stores the puzzles not stored yet. See tttbot.PuzzleStore.
func (db *DB) AddPuzzles(ctx context.Context, ps []tttbot.Puzzle, at time.Time) (int, error) {
	if err := gamerow.CheckPuzzles(ps); err != nil {
		return 0, err
	}
	at = db.opts.At(at)
	added := 0
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		added = 0
		stmt, err := tx.PrepareContext(ctx, gamerow.QueryAddPuzzle)
		if err != nil {
			return fmt.Errorf("add puzzles: %w", err)
		}
		defer stmt.Close()
		for i := range ps {
			res, err := stmt.ExecContext(ctx, gamerow.PuzzleArgs(&ps[i], at)...)
			if err != nil {
				return fmt.Errorf("add puzzle %s: %w", ps[i].ID, err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return fmt.Errorf("add puzzle %s: %w", ps[i].ID, err)
			}
			added += int(n)
		}
		return nil
	})
	return added, err
}

// Puzzle returns a puzzle by ID. See tttbot.PuzzleStore.
func (db *DB) Puzzle(ctx context.Context, id string) (*tttbot.Puzzle, error) {
	return gamerow.Puzzle(db.r.QueryRowContext(uncancelled(ctx), gamerow.QueryPuzzle, id))
}

// NextPuzzle returns the unseen puzzle rated nearest r. See
// tttbot.PuzzleStore.
func (db *DB) NextPuzzle(ctx context.Context, player string, shape tttbot.Shape, r float64) (*tttbot.Puzzle, error) {
	ctx = uncancelled(ctx)
	if shape == (tttbot.Shape{}) {
		return gamerow.Puzzle(db.r.QueryRowContext(ctx, gamerow.QueryNextPuzzle, player, r))
	}
	return gamerow.Puzzle(db.r.QueryRowContext(ctx, gamerow.QueryNextPuzzleShape, player, r, shape.Rows, shape.Cols, shape.K))
}

// AttemptPuzzle records an attempt and rates a first one. See
// tttbot.PuzzleStore.
func (db *DB) AttemptPuzzle(ctx context.Context, a tttbot.PuzzleAttempt, player tttbot.Player) (tttbot.PuzzleAttempt, tttbot.PuzzleStanding, error) {
	a.At = db.opts.At(a.At)
	if err := tttbot.CheckAttempt(a); err != nil {
		return a, tttbot.PuzzleStanding{}, err
	}
	player.ID = a.Player
	var after tttbot.PuzzleStanding
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		puzzle, err := gamerow.PuzzleRating(tx.QueryRowContext(ctx, gamerow.QueryPuzzleRating, a.PuzzleID))
		if err != nil {
			return err
		}
		if err := savePlayer(ctx, tx, player, a.At); err != nil {
			return err
		}
		before, err := gamerow.PuzzleStandingOf(tx.QueryRowContext(ctx, gamerow.QueryPuzzleStandingOf, a.Player), a.Player)
		if err != nil {
			return err
		}
		var seen bool
		if err := tx.QueryRowContext(ctx, gamerow.QueryPuzzleSeen, a.Player, a.PuzzleID).Scan(&seen); err != nil {
			return fmt.Errorf("read attempts: %w", err)
		}
		a, after, puzzle = a.Rate(before, puzzle, seen)
		queries, args := gamerow.AttemptWrites(a, after, puzzle)
		for i, q := range queries {
			if _, err := tx.ExecContext(ctx, q, args[i]...); err != nil {
				return fmt.Errorf("record attempt: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return a, tttbot.PuzzleStanding{}, err
	}
	return a, after, nil
}

// PuzzleStanding returns a player's puzzle standing and rank. See
// tttbot.PuzzleStore.
func (db *DB) PuzzleStanding(ctx context.Context, player string) (tttbot.PuzzleStanding, error) {
	return gamerow.PuzzleStanding(db.r.QueryRowContext(uncancelled(ctx), gamerow.QueryPuzzleStanding, player), player)
}

// PuzzleLeaderboard returns a page of the puzzle leaderboard. See
// tttbot.PuzzleStore.
func (db *DB) PuzzleLeaderboard(ctx context.Context, offset, limit int) (tttbot.PuzzleLeaderboardPage, error) {
	return gamerow.ReadPuzzleLeaderboard(ctx, db.query, offset, limit)
}
