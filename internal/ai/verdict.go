package ai

import "slices"

// Verdict is what a review says of a move, judged against the analysis of
// the position it was played in.
type Verdict int

const (
	Best       Verdict = iota // it keeps the best result, as fast as any move
	Inaccuracy                // the same result, slower: a win that takes longer, a loss that comes sooner
	Mistake                   // it gives away a win or a draw
	Unsolved                  // the solver did not settle the position in time
)

// Verdict judges the move to cell in the position a analyzes.
func (a Analysis) Verdict(cell int) Verdict {
	i := slices.IndexFunc(a.Moves, func(m MoveValue) bool { return m.Cell == cell })
	switch {
	case !a.Proven || i < 0:
		return Unsolved
	case slices.Contains(a.Best, cell):
		return Best
	case a.Moves[i].Value == a.Value:
		return Inaccuracy
	}
	return Mistake
}
