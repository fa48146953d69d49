package picture

import (
	"bytes"
	"crypto/ed25519"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

// The pictures' budgets: each must render well within Discord's three
// seconds, and upload quickly.
const (
	chartBudget  = 40 * time.Millisecond
	replayBudget = 10 * time.Millisecond
	finalBudget  = 20 * time.Millisecond // no target of its own: a margin well within the three seconds
	maxBytes     = 150 << 10
)

// benchmark runs render in a loop, reports its output's size as "bytes",
// and fails when a render takes longer than budget or its output is over
// maxBytes.
func benchmark(b *testing.B, budget time.Duration, render func(*bytes.Buffer) error) {
	var buf bytes.Buffer
	n := 0
	for b.Loop() {
		buf.Reset()
		if err := render(&buf); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(buf.Len()), "bytes")
	if buf.Len() > maxBytes {
		b.Errorf("%d bytes, over %d", buf.Len(), maxBytes)
	}
	if per := b.Elapsed() / time.Duration(n); per > budget {
		b.Errorf("%v a render, over %v", per, budget)
	}
}

// BenchmarkChart draws a chart of 500 games on one shape, and of four
// shapes of 125 games each.
func BenchmarkChart(b *testing.B) {
	for _, c := range []struct {
		name string
		hs   []tttbot.RatingHistory
	}{
		{"500", []tttbot.RatingHistory{history(shape5, 500, 7*time.Hour)}},
		{"4x125", []tttbot.RatingHistory{
			history(shape3, 125, 9*time.Hour), history(shape4, 125, 11*time.Hour),
			history(shape5, 125, 13*time.Hour), history(tttbot.Shape{Rows: 4, Cols: 4, K: 4}, 125, 5*time.Hour)}},
	} {
		for _, f := range []struct {
			name string
			f    Format
		}{{"png", PNG}, {"svg", SVG}} {
			b.Run(c.name+"/"+f.name, func(b *testing.B) {
				benchmark(b, chartBudget, func(buf *bytes.Buffer) error { return Chart(buf, c.hs, f.f) })
			})
		}
	}
}

// BenchmarkReplay draws a 25-move game on 5×5 as a GIF.
func BenchmarkReplay(b *testing.B) {
	geo := game.MustGeometry(5, 5, 4)
	moves := fullDraw(geo)
	benchmark(b, replayBudget, func(buf *bytes.Buffer) error { return Replay(buf, geo, moves) })
}

// BenchmarkFinal draws a 25-move game's last position on 5×5, every move
// with a badge.
func BenchmarkFinal(b *testing.B) {
	geo := game.MustGeometry(5, 5, 4)
	moves := fullDraw(geo)
	verdicts := make([]ai.Verdict, len(moves))
	for n := range verdicts {
		verdicts[n] = ai.Verdict(n % 3)
	}
	benchmark(b, finalBudget, func(buf *bytes.Buffer) error { return Final(buf, geo, moves, verdicts) })
}

// BenchmarkYardstick is docs/performance.md's yardstick for the machine:
// ed25519.Sign on 2 KB, whose time the figures are read against.
func BenchmarkYardstick(b *testing.B) {
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	msg := make([]byte, 2048)
	for b.Loop() {
		ed25519.Sign(key, msg)
	}
}
