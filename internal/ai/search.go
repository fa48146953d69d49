package ai

import (
	"math/bits"
	"runtime"
	"time"
)

// Scores are from the side to move's point of view and count plies from the
// root of the search: a win t plies from the root scores win-t, a loss
// -(win-t), a draw 0. So the fastest win and the slowest loss score highest.
const (
	win = 64
	inf = win + 1
)

// pow3 is 3^25: a position's key is its shape and its cells in base 3.
const pow3 = 847288609443

// searcher is one search: its own counters and limits over the engine's
// shared table. It is not shared between goroutines.
type searcher struct {
	sh       *shape
	tt       *table
	tern     *[256]uint64
	nodes    int64
	deadline time.Time
	yielded  time.Time // when checkStop last yielded the processor, or paced
	pacer    Pacer     // nil: yield every millisecond
	done     <-chan struct{}
	stopped  bool
	facts    [maxCells + 1]facts // one per ply, reused
	rootMove int                 // the move that last raised alpha at ply 0, -1 if none
}

// checkStop ends the search when the deadline passes or the context ends.
// Every millisecond it also yields the processor: a search of a big board
// can run for a tenth of a second, and meanwhile the bot's other requests,
// each far shorter, should not wait 10 ms for the scheduler to preempt it.
// A paced search asks its pacer instead, and its deadline moves on by the
// rest.
func (s *searcher) checkStop() {
	now := time.Now()
	switch {
	case s.pacer != nil:
		s.pacer.Pace(s.done, now.Sub(s.yielded))
		s.yielded = time.Now()
		s.deadline = s.deadline.Add(s.yielded.Sub(now))
		now = s.yielded
	case now.Sub(s.yielded) >= time.Millisecond:
		runtime.Gosched()
		s.yielded = now
	}
	if !s.deadline.IsZero() && now.After(s.deadline) {
		s.stopped = true
	}
	select {
	case <-s.done:
		s.stopped = true
	default:
	}
}

// ternary reads the bits of m as base-3 digits.
func (s *searcher) ternary(m uint32) uint64 {
	t := s.tern
	return t[m&255] + t[m>>8&255]*6561 + t[m>>16&255]*43046721 + uint64(m>>24)*282429536481
}

// key returns the table key of a position, the same for all its symmetric
// images, and the symmetry that maps the position to the stored frame.
func (s *searcher) key(ks *[8]uint64) (uint64, int) {
	c, sym := s.sh.canonical(ks)
	return s.sh.id*pow3 + s.ternary(uint32(c>>32)) + 2*s.ternary(uint32(c)), sym
}

// play returns the symmetric keys after the side (X if isX) takes cell c.
func (sh *shape) play(ks [8]uint64, c int, isX bool) [8]uint64 {
	shift := 0
	if isX {
		shift = 32
	}
	for s := range sh.nsym {
		ks[s] |= sh.bit[s][c] << shift
	}
	return ks
}

// exact returns the exact score of a position: first whether it is won, drawn
// or lost (a cheap null-window search), then the distance if it is not drawn.
func (s *searcher) exact(me, opp uint32, meX bool, ks [8]uint64, alive uint64, ply int) int {
	r := s.search(me, opp, meX, ks, alive, -1, 1, ply)
	switch {
	case s.stopped:
		return 0
	case r > 0:
		return s.search(me, opp, meX, ks, alive, 0, inf, ply)
	case r < 0:
		return s.search(me, opp, meX, ks, alive, -inf, 0, ply)
	}
	return 0
}

