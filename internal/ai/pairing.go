package ai

import "math/bits"

// Hales–Jewett pairings. Suppose every line a side could still complete
// gets two free cells of its own, the pairs disjoint, and that side is to
// move. The other side answers each move into a pair with the partner cell,
// so it ends up owning a cell of every such line: the first side cannot win.
// This proves n in a row on n×n a draw at once (the empty 5×5 board with k=5
// pairs its 12 lines within 25 cells) and cuts many endgames of every board
// short. The matching below finds such pairs whenever they exist.

// pairer finds disjoint pairs by bipartite matching: each line is two slots,
// each slot takes one free cell of its line.
type pairer struct {
	cand    [2 * maxLines]uint32 // free cells of each slot's line
	owner   [maxCells]int8       // slot holding each cell, -1 for none
	visited uint32
}

// maxLines bounds the lines of any board the bot offers (5×5 with k=3 has 48).
const maxLines = 48

// pairable reports whether the lines, given as their free cells, can each get
// two cells of their own.
func pairable(free []uint32) bool {
	var union uint32
	for _, f := range free {
		if bits.OnesCount32(f) < 2 {
			return false
		}
		union |= f
	}
	if 2*len(free) > bits.OnesCount32(union) {
		return false
	}
	var p pairer
	for i := range p.owner {
		p.owner[i] = -1
	}
	for i, f := range free {
		p.cand[2*i], p.cand[2*i+1] = f, f
	}
	for slot := range 2 * len(free) {
		p.visited = 0
		if !p.augment(int8(slot)) {
			return false
		}
	}
	return true
}

// augment finds a cell for slot, moving other slots along an augmenting path.
func (p *pairer) augment(slot int8) bool {
	for v := p.cand[slot] &^ p.visited; v != 0; v &= v - 1 {
		c := bits.TrailingZeros32(v)
		if p.visited&(1<<c) != 0 {
			continue
		}
		p.visited |= 1 << c
		if p.owner[c] < 0 || p.augment(p.owner[c]) {
			p.owner[c] = slot
			return true
		}
	}
	return false
}

// cannotWin reports whether the side to move (me) can be kept from completing
// any line by the opponent's pairing answers. It needs the lines me can still
// complete with the moves it has left, each with two free cells or more.
func (sh *shape) cannotWin(me, opp uint32, alive uint64) bool {
	empty := sh.full &^ (me | opp)
	myLeft := (bits.OnesCount32(empty) + 1) / 2
	var free [maxLines]uint32
	n := 0
	for a := alive; a != 0; a &= a - 1 {
		if l := sh.lines[bits.TrailingZeros64(a)]; l&opp == 0 && sh.k-bits.OnesCount32(l&me) <= myLeft {
			free[n] = l & empty
			n++
		}
	}
	return pairable(free[:n])
}
