package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/game"
)

// Any legal position of any board: analysis and every level's move stay
// consistent and legal, and nothing panics.
func FuzzAnalyze(f *testing.F) {
	f.Add(uint8(3), uint8(3), uint8(3), uint32(0b000010001), uint32(0b100000010), uint64(1))
	f.Add(uint8(5), uint8(5), uint8(4), uint32(1<<12), uint32(1<<6), uint64(2))
	f.Add(uint8(5), uint8(5), uint8(5), uint32(0x1f), uint32(0x3c0), uint64(3))
	f.Add(uint8(4), uint8(5), uint8(3), uint32(0), uint32(0), uint64(4))
	f.Add(uint8(3), uint8(4), uint8(4), uint32(0b0111), uint32(0b0111_0000), uint64(5))
	e := New(Options{TableBytes: 1 << 20, TimeBudget: 20 * time.Millisecond})
	f.Fuzz(func(t *testing.T, rows, cols, k uint8, x, o uint32, seed uint64) {
		g, err := game.NewGeometry(int(rows), int(cols), int(k))
		if err != nil {
			return
		}
		p, err := game.FromMasks(g, game.Mask(x), game.Mask(o))
		if err != nil {
			return
		}
		ctx := context.Background()
		a, err := e.Analyze(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if a.Terminal != p.Result().Over {
			t.Fatalf("%s: got terminal %v", p, a.Terminal)
		}
		if a.Terminal {
			return
		}
		var cells []int
		for _, mv := range a.Moves {
			cells = append(cells, mv.Cell)
		}
		if !slices.Equal(cells, p.Moves()) || len(a.Best) == 0 {
			t.Fatalf("%s: got moves %v best %v, want moves %v", p, cells, a.Best, p.Moves())
		}
		for _, c := range a.Best {
			if i := slices.Index(cells, c); i < 0 || a.Moves[i].Value != a.Value || a.Moves[i].Plies != a.Plies {
				t.Fatalf("%s: best move %d is not worth %d in %d", p, c, a.Value, a.Plies)
			}
		}
		rng := rand.New(rand.NewPCG(seed, 0))
		for _, l := range Levels() {
			ch, err := e.Move(ctx, p, l, rng)
			if err != nil {
				t.Fatalf("%s %s: %v", p, l, err)
			}
			if _, err := p.Play(ch.Cell); err != nil {
				t.Fatalf("%s %s: played %d: %v", p, l, ch.Cell, err)
			}
			if l == Perfect && ch.Proven && a.Proven && !slices.Contains(a.Best, ch.Cell) {
				t.Fatalf("%s: perfect played %d, want one of %v", p, ch.Cell, a.Best)
			}
		}
	})
}