// search is negamax with alpha-beta over the window (alpha, beta): a result
// at or below alpha is an upper bound, at or above beta a lower bound, in
// between exact. The position is not finished, and me is to move; alive
// holds the lines still completable (a superset will do).
func (s *searcher) search(me, opp uint32, meX bool, ks [8]uint64, alive uint64, alpha, beta, ply int) int {
	s.nodes++
	if s.nodes&1023 == 0 {
		s.checkStop()
	}
	if s.stopped {
		return 0
	}
	sh := s.sh
	f := &s.facts[ply]
	sh.facts(me, opp, alive, f)
	// The exact rules of k in a row, cheapest first.
	if f.myWins != 0 {
		return win - ply - 1 // a win in one
	}
	if !f.myOpen && !f.oppOpen {
		return 0 // no line can be completed any more
	}
	if bits.OnesCount32(f.oppWins) >= 2 {
		return -(win - ply - 2) // two threats: one stays open
	}
	if f.oppWins == 0 && forks(f.myTwos[:f.nMyTwos]) != 0 {
		return win - ply - 3 // a fork the opponent cannot answer with a win
	}
	// Bounds: my fastest win is on my second move from here; my fastest
	// loss on the opponent's next move if it threatens now, else on its
	// second; and a side with no open line, or whose lines the other side
	// can pair off, cannot win at all.
	lo, hi := -(win - ply - 4), win-ply-3
	if f.oppWins != 0 {
		lo = -(win - ply - 2)
	}
	if !f.oppOpen {
		lo = 0
	}
	if !f.myOpen || beta > 0 && sh.cannotWin(me, opp, f.alive) {
		hi = 0
	}
	switch {
	case hi <= alpha:
		return hi
	case lo >= beta:
		return lo
	case lo == hi:
		return lo
	}
	alpha0, beta0 := alpha, beta
	alpha, beta = max(alpha, lo), min(beta, hi)

	empties := bits.OnesCount32(sh.full &^ (me | opp))
	key, sym := s.key(&ks)
	first := -1
	if e := s.tt.probe(key); e != 0 {
		v := entryScore(e, ply)
		switch entryBound(e) {
		case boundExact:
			return v
		case boundLower:
			if v >= beta {
				return v
			}
			alpha = max(alpha, v)
		case boundUpper:
			if v <= alpha {
				return v
			}
			beta = min(beta, v)
		}
		if m := entryMove(e); m != noMove {
			first = int(sh.inv[sym][m])
		}
	}

	// A single threat must be blocked; otherwise only cells on an open line
	// matter: a cell on none is a pass, never better than a real move.
	moves := f.live
	if f.oppWins != 0 {
		moves = f.oppWins
	} else if of := forks(f.oppTwos[:f.nOppTwos]); of != 0 {
		// The opponent threatens a fork, a loss in 4 plies: the bound we
		// already have. Only a move on one of its lines, or one making a
		// threat of mine, can do better.
		moves &= of
		for _, t := range f.myTwos[:f.nMyTwos] {
			moves |= t
		}
	}
	// The table's move goes first, before the others are even ordered: it
	// often settles the node alone.
	var cells [maxCells]int8
	n := 0
	if first >= 0 && moves&(1<<first) != 0 {
		cells[0], n = int8(first), 1
		moves &^= 1 << first
	}
	best := -1
	for i, ordered := 0, false; ; i++ {
		if i == n {
			if ordered {
				break
			}
			n += sh.order(me, opp, moves, f.alive, cells[n:])
			ordered = true
			if i == n {
				break
			}
		}
		c := int(cells[i])
		v := -s.search(opp, me|1<<c, !meX, sh.play(ks, c, meX), f.alive, -beta, -alpha, ply+1)
		if s.stopped {
			return 0
		}
		if v > alpha {
			alpha, best = v, c
			if ply == 0 {
				s.rootMove = best
			}
			if v >= beta {
				break
			}
		}
	}

	bound := boundExact
	switch {
	case alpha <= alpha0:
		bound = boundUpper
	case alpha >= beta0:
		bound = boundLower
	}
	move := noMove
	if best >= 0 {
		move = int(sh.perm[sym][best])
	}
	outcome, plies := scoreOutcome(alpha, ply)
	s.tt.store(key, makeEntry(bound, move, empties, outcome, plies))
	return alpha
}

// scoreOutcome turns a score into an outcome and plies counted from the node
// at ply. Window edges that are no real score become the nearest real one on
// the same side: a bound "at most a loss in 40 plies" is kept as "at most a
// loss in 31", still true on boards of 25 cells.
func scoreOutcome(v, ply int) (outcome, plies int) {
	switch {
	case v > 0:
		return outcomeWin, min(win-v-ply, 31)
	case v < 0:
		return outcomeLoss, min(win+v-ply, 31)
	}
	return outcomeDraw, 0
}

// entryScore is the score of a table entry for a node at ply.
func entryScore(e uint64, ply int) int {
	switch entryOutcome(e) {
	case outcomeWin:
		return win - ply - entryPlies(e)
	case outcomeLoss:
		return -(win - ply - entryPlies(e))
	}
	return 0
}

// valuePlies turns a score at the root into a value (1, 0, -1) and plies.
func valuePlies(v int) (value, plies int) {
	switch {
	case v > 0:
		return 1, win - v
	case v < 0:
		return -1, win + v
	}
	return 0, 0
}
