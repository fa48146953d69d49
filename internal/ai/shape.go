package ai

import (
	"math/bits"

	"github.com/tttbot/tttbot/internal/game"
)

// maxCells is the largest board the bot offers, 5×5.
const maxCells = game.MaxSize * game.MaxSize

// numShapes counts every (rows, cols, k) the rules allow, as indexed by shapeID.
const numShapes = 3 * 3 * 3

// shapeID numbers a geometry 0..26; it is part of every table key, so one
// table serves all boards.
func shapeID(rows, cols, k int) int {
	return (rows-game.MinSize)*9 + (cols-game.MinSize)*3 + (k - game.MinK)
}

// shape is the search's view of a geometry: its lines as plain masks, its
// symmetries as cell permutations.
type shape struct {
	rows, cols, k, cells int
	id                   uint64
	full                 uint32
	lines                []uint32
	allLines             uint64 // a bit per line: the lines still alive at the start
	nsym                 int
	perm                 [8][maxCells]int8   // perm[s][c]: the cell symmetry s sends c to
	inv                  [8][maxCells]int8   // the inverse of perm[s]
	bit                  [8][maxCells]uint64 // 1 << perm[s][c], for the symmetric keys
}

func newShape(g *game.Geometry) *shape {
	sh := &shape{
		rows: g.Rows, cols: g.Cols, k: g.K, cells: g.Cells(),
		id:   uint64(shapeID(g.Rows, g.Cols, g.K)),
		full: uint32(g.Full()),
	}
	for _, l := range g.Lines() {
		sh.lines = append(sh.lines, uint32(l))
	}
	sh.allLines = 1<<len(sh.lines) - 1
	// The rules' symmetries (game.Geometry.Symmetries): a rectangle has
	// 4, a square 8.
	syms := g.Symmetries()
	sh.nsym = len(syms)
	for s, perm := range syms {
		for from, to := range perm {
			sh.perm[s][from] = int8(to)
			sh.inv[s][to] = int8(from)
			sh.bit[s][from] = 1 << to
		}
	}
	return sh
}

// keys returns the position (x, o) seen through each symmetry, X in the high
// 32 bits. Playing a cell ORs sh.bit into every key, so search keeps them
// up to date with a few instructions per move.
func (sh *shape) keys(x, o uint32) [8]uint64 {
	var ks [8]uint64
	for s := range sh.nsym {
		for v := x; v != 0; v &= v - 1 {
			ks[s] |= sh.bit[s][bits.TrailingZeros32(v)] << 32
		}
		for v := o; v != 0; v &= v - 1 {
			ks[s] |= sh.bit[s][bits.TrailingZeros32(v)]
		}
	}
	return ks
}

// canonical returns the least of the symmetric keys and the symmetry that
// gives it: the same for every position equal up to symmetry.
func (sh *shape) canonical(ks *[8]uint64) (uint64, int) {
	best, sym := ks[0], 0
	for s := 1; s < sh.nsym; s++ {
		if ks[s] < best {
			best, sym = ks[s], s
		}
	}
	return best, sym
}

// wins reports whether m holds a complete line.
func (sh *shape) wins(m uint32) bool {
	for _, l := range sh.lines {
		if m&l == l {
			return true
		}
	}
	return false
}

// facts are what one pass over the lines tells about a position, seen by the
// side to move ("me"): the cells that win at once for either side, whether
// either side can still complete a line with the moves it has left, the cells
// that lie on such a line, and each side's lines two moves from done.
type facts struct {
	myWins, oppWins   uint32
	myOpen, oppOpen   bool
	live              uint32
	myTwos, oppTwos   [maxLines]uint32 // free cells of such lines
	nMyTwos, nOppTwos int
	alive             uint64 // the lines either side can still complete
}

// facts looks at the lines in alive only: a line that neither side can
// complete stays so for the rest of the game, so searches pass the alive
// set down and deep nodes look at few lines.
func (sh *shape) facts(me, opp uint32, alive uint64, f *facts) {
	f.myWins, f.oppWins, f.myOpen, f.oppOpen, f.live, f.nMyTwos, f.nOppTwos = 0, 0, false, false, 0, 0, 0
	empty := sh.full &^ (me | opp)
	n := bits.OnesCount32(empty)
	myLeft, oppLeft := (n+1)/2, n/2
	for a := alive; a != 0; a &= a - 1 {
		i := bits.TrailingZeros64(a)
		l := sh.lines[i]
		open := false
		if l&opp == 0 {
			if need := sh.k - bits.OnesCount32(l&me); need <= myLeft {
				f.myOpen, open = true, true
				f.live |= l &^ me
				switch need {
				case 1:
					f.myWins |= l &^ me
				case 2:
					f.myTwos[f.nMyTwos] = l &^ me
					f.nMyTwos++
				}
			}
		}
		if l&me == 0 {
			if need := sh.k - bits.OnesCount32(l&opp); need <= oppLeft {
				f.oppOpen, open = true, true
				f.live |= l &^ opp
				switch need {
				case 1:
					f.oppWins |= l &^ opp
				case 2:
					f.oppTwos[f.nOppTwos] = l &^ opp
					f.nOppTwos++
				}
			}
		}
		if !open {
			alive &^= 1 << i
		}
	}
	f.alive = alive
}

// forks returns the free cells of every pair of lines, two moves from done,
// that one move turns into two threats on different cells: lines that share
// one free cell.
func forks(twos []uint32) uint32 {
	var m uint32
	for i := 1; i < len(twos); i++ {
		for j := range i {
			if twos[i]&twos[j] != 0 && twos[i] != twos[j] {
				m |= twos[i] | twos[j]
			}
		}
	}
	return m
}

// order fills cells with the moves in mask by threat weight: a cell scores
// for every open line through it, four times more for each piece the line
// holds, a little more for the mover's own lines. It returns the count.
func (sh *shape) order(me, opp, mask uint32, alive uint64, cells []int8) int {
	var w [maxCells]int32
	empty := sh.full &^ (me | opp)
	for a := alive; a != 0; a &= a - 1 {
		l := sh.lines[bits.TrailingZeros64(a)]
		var add int32
		if l&opp == 0 {
			add += 5 << (2 * bits.OnesCount32(l&me))
		}
		if l&me == 0 {
			add += 4 << (2 * bits.OnesCount32(l&opp))
		}
		if add == 0 {
			continue
		}
		for v := l & empty & mask; v != 0; v &= v - 1 {
			w[bits.TrailingZeros32(v)] += add
		}
	}
	n := 0
	for v := mask; v != 0; v &= v - 1 {
		c := int8(bits.TrailingZeros32(v))
		i := n
		for i > 0 && w[cells[i-1]] < w[c] {
			cells[i] = cells[i-1]
			i--
		}
		cells[i] = c
		n++
	}
	return n
}
