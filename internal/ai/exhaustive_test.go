package ai

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/game"
)

// minimax is a deliberately plain solver for checking the engine: no
// pruning, no table of its own beyond memoizing positions by their text. It
// returns the value (1, 0, -1) and plies of p for the side to move, and each
// legal move's value and plies counted from p.
type minimax struct {
	memo map[string][2]int
}

func (m *minimax) solve(p game.Position) (value, plies int) {
	key := p.String()
	if v, ok := m.memo[key]; ok {
		return v[0], v[1]
	}
	if res := p.Result(); res.Over {
		if res.Winner != game.None {
			value = -1
		}
		m.memo[key] = [2]int{value, 0}
		return value, 0
	}
	first := true
	for _, mv := range m.moves(p) {
		if first || better(mv.Value, mv.Plies, value, plies) {
			value, plies, first = mv.Value, mv.Plies, false
		}
	}
	m.memo[key] = [2]int{value, plies}
	return value, plies
}

func (m *minimax) moves(p game.Position) []MoveValue {
	var out []MoveValue
	for _, c := range p.Moves() {
		q, _ := p.Play(c)
		v, n := m.solve(q)
		mv := MoveValue{Cell: c, Value: -v, Proven: true}
		if v != 0 {
			mv.Plies = n + 1
		}
		out = append(out, mv)
	}
	return out
}

// check compares the engine's analysis of p with plain minimax.
func (m *minimax) check(t *testing.T, p game.Position, a Analysis) {
	t.Helper()
	v, n := m.solve(p)
	if a.Terminal != p.Result().Over {
		t.Fatalf("%s: got terminal %v", p, a.Terminal)
	}
	if a.Value != v || a.Plies != n || !a.Proven {
		t.Fatalf("%s: got value %d in %d plies (proven %v), want %d in %d", p, a.Value, a.Plies, a.Proven, v, n)
	}
	if a.Terminal {
		return
	}
	want := m.moves(p)
	var best []int
	for _, mv := range want {
		if mv.Value == v && mv.Plies == n {
			best = append(best, mv.Cell)
		}
	}
	if !slices.Equal(a.Moves, want) || !slices.Equal(a.Best, best) {
		t.Fatalf("%s: got moves %v best %v, want %v best %v", p, a.Moves, a.Best, want, best)
	}
}

// reachable lists every position reachable from the empty board of g.
func reachable(g *game.Geometry) []game.Position {
	seen := map[string]bool{}
	var out []game.Position
	var walk func(p game.Position)
	walk = func(p game.Position) {
		if seen[p.String()] {
			return
		}
		seen[p.String()] = true
		out = append(out, p)
		for _, c := range p.Moves() {
			q, _ := p.Play(c)
			walk(q)
		}
	}
	walk(game.NewPosition(g))
	return out
}

// The counts of 3×3 tic-tac-toe, from the rules and the engine's symmetries.
func TestCounts3x3(t *testing.T) {
	g := game.MustGeometry(3, 3, 3)
	all := reachable(g)
	var finished, xWins, oWins, draws int
	for _, p := range all {
		switch res := p.Result(); {
		case !res.Over:
		case res.Winner == game.X:
			finished, xWins = finished+1, xWins+1
		case res.Winner == game.O:
			finished, oWins = finished+1, oWins+1
		default:
			finished, draws = finished+1, draws+1
		}
	}
	sh := newShape(g)
	classes := map[uint64]bool{}
	for _, p := range all {
		ks := sh.keys(uint32(p.X()), uint32(p.O()))
		c, _ := sh.canonical(&ks)
		classes[c] = true
	}
	var games func(p game.Position) int
	games = func(p game.Position) int {
		if p.Result().Over {
			return 1
		}
		n := 0
		for _, c := range p.Moves() {
			q, _ := p.Play(c)
			n += games(q)
		}
		return n
	}
	got := []int{len(all), finished, xWins, oWins, draws, len(classes), games(game.NewPosition(g))}
	want := []int{5478, 958, 626, 316, 16, 765, 255168}
	if !slices.Equal(got, want) {
		t.Errorf("got positions, finished, X wins, O wins, draws, classes, games = %v, want %v", got, want)
	}
	// Every legal 3×3 position is reachable, so the table covers them all.
	legal := 0
	for x := range game.Mask(1 << 9) {
		for o := range game.Mask(1 << 9) {
			if x&o == 0 {
				if _, err := game.FromMasks(g, x, o); err == nil {
					legal++
				}
			}
		}
	}
	if legal != len(all) {
		t.Errorf("got %d legal positions, want %d", legal, len(all))
	}
}

// Every reachable 3×3 position, analyzed from the table and by search, and
// every perfect move set, against plain minimax.
func TestExhaustive3x3(t *testing.T) {
	e := New(Options{TableBytes: 1 << 20, TimeBudget: time.Minute})
	m := &minimax{memo: map[string][2]int{}}
	ctx := context.Background()
	for _, p := range reachable(game.MustGeometry(3, 3, 3)) {
		for _, small := range []bool{true, false} {
			a, err := e.analyze(ctx, p, small)
			if err != nil {
				t.Fatal(err)
			}
			m.check(t, p, a)
			if a.Terminal {
				continue
			}
			r, _ := e.root(p)
			best := uint32(e.small[e.smallIndex(&r)].best)
			if !small {
				// Over enough seeds, the search's choices cover every best move.
				best = 0
				for i := range 40 {
					c, _, _ := e.bestMove(ctx, &r, time.Now(), rand.New(rand.NewPCG(uint64(i), 0)))
					best |= 1 << c
				}
			}
			if want := cellMask(a.Best); best != want {
				t.Fatalf("%s (table %v): got best moves %v, want %v", p, small, maskCells(best), a.Best)
			}
		}
	}
}

func cellMask(cells []int) uint32 {
	var m uint32
	for _, c := range cells {
		m |= 1 << c
	}
	return m
}

func maskCells(m uint32) []int {
	var out []int
	for ; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros32(m))
	}
	return out
}

// Random positions of every board, late enough for plain minimax, analyzed
// exactly as minimax does: this checks the pruning rules (dead cells,
// pairings, threats, bounds) on values and plies, not just on outcomes.
func TestAgainstMinimax(t *testing.T) {
	e := New(Options{TableBytes: 1 << 20, TimeBudget: time.Minute})
	rng := rand.New(rand.NewPCG(7, 7))
	ctx := context.Background()
	for r := game.MinSize; r <= game.MaxSize; r++ {
		for c := game.MinSize; c <= game.MaxSize; c++ {
			for k := game.MinK; k <= max(r, c); k++ {
				g := game.MustGeometry(r, c, k)
				m := &minimax{memo: map[string][2]int{}}
				for range 20 {
					p := game.NewPosition(g)
					for p.Empty().Count() > 7+rng.IntN(3) && !p.Result().Over {
						moves := p.Moves()
						p, _ = p.Play(moves[rng.IntN(len(moves))])
					}
					a, err := e.Analyze(ctx, p)
					if err != nil {
						t.Fatal(err)
					}
					m.check(t, p, a)
				}
			}
		}
	}
}
