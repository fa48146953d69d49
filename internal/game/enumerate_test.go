package game_test

import (
	"testing"

	"github.com/tttbot/tttbot/internal/game"
)

type key struct{ x, o game.Mask }

// reachable walks every game from the empty board with Play and returns each
// position reached, and the number of distinct move sequences to an end
// (memoized per position: the games from a position do not depend on how it
// was reached).
func reachable(t *testing.T, g *game.Geometry) (map[key]game.Position, int) {
	t.Helper()
	seen := make(map[key]game.Position)
	games := make(map[key]int)
	var walk func(p game.Position) int
	walk = func(p game.Position) int {
		k := key{p.X(), p.O()}
		if n, ok := games[k]; ok {
			return n
		}
		seen[k] = p
		n := 0
		if p.Result().Over {
			n = 1
		}
		for _, cell := range p.Moves() {
			q, err := p.Play(cell)
			if err != nil {
				t.Fatalf("%s Play(%d): %v", p, cell, err)
			}
			n += walk(q)
		}
		games[k] = n
		return n
	}
	n := walk(game.NewPosition(g))
	return seen, n
}

func TestCounts3x3(t *testing.T) {
	seen, games := reachable(t, game.MustGeometry(3, 3, 3))
	var over, xWins, oWins, draws int
	for _, p := range seen {
		r := p.Result()
		if !r.Over {
			continue
		}
		over++
		switch r.Winner {
		case game.X:
			xWins++
		case game.O:
			oWins++
		default:
			draws++
		}
	}
	canonical := make(map[key]bool)
	for k := range seen {
		canonical[canonical3x3(k)] = true
	}
	tests := []struct {
		name      string
		got, want int
	}{
		{"positions", len(seen), 5478},
		{"finished", over, 958},
		{"X wins", xWins, 626},
		{"O wins", oWins, 316},
		{"draws", draws, 16},
		{"games", games, 255168},
		{"positions up to symmetry", len(canonical), 765},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}

// canonical3x3 is the least of a position's 8 images under the symmetries
// of the square.
func canonical3x3(k key) key {
	best := k
	for s := range 8 {
		img := key{transform(k.x, s), transform(k.o, s)}
		if img.x < best.x || img.x == best.x && img.o < best.o {
			best = img
		}
	}
	return best
}

// transform applies symmetry s (rotations, then with a mirror) to a 3×3 mask.
func transform(m game.Mask, s int) game.Mask {
	var out game.Mask
	for r := range 3 {
		for c := range 3 {
			if !m.Has(r*3 + c) {
				continue
			}
			rr, cc := r, c
			if s >= 4 {
				cc = 2 - cc
			}
			for range s % 4 {
				rr, cc = cc, 2-rr
			}
			out |= 1 << (rr*3 + cc)
		}
	}
	return out
}

// TestValidateExhaustive checks that Validate accepts exactly the positions
// some game reaches, over every way to fill small boards with X, O and empty.
// 3×4 k=3 has room for two separate lines, which no game can make.
func TestValidateExhaustive(t *testing.T) {
	for _, g := range []*game.Geometry{
		game.MustGeometry(3, 3, 3),
		game.MustGeometry(3, 4, 3),
		game.MustGeometry(3, 4, 4),
	} {
		seen, _ := reachable(t, g)
		legal := 0
		full := g.Full()
		// Every X set, then every O set among the remaining cells.
		for x := game.Mask(0); x <= full; x++ {
			rest := full &^ x
			for o := rest; ; o = (o - 1) & rest {
				_, err := game.FromMasks(g, x, o)
				_, ok := seen[key{x, o}]
				if ok != (err == nil) {
					t.Fatalf("%v x=%b o=%b: reachable %v, Validate: %v", g, x, o, ok, err)
				}
				if err == nil {
					legal++
				}
				if o == 0 {
					break
				}
			}
		}
		if legal != len(seen) {
			t.Errorf("%v: got %d legal positions, want %d", g, legal, len(seen))
		}
	}
}
