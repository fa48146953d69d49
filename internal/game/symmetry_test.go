package game_test

import (
	"testing"

	"github.com/tttbot/tttbot/internal/game"
)

func TestSymmetries(t *testing.T) {
	tests := []struct {
		rows, cols, k, n int
	}{
		{3, 3, 3, 8}, {4, 4, 3, 8}, {5, 5, 4, 8}, {3, 4, 3, 4}, {5, 3, 3, 4},
	}
	for _, tt := range tests {
		g := game.MustGeometry(tt.rows, tt.cols, tt.k)
		syms := g.Symmetries()
		if len(syms) != tt.n {
			t.Errorf("%v: got %d symmetries, want %d", g, len(syms), tt.n)
		}
		lines := map[game.Mask]bool{}
		for _, l := range g.Lines() {
			lines[l] = true
		}
		for s, perm := range syms {
			if s == 0 && g.Full().Map(perm) != g.Full() {
				t.Errorf("%v: the first symmetry is not the identity", g)
			}
			if got := g.Full().Map(perm); got != g.Full() {
				t.Errorf("%v symmetry %d: not a permutation of the cells: %b", g, s, got)
			}
			for _, l := range g.Lines() {
				if !lines[l.Map(perm)] {
					t.Errorf("%v symmetry %d sends line %b off the lines", g, s, l)
				}
			}
		}
	}
}

// Every image of a position has the same canonical form, which is one of
// the images, and Canonical names the symmetry that gives it.
func TestCanonical(t *testing.T) {
	for _, s := range []string{"X../.O./...", "XO./X../...", "..X./.O../..../X...", "X..../.O.../..X../...../.....", "XO./.../..."} {
		p, err := game.Parse(s, 0)
		if err != nil {
			t.Fatal(err)
		}
		want, sym := p.Canonical()
		if p.Map(sym) != want {
			t.Errorf("%s: Map(%d) = %s, want the canonical %s", s, sym, p.Map(sym), want)
		}
		for i := range p.Geometry().Symmetries() {
			if got, _ := p.Map(i).Canonical(); got != want {
				t.Errorf("%s image %d (%s): canonical %s, want %s", s, i, p.Map(i), got, want)
			}
		}
	}
	// Positions not equal up to symmetry differ.
	a, _ := game.Parse("X../.../...", 0)
	b, _ := game.Parse(".X./.../...", 0)
	ca, _ := a.Canonical()
	if cb, _ := b.Canonical(); ca == cb {
		t.Errorf("a corner and an edge have the same canonical form %s", ca)
	}
}
