package ai

import (
	"cmp"
	"math/bits"
	"slices"
)

// The opening book: the best moves of every position of 5×5 with four in a
// row after up to bookPlies moves, up to symmetry. It is the one board whose
// first moves are slow to find: in self-play from a cold table, up to
// 200 ms of search for the first two and 50 ms for the fifth, against 17 ms
// at most from the sixth on and 8 ms on any other board. book5x5k4.go is
// written by TestBook with -update, which go generate runs.

//go:generate go test -run TestBook -update

// bookPlies is how many moves deep the book goes.
const bookPlies = 4

// bookEntry is a position of the book, as its canonical key (see
// shape.canonical), and its best moves seen the same way.
type bookEntry struct {
	key  uint64
	best uint32
}

// fromBook returns the best moves of r, whose symmetric keys are ks, if
// the book holds them.
func fromBook(r *root, ks *[8]uint64) (uint32, bool) {
	if r.sh.id != uint64(shapeID(5, 5, 4)) || bits.OnesCount32(r.me|r.opp) > bookPlies {
		return 0, false
	}
	key, sym := r.sh.canonical(ks)
	i, ok := slices.BinarySearchFunc(book5x5k4[:], key, func(b bookEntry, k uint64) int { return cmp.Compare(b.key, k) })
	if !ok {
		return 0, false
	}
	var best uint32
	for m := book5x5k4[i].best; m != 0; m &= m - 1 {
		best |= 1 << r.sh.inv[sym][bits.TrailingZeros32(m)]
	}
	return best, true
}
