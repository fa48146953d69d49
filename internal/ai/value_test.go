package ai

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tttbot/tttbot/internal/game"
)

// Value and WinsWithin agree with Analyze on the positions of random games
// on each board: the value's sign, and a win within n plies exactly when
// Analyze finds one in n or fewer.
func TestValueWinsWithin(t *testing.T) {
	e := New(Options{})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, g := range []*game.Geometry{game.MustGeometry(3, 3, 3), game.MustGeometry(4, 4, 3), game.MustGeometry(4, 4, 4), game.MustGeometry(3, 4, 3)} {
		for range 30 {
			for p := game.NewPosition(g); ; {
				a, err := e.Analyze(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				v, proven, err := e.Value(ctx, p)
				if err != nil || !proven || v != a.Value {
					t.Fatalf("Value(%s) = %d, %v, %v; want %d", p, v, proven, err, a.Value)
				}
				for _, n := range []int{1, 3, 5, 7} {
					want := a.Value == 1 && a.Plies <= n
					if got, proven, err := e.WinsWithin(ctx, p, n); err != nil || !proven || got != want {
						t.Fatalf("WinsWithin(%s, %d) = %v, %v, %v; want %v (Analyze: %d in %d)", p, n, got, proven, err, want, a.Value, a.Plies)
					}
				}
				if a.Terminal {
					break
				}
				moves := p.Moves()
				p, _ = p.Play(moves[rng.IntN(len(moves))])
			}
		}
	}
}
