package rating_test

import (
	"testing"

	"github.com/tttbot/tttbot/internal/rating"
)

// BenchmarkUpdatePair measures rating one finished game for both players.
func BenchmarkUpdatePair(b *testing.B) {
	p := rating.Rating{R: 1620, RD: 85, Sigma: 0.06}
	q := rating.Rating{R: 1540, RD: 140, Sigma: 0.062}
	b.ReportAllocs()
	for b.Loop() {
		rating.UpdatePair(p, q, rating.Win, rating.DefaultTau)
	}
}
