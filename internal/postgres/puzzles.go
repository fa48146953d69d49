package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/rating"
)

var _ tttbot.PuzzleStore = (*DB)(nil)

const (
	// lockPuzzleAttempts serializes one player's attempts, so that two at
	// once at the same puzzle cannot both be the first.
	lockPuzzleAttempts = "SELECT pg_advisory_xact_lock(hashtextextended('puzzle ' || $1, 0))"
	// queryNamePlayer adds a player, or records their new name.
	queryNamePlayer = `INSERT INTO players (id, name, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
		WHERE excluded.name <> '' AND excluded.name <> players.name`
)

// AddPuzzles stores the puzzles not stored yet. See tttbot.PuzzleStore.
func (db *DB) AddPuzzles(ctx context.Context, ps []tttbot.Puzzle, at time.Time) (int, error) {
	if err := gamerow.CheckPuzzles(ps); err != nil {
		return 0, err
	}
	at = db.opts.At(at)
	added := 0
	err := db.write(ctx, func(ctx context.Context, t *tx) error {
		added = 0
		b := &pgx.Batch{}
		for i := range ps {
			b.Queue(gamerow.QueryAddPuzzle, gamerow.PuzzleArgs(&ps[i], at)...).Exec(func(ct pgconn.CommandTag) error {
				added += int(ct.RowsAffected())
				return nil
			})
		}
		if err := t.all(ctx, b); err != nil {
			return fmt.Errorf("add puzzles: %w", err)
		}
		return nil
	})
	return added, err
}

// Puzzle returns a puzzle by ID. See tttbot.PuzzleStore.
func (db *DB) Puzzle(ctx context.Context, id string) (p *tttbot.Puzzle, err error) {
	err = db.read(ctx, func() error {
		p, err = gamerow.Puzzle(db.pool.QueryRow(ctx, gamerow.QueryPuzzle, id))
		return err
	})
	return p, err
}

// NextPuzzle returns the unseen puzzle rated nearest r. See
// tttbot.PuzzleStore.
func (db *DB) NextPuzzle(ctx context.Context, player string, shape tttbot.Shape, r float64) (p *tttbot.Puzzle, err error) {
	query, args := gamerow.QueryNextPuzzle, []any{player, r}
	if shape != (tttbot.Shape{}) {
		query, args = gamerow.QueryNextPuzzleShape, append(args, shape.Rows, shape.Cols, shape.K)
	}
	err = db.read(ctx, func() error {
		p, err = gamerow.Puzzle(db.pool.QueryRow(ctx, query, args...))
		return err
	})
	return p, err
}

// AttemptPuzzle records an attempt and rates a first one. See
// tttbot.PuzzleStore.
func (db *DB) AttemptPuzzle(ctx context.Context, a tttbot.PuzzleAttempt, player tttbot.Player) (tttbot.PuzzleAttempt, tttbot.PuzzleStanding, error) {
	a.At = db.opts.At(a.At)
	if err := tttbot.CheckAttempt(a); err != nil {
		return a, tttbot.PuzzleStanding{}, err
	}
	var after tttbot.PuzzleStanding
	counted := a
	err := db.write(ctx, func(ctx context.Context, t *tx) error {
		var (
			puzzle    rating.Rating
			before    tttbot.PuzzleStanding
			seen      bool
			puzzleErr error
			standErr  error
		)
		b := &pgx.Batch{}
		b.Queue(lockPuzzleAttempts, a.Player)
		b.Queue(queryNamePlayer, a.Player, player.Name, a.At.UnixMilli())
		// The puzzle's row lock holds back other players' attempts at it
		// until this one has moved its rating.
		b.Queue(gamerow.QueryPuzzleRating+" FOR UPDATE", a.PuzzleID).QueryRow(func(row pgx.Row) error {
			puzzle, puzzleErr = gamerow.PuzzleRating(row)
			return nil
		})
		b.Queue(gamerow.QueryPuzzleStandingOf, a.Player).QueryRow(func(row pgx.Row) error {
			before, standErr = gamerow.PuzzleStandingOf(row, a.Player)
			return nil
		})
		b.Queue(gamerow.QueryPuzzleSeen, a.Player, a.PuzzleID).QueryRow(func(row pgx.Row) error { return row.Scan(&seen) })
		if err := t.begin(ctx, b); err != nil {
			return fmt.Errorf("read puzzle attempt: %w", err)
		}
		if err := errors.Join(puzzleErr, standErr); err != nil {
			return err
		}
		counted, after, puzzle = a.Rate(before, puzzle, seen)
		w := &pgx.Batch{}
		queries, args := gamerow.AttemptWrites(counted, after, puzzle)
		for i, q := range queries {
			w.Queue(q, args[i]...)
		}
		if err := t.commit(ctx, w); err != nil {
			return fmt.Errorf("record attempt: %w", err)
		}
		return nil
	})
	if errors.Is(err, errCommitted) {
		err = nil // the transaction that counted it committed
	}
	if err != nil {
		return a, tttbot.PuzzleStanding{}, err
	}
	return counted, after, nil
}

// PuzzleStanding returns a player's puzzle standing and rank. See
// tttbot.PuzzleStore.
func (db *DB) PuzzleStanding(ctx context.Context, player string) (s tttbot.PuzzleStanding, err error) {
	err = db.read(ctx, func() error {
		s, err = gamerow.PuzzleStanding(db.pool.QueryRow(ctx, gamerow.QueryPuzzleStanding, player), player)
		return err
	})
	return s, err
}

// PuzzleLeaderboard returns a page of the puzzle leaderboard. See
// tttbot.PuzzleStore.
func (db *DB) PuzzleLeaderboard(ctx context.Context, offset, limit int) (tttbot.PuzzleLeaderboardPage, error) {
	return gamerow.ReadPuzzleLeaderboard(ctx, db.query, offset, limit)
}
