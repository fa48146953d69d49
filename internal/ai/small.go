package ai

import "math/bits"

// smallEntry is what the 3×3 table knows of a position, for the side to move.
type smallEntry struct {
	ok    bool // a legal position
	value int8
	plies int8
	best  uint16 // every move achieving value in plies
}

// buildSmall solves every position of 3×3 tic-tac-toe by plain minimax, so
// that a 3×3 move is a lookup. Positions are indexed by their cells in base 3.
func (e *Engine) buildSmall(sh *shape) []smallEntry {
	tab := make([]smallEntry, 19683)
	var solve func(me, opp uint32) smallEntry
	solve = func(me, opp uint32) smallEntry {
		x, o := me, opp
		if bits.OnesCount32(opp) > bits.OnesCount32(me) {
			x, o = opp, me
		}
		i := e.smallKey(x, o)
		if tab[i].ok {
			return tab[i]
		}
		e := smallEntry{ok: true}
		empty := sh.full &^ (me | opp)
		if !sh.wins(opp) && empty != 0 {
			bestV, bestP := -2, 0
			for v := empty; v != 0; v &= v - 1 {
				c := bits.TrailingZeros32(v)
				child := solve(opp, me|1<<c)
				mv, mp := -int(child.value), int(child.plies)+1
				if mv == 0 {
					mp = 0
				}
				switch {
				case better(mv, mp, bestV, bestP):
					bestV, bestP, e.best = mv, mp, 1<<c
				case mv == bestV && mp == bestP:
					e.best |= 1 << c
				}
			}
			e.value, e.plies = int8(bestV), int8(bestP)
		} else if sh.wins(opp) {
			e.value = -1
		}
		tab[i] = e
		return e
	}
	solve(0, 0)
	return tab
}

// better reports whether value v in p plies beats value w in q plies for the
// side to move: a win beats a draw beats a loss, a faster win beats a slower
// one and a slower loss a faster one.
func better(v, p, w, q int) bool {
	switch {
	case v != w:
		return v > w
	case v > 0:
		return p < q
	case v < 0:
		return p > q
	}
	return false
}
