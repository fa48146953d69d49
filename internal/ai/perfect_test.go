package ai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/game"
)

// outcome is a game's end seen by one side: value 1, 0 or -1 in plies.
type outcome struct{ value, plies int }

// worse reports whether a is worse than b for the side they are seen by.
func worse(a, b outcome) bool { return better(b.value, b.plies, a.value, a.plies) }

// Perfect play never does worse than the value the engine proves: against
// every sequence of opponent moves, from both sides, the worst outcome it
// meets is exactly the proven value of the start, plies included. The tree
// is walked once per position; a position where the opponent has no line
// left to complete and the proven value is a draw ends the walk, as every
// continuation is then a draw.
func TestPerfectNeverLoses(t *testing.T) {
	for _, sz := range []struct{ r, c, k int }{{3, 3, 3}, {4, 4, 3}, {4, 4, 4}} {
		g := game.MustGeometry(sz.r, sz.c, sz.k)
		for _, side := range []game.Player{game.X, game.O} {
			t.Run(fmt.Sprintf("%s/%v", g, side), func(t *testing.T) {
				w := &walker{
					t: t, e: New(Options{TableBytes: 4 << 20, TimeBudget: time.Minute}), side: side,
					rng: rand.New(rand.NewPCG(3, 4)), memo: map[uint64]outcome{},
				}
				got := w.worst(game.NewPosition(g))
				t.Logf("%d positions, worst outcome for perfect %v: %+v", len(w.memo), side, got)
			})
		}
	}
}

type walker struct {
	t    *testing.T
	e    *Engine
	side game.Player
	rng  *rand.Rand
	memo map[uint64]outcome
}

func (w *walker) worst(p game.Position) outcome {
	sh := w.e.shapes[shapeID(p.Geometry().Rows, p.Geometry().Cols, p.Geometry().K)]
	ks := sh.keys(uint32(p.X()), uint32(p.O()))
	key, _ := sh.canonical(&ks)
	if o, ok := w.memo[key]; ok {
		return o
	}
	var o outcome
	switch res := p.Result(); {
	case res.Over && res.Winner == w.side:
		o = outcome{1, 0}
	case res.Over && res.Winner != game.None:
		o = outcome{-1, 0}
	case res.Over:
	case p.ToMove() == w.side:
		o = w.perfectNode(p)
	default:
		first := true
		for _, c := range p.Moves() {
			q, _ := p.Play(c)
			if co := w.worst(q); first || worse(co, o) {
				o, first = co, false
			}
		}
		o = after(o)
	}
	w.memo[key] = o
	return o
}

func (w *walker) perfectNode(p game.Position) outcome {
	ctx := context.Background()
	r, _ := w.e.root(p)
	s := w.e.searcher(ctx, &r, time.Now())
	var claim outcome
	claim.value, claim.plies = valuePlies(s.exact(r.me, r.opp, r.meX, r.keys(), r.f.alive, 0))
	if claim.value == 0 && !canWin(p, w.side.Other()) {
		return claim
	}
	ch, err := w.e.Move(ctx, p, Perfect, w.rng)
	if err != nil || !ch.Proven {
		w.t.Fatalf("%s: got %+v, %v", p, ch, err)
	}
	q, err := p.Play(ch.Cell)
	if err != nil {
		w.t.Fatalf("%s: perfect played %d: %v", p, ch.Cell, err)
	}
	o := after(w.worst(q))
	if o != claim {
		w.t.Fatalf("%s: perfect played %d and met %+v, but the proven value is %+v", p, ch.Cell, o, claim)
	}
	return o
}

// after turns the outcome of the position after a move into the outcome of
// the position before it, the move included.
func after(o outcome) outcome {
	if o.value != 0 {
		o.plies++
	}
	return o
}

// canWin reports whether side still has a line free of the other side's
// pieces that its moves left can fill: straight from the rules, not from the
// engine.
func canWin(p game.Position, side game.Player) bool {
	own, other := p.X(), p.O()
	if side == game.O {
		own, other = other, own
	}
	left := p.Empty().Count() / 2
	if side == p.ToMove() {
		left = (p.Empty().Count() + 1) / 2
	}
	for _, l := range p.Geometry().Lines() {
		if l&other == 0 && (l&^own).Count() <= left {
			return true
		}
	}
	return false
}

// On the big boards no tree walk fits in a test: seeded games against every
// level instead, from both sides. Perfect never loses there, and every one
// of its moves is proven.
func TestPerfectUnbeatenOnBigBoards(t *testing.T) {
	e := New(Options{TimeBudget: time.Minute})
	for _, g := range []*game.Geometry{game.MustGeometry(5, 5, 4), game.MustGeometry(5, 5, 5), game.MustGeometry(4, 5, 4)} {
		for _, other := range []Level{random, Easy, Medium, Hard} {
			for seed := range uint64(4) {
				if w := play(t, e, g, Perfect, other, seed); w == game.O {
					t.Errorf("%s: perfect as X lost to %s (seed %d)", g, other, seed)
				}
				if w := play(t, e, g, other, Perfect, seed); w == game.X {
					t.Errorf("%s: perfect as O lost to %s (seed %d)", g, other, seed)
				}
			}
		}
	}
}
