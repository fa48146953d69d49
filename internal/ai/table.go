package ai

import (
	"math/bits"
	"sync/atomic"
)

// table is the transposition table, shared by every search of an Engine and
// safe for concurrent use without locks: an entry is one 64-bit word, read
// and written atomically, that holds its whole key, so a reader sees either
// a complete entry or none. Entries are game-theoretic facts (exact values or
// bounds, never depth-limited guesses), so they stay true across searches,
// games and goroutines.
//
// Word layout, high to low: key (45 bits) | bound (2) | move (5) | empties (5)
// | outcome (2) | plies (5).
type table struct {
	slots []atomic.Uint64
	shift uint
}

const (
	boundExact = 1
	boundLower = 2
	boundUpper = 3

	noMove = 31

	outcomeDraw = 0
	outcomeWin  = 1
	outcomeLoss = 2
)

// newTable sizes the table to the largest power of two entries within bytes,
// at least one bucket of two.
func newTable(bytes int) *table {
	n := max(bytes/8, 2)
	n = 1 << (bits.Len(uint(n)) - 1)
	return &table{slots: make([]atomic.Uint64, n), shift: uint(66 - bits.Len(uint(n)))}
}

// bytes is the table's size.
func (t *table) bytes() int { return 8 * len(t.slots) }

// clear empties the table; only benchmarks need it, between cold runs.
func (t *table) clear() {
	for i := range t.slots {
		t.slots[i].Store(0)
	}
}

// bucket returns the first of the two slots key may live in.
func (t *table) bucket(key uint64) uint64 {
	return (key * 0x9E3779B97F4A7C15 >> t.shift) * 2
}

// probe returns the entry stored for key, or 0.
func (t *table) probe(key uint64) uint64 {
	i := t.bucket(key)
	for _, j := range [2]uint64{i, i + 1} {
		if e := t.slots[j].Load(); e>>19 == key && e != 0 {
			return e
		}
	}
	return 0
}

// store keeps entry e for key: the first slot holds the largest subtree seen
// (most empty cells), the second always takes the newest.
func (t *table) store(key, e uint64) {
	i := t.bucket(key)
	e |= key << 19
	if old := t.slots[i].Load(); old>>19 == key || entryEmpties(old) <= entryEmpties(e) {
		t.slots[i].Store(e)
		return
	}
	t.slots[i+1].Store(e)
}

func makeEntry(bound, move, empties, outcome, plies int) uint64 {
	return uint64(bound)<<17 | uint64(move)<<12 | uint64(empties)<<7 | uint64(outcome)<<5 | uint64(plies)
}

func entryBound(e uint64) int   { return int(e>>17) & 3 }
func entryMove(e uint64) int    { return int(e>>12) & 31 }
func entryEmpties(e uint64) int { return int(e>>7) & 31 }
func entryOutcome(e uint64) int { return int(e>>5) & 3 }
func entryPlies(e uint64) int   { return int(e) & 31 }
