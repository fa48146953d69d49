// Package puzzle finds puzzles with the solver: it turns a position with a
// forced win into a tttbot.Puzzle, mines finished games for the wins their
// players missed or found, generates puzzles from games it plays itself,
// checks a puzzle against the solver, and holds the starter set that ships
// with the bot.
package puzzle

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

// Analyzer is the solver: *ai.Engine. Analyze values every move of a
// position, Value the position alone, for sifting many.
type Analyzer interface {
	Analyze(ctx context.Context, p game.Position) (ai.Analysis, error)
	Value(ctx context.Context, p game.Position) (value int, proven bool, err error)
	WinsWithin(ctx context.Context, p game.Position, plies int) (wins, proven bool, err error)
}

// ErrUnproven is returned when the solver's time budget ran out before it
// proved a position's value: no puzzle is made of a guess.
var ErrUnproven = errors.New("the solver ran out of time")

// Solve makes the puzzle of pos when the side to move has a forced win of
// minPlies or more whose winning moves are one move up to the position's
// symmetries, and reports false otherwise. The puzzle's kind, game and
// rating are left to the caller.
func Solve(ctx context.Context, e Analyzer, pos game.Position, minPlies int) (tttbot.Puzzle, bool, error) {
	// Most positions fail on the length of the win or on its moves: the
	// cheap searches first, and Analyze only for a puzzle.
	if minPlies > 1 {
		short, proven, err := e.WinsWithin(ctx, pos, minPlies-1)
		if err != nil || !proven || short {
			return tttbot.Puzzle{}, false, searchErr(pos, proven, err)
		}
	}
	if ok, err := oneWin(ctx, e, pos); !ok || err != nil {
		return tttbot.Puzzle{}, false, err
	}
	a, err := analyze(ctx, e, pos)
	if err != nil {
		return tttbot.Puzzle{}, false, err
	}
	g := pos.Geometry()
	p := tttbot.Puzzle{
		ID:    tttbot.PuzzleID(pos),
		Shape: tttbot.Shape{Rows: g.Rows, Cols: g.Cols, K: g.K},
		Start: pos.String(),
	}
	for cur := pos; ; {
		m := tttbot.PuzzleMove{Cell: a.Best[0], Wins: Wins(a)}
		if len(p.Line)%2 == 1 {
			m = tttbot.PuzzleMove{Cell: Defence(a)}
		}
		p.Line = append(p.Line, m)
		if cur, err = cur.Play(m.Cell); err != nil {
			return tttbot.Puzzle{}, false, fmt.Errorf("puzzle %s: %w", p.ID, err)
		}
		if cur.Result().Over {
			break
		}
		if a, err = analyze(ctx, e, cur); err != nil {
			return tttbot.Puzzle{}, false, err
		}
	}
	return p, true, nil
}

// oneWin reports whether pos has winning moves, all equal up to its
// symmetries. It stops at the first winning move unlike the first.
func oneWin(ctx context.Context, e Analyzer, pos game.Position) (bool, error) {
	var same game.Mask // the first winning move's images
	for _, c := range byThreat(pos) {
		if same.Has(c) {
			continue
		}
		next, err := pos.Play(c)
		if err != nil {
			return false, err
		}
		v, proven, err := e.Value(ctx, next)
		switch {
		case err != nil || !proven:
			return false, searchErr(next, proven, err)
		case v == -1 && same != 0:
			return false, nil
		case v == -1:
			same = orbit(pos, 1<<c)
		}
	}
	return same != 0, nil
}

// byThreat lists the free cells of pos, the likeliest winning moves
// first: those on the most lines either side still may complete, a line
// counting four times more for each piece on it. A second winning move
// then turns up early, and ends oneWin's search.
func byThreat(pos game.Position) []int {
	g := pos.Geometry()
	cells := pos.Moves()
	weight := make([]int, g.Cells())
	for _, c := range cells {
		for _, l := range g.LinesThrough(c) {
			x, o := (l & pos.X()).Count(), (l & pos.O()).Count()
			switch {
			case o == 0:
				weight[c] += 1 << (2 * x)
			case x == 0:
				weight[c] += 1 << (2 * o)
			}
		}
	}
	slices.SortStableFunc(cells, func(a, b int) int { return weight[b] - weight[a] })
	return cells
}

// searchErr is the error of a search of pos: err, or ErrUnproven when it
// ran out of time.
func searchErr(pos game.Position, proven bool, err error) error {
	switch {
	case err != nil:
		return fmt.Errorf("search %s: %w", pos, err)
	case !proven:
		return fmt.Errorf("search %s: %w", pos, ErrUnproven)
	}
	return nil
}

// analyze is Analyze, refusing an unproven answer.
func analyze(ctx context.Context, e Analyzer, pos game.Position) (ai.Analysis, error) {
	a, err := e.Analyze(ctx, pos)
	return a, searchErr(pos, err == nil && a.Proven, err)
}

// Wins is every move of an analyzed position that keeps a forced win.
func Wins(a ai.Analysis) game.Mask {
	var m game.Mask
	for _, mv := range a.Moves {
		if mv.Value == 1 {
			m |= 1 << mv.Cell
		}
	}
	return m
}

// Defence is the longest resistance of an analyzed position that is lost:
// the move that loses in the most plies, the lowest cell among equals, so
// that the bot's answers are the puzzle's stored ones.
func Defence(a ai.Analysis) int {
	best := slices.MaxFunc(a.Moves, func(x, y ai.MoveValue) int {
		if x.Plies != y.Plies {
			return x.Plies - y.Plies
		}
		return y.Cell - x.Cell
	})
	return best.Cell
}

// orbit is the cells that the symmetries fixing pos send m's cells to:
// moves that are the same move to a player.
func orbit(pos game.Position, m game.Mask) game.Mask {
	out := m
	for s, perm := range pos.Geometry().Symmetries() {
		if s > 0 && pos.Map(s) == pos {
			out |= m.Map(perm)
		}
	}
	return out
}
