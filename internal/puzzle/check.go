package puzzle

import (
	"context"
	"fmt"
	"slices"

	"github.com/tttbot/tttbot"
)

// Check proves a puzzle with the solver: its rules (see Puzzle.Validate),
// and at each ply of its line that the position is won for the solver in
// the plies left; at the solver's turns that the stored winning moves are
// exactly the moves keeping a forced win, the first turn's all one move up
// to symmetry, and the move played among the fastest; at the defence's
// turns that the move is a longest resistance.
func Check(ctx context.Context, e Analyzer, p tttbot.Puzzle) error {
	if err := p.Validate(); err != nil {
		return err
	}
	pos, err := p.Position()
	if err != nil {
		return err
	}
	for i, m := range p.Line {
		a, err := analyze(ctx, e, pos)
		if err != nil {
			return fmt.Errorf("puzzle %s ply %d: %w", p.ID, i+1, err)
		}
		value, left := 1, len(p.Line)-i
		if i%2 == 1 {
			value = -1
		}
		switch {
		case a.Value != value || a.Plies != left:
			return fmt.Errorf("puzzle %s ply %d: the position's value is %d in %d plies, want %d in %d", p.ID, i+1, a.Value, a.Plies, value, left)
		case !slices.Contains(a.Best, m.Cell):
			return fmt.Errorf("puzzle %s ply %d: %d is not among the best moves %v", p.ID, i+1, m.Cell, a.Best)
		case i%2 == 0 && m.Wins != Wins(a):
			return fmt.Errorf("puzzle %s ply %d: stored winning moves %v, the solver's %v", p.ID, i+1, m.Wins.Cells(), Wins(a).Cells())
		case i == 0 && m.Wins != orbit(pos, 1<<m.Cell):
			return fmt.Errorf("puzzle %s: the first winning moves %v are not one move up to symmetry", p.ID, m.Wins.Cells())
		}
		if pos, err = pos.Play(m.Cell); err != nil {
			return fmt.Errorf("puzzle %s ply %d: %w", p.ID, i+1, err)
		}
	}
	return nil
}
