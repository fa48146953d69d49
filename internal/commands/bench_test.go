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
				if j.verdict == ai.Unsolved {
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

// BenchmarkRenderBoard draws an active 5×5 board, a move in, with its
// deadline, in each language beside English: each iteration draws it in
// both, each first half the time, so that the two meet the same machine.
// It reports the language's mean cost per board (lang-ns) and English's
// (en-ns), the fastest of each (lang-min-ns, en-min-ns: the machine's
// noise only ever adds), the first as a percentage of the second for both
// (%-of-en, %-of-en-min), and the allocations of one board in each
// (lang-allocs, en-allocs), which no noise moves.
func BenchmarkRenderBoard(b *testing.B) {
	cat := mustCatalog()
	h := &Handler{botID: botUser, cat: cat}
	g := &tttbot.Game{
		ID: 42, ChannelID: "c1", Rows: 5, Cols: 5, K: 4,
		Challenger: alice, Opponent: bob, XPlayer: alice, OPlayer: bob,
		Status: tttbot.StatusActive, Board: "...../...../..X../...../.....", Turn: bob, Version: 2,
		Deadline: testNow.Add(5 * time.Minute),
	}
	if _, err := g.Position(); err != nil {
		b.Fatal(err)
	}
	last := &tttbot.Move{Ply: 1, Player: alice, Cell: 12}
	en := cat.Source()
	for _, code := range cat.Codes()[1:] {
		l, _ := cat.Lookup(code)
		b.Run(code, func(b *testing.B) {
			langAllocs := testing.AllocsPerRun(100, func() { h.render(context.Background(), l, g, last) })
			enAllocs := testing.AllocsPerRun(100, func() { h.render(context.Background(), en, g, last) })
			var inEnglish, inLang time.Duration
			minEnglish, minLang := time.Hour, time.Hour
			first, second := en, l
			for b.Loop() {
				start := time.Now()
				h.render(context.Background(), first, g, last)
				mid := time.Now()
				h.render(context.Background(), second, g, last)
				d1, d2 := mid.Sub(start), time.Since(mid)
				if first != en {
					d1, d2 = d2, d1
				}
				inEnglish, inLang = inEnglish+d1, inLang+d2
				minEnglish, minLang = min(minEnglish, d1), min(minLang, d2)
				// Each goes first half the time: the second finds the caches warm.
				first, second = second, first
			}
			b.ReportMetric(float64(inLang.Nanoseconds())/float64(b.N), "lang-ns")
			b.ReportMetric(float64(inEnglish.Nanoseconds())/float64(b.N), "en-ns")
			b.ReportMetric(float64(minLang.Nanoseconds()), "lang-min-ns")
			b.ReportMetric(float64(minEnglish.Nanoseconds()), "en-min-ns")
			b.ReportMetric(100*float64(inLang)/float64(inEnglish), "%-of-en")
			b.ReportMetric(100*float64(minLang)/float64(minEnglish), "%-of-en-min")
			b.ReportMetric(langAllocs, "lang-allocs")
			b.ReportMetric(enAllocs, "en-allocs")
		})
	}
}
