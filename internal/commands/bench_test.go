package commands

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

// BenchmarkReview measures judging the first page of a review — the
// opening, the hardest positions — of a game between a hard and a perfect
// player on each board size offered by default. ns/op is with the solver's
// table warm from earlier reviews; cold-ms is the first review, from an
// empty table, which the review budget must cover; unsolved counts the moves
// that budget left unjudged then.
func BenchmarkReview(b *testing.B) {
	for _, size := range []int{3, 4, 5} {
		geo := game.MustGeometry(size, size, game.DefaultK(size, size))
		b.Run(fmt.Sprintf("%dx%d", size, size), func(b *testing.B) {
			r := selfPlay(b, geo, rand.New(rand.NewPCG(uint64(size), 7)))
			hi := min(len(r.moves), reviewMoves)
			h := &Handler{ai: ai.New(ai.Options{})}
			start := time.Now()
			js, err := h.judgeMoves(context.Background(), r, 0, hi)
			if err != nil {
				b.Fatal(err)
			}
			cold := time.Since(start)
			left := 0
			for _, j := range js {
				if j.verdict == unsolved {
					left++
				}
			}
			for b.Loop() {
				if _, err := h.judgeMoves(context.Background(), r, 0, hi); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(r.moves)), "moves")
			b.ReportMetric(float64(cold.Microseconds())/1000, "cold-ms")
			b.ReportMetric(float64(left), "unsolved")
		})
	}
}

// selfPlay replays a seeded game of a hard X against a perfect O.
func selfPlay(b *testing.B, geo *game.Geometry, rng *rand.Rand) *replayed {
	e := ai.New(ai.Options{})
	r := &replayed{geo: geo, positions: []game.Position{game.NewPosition(geo)}}
	for p := r.positions[0]; !p.Result().Over; {
		level := ai.Hard
		if p.Ply()%2 == 1 {
			level = ai.Perfect
		}
		ch, err := e.Move(context.Background(), p, level, rng)
		if err != nil {
			b.Fatal(err)
		}
		if p, err = p.Play(ch.Cell); err != nil {
			b.Fatal(err)
		}
		r.positions = append(r.positions, p)
		r.moves = append(r.moves, tttbot.Move{Ply: len(r.moves) + 1, Cell: ch.Cell})
	}
	return r
}
