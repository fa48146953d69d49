package tournament

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkSwiss256 pairs the last round a 256-player Swiss may have (the
// 10th) after nine rounds of random results (target ≤ 50 ms).
func BenchmarkSwiss256(b *testing.B) {
	players := make([]Player, 256)
	rng := rand.New(rand.NewPCG(256, 10))
	var played []Round
	for range MaxSwissRounds(256) - 1 {
		r, err := Swiss(players, played)
		if err != nil {
			b.Fatal(err)
		}
		play(rng, r)
		played = append(played, r)
	}
	for b.Loop() {
		if _, err := Swiss(players, played); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundRobin16 schedules a 16-player round robin (target ≤ 1 ms).
func BenchmarkRoundRobin16(b *testing.B) {
	for b.Loop() {
		RoundRobin(16)
	}
}
