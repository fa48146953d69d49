package puzzle

import (
	"context"
	"fmt"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
)

// The shortest wins worth a puzzle: a missed win in 3 plies (a fork) is a
// lesson, but a found one is a win in one move away from obvious.
const (
	MinMissedPlies = 3
	MinFoundPlies  = 5
)

// Mine walks the moves of a game on g, cells in order, and returns the
// puzzles of its positions, each once: every position where the player to
// move had a forced win of MinMissedPlies or more and did not play a
// winning move, and the first position of each run of forced wins of
// MinFoundPlies or more that the player kept. Only positions with a real
// answer make puzzles (see Solve). gameID is the game they come from.
func Mine(ctx context.Context, e Analyzer, g *game.Geometry, moves []int, gameID int64) ([]tttbot.Puzzle, error) {
	return mine(ctx, e, g, moves, gameID, 0)
}

// mine is Mine keeping only wins of least plies or more.
func mine(ctx context.Context, e Analyzer, g *game.Geometry, moves []int, gameID int64, least int) ([]tttbot.Puzzle, error) {
	// The value of every position first, each for its side to move: the
	// move from position i kept a forced win when position i+1 is lost.
	positions := make([]game.Position, len(moves)+1)
	values := make([]int, len(moves)+1)
	positions[0] = game.NewPosition(g)
	for i := range positions {
		if i > 0 {
			var err error
			if positions[i], err = positions[i-1].Play(moves[i-1]); err != nil {
				return nil, fmt.Errorf("game %d move %d: %w", gameID, i, err)
			}
		}
		v, proven, err := e.Value(ctx, positions[i])
		if err := searchErr(positions[i], proven, err); err != nil {
			return nil, fmt.Errorf("game %d: %w", gameID, err)
		}
		values[i] = v
	}
	var out []tttbot.Puzzle
	seen := map[string]bool{}
	for i := range moves {
		kept := values[i+1] == -1
		kind, short := tttbot.PuzzleMissed, MinMissedPlies
		switch {
		case values[i] != 1:
			continue
		case kept && i >= 2 && values[i-2] == 1 && values[i-1] == -1:
			continue // a forced win the player had at their last turn and kept
		case kept:
			kind, short = tttbot.PuzzleFound, MinFoundPlies
		}
		if seen[tttbot.PuzzleID(positions[i])] {
			continue
		}
		p, ok, err := Solve(ctx, e, positions[i], max(short, least))
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", gameID, err)
		}
		if ok {
			seen[p.ID] = true
			p.Kind, p.GameID = kind, gameID
			r := p.EstimateRating()
			p.R, p.RD, p.Sigma = r.R, r.RD, r.Sigma
			out = append(out, p)
		}
	}
	return out, nil
}

// MineGame mines a finished game of the store's (see Mine).
func MineGame(ctx context.Context, e Analyzer, g *tttbot.Game, moves []tttbot.Move) ([]tttbot.Puzzle, error) {
	geo, err := game.NewGeometry(g.Rows, g.Cols, g.K)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	cells := make([]int, len(moves))
	for i, m := range moves {
		cells[i] = m.Cell
	}
	return Mine(ctx, e, geo, cells, g.ID)
}
