package puzzle

import (
	"math/rand/v2"
	"testing"

	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

// BenchmarkMine mines finished games as the bot does after each one, with
// an engine like the bot's that has mined 64 games before: then each of up
// to 256 games of random and self-play moves (see Generate) that it has not
// seen. ns/op is the time per game.
func BenchmarkMine(b *testing.B) {
	for _, s := range []struct{ rows, cols, k int }{{3, 3, 3}, {4, 4, 3}, {4, 4, 4}, {5, 5, 4}} {
		g := game.MustGeometry(s.rows, s.cols, s.k)
		b.Run(g.Size()+"k"+string(rune('0'+s.k)), func(b *testing.B) {
			e := ai.New(ai.Options{})
			var games [][]int
			for i := range 64 + 256 {
				moves, err := playGame(b.Context(), e, g, rand.New(rand.NewPCG(7, uint64(i))))
				if err != nil {
					b.Fatal(err)
				}
				games = append(games, moves)
			}
			for _, moves := range games[:64] {
				if _, err := Mine(b.Context(), e, g, moves, 1); err != nil {
					b.Fatal(err)
				}
			}
			games = games[64:]
			i, found := 0, 0
			for b.Loop() {
				ps, err := Mine(b.Context(), e, g, games[i%len(games)], 1)
				if err != nil {
					b.Fatal(err)
				}
				i++
				found += len(ps)
			}
			b.ReportMetric(float64(found)/float64(i), "puzzles/op")
		})
	}
}
