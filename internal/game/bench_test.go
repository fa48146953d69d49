package game_test

import (
	"testing"

	"github.com/tttbot/tttbot/internal/game"
)

// benchPosition is a 5×5 k=4 middle game with no line yet, the board on
// which Play and Result cost the most.
func benchPosition(b *testing.B) game.Position {
	p, err := game.Parse("XO.X./.OXO./..X../.O.X./X...O", 4)
	if err != nil {
		b.Fatal(err)
	}
	return p
}

func BenchmarkPlay5x5(b *testing.B) {
	p := benchPosition(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Play(13); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResult5x5(b *testing.B) {
	p := benchPosition(b)
	b.ReportAllocs()
	for b.Loop() {
		if p.Result().Over {
			b.Fatal("game over")
		}
	}
}

func BenchmarkResult5x5Won(b *testing.B) {
	p, err := game.Parse("XXXXX/OO.../OO.../...../.....", 4)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !p.Result().Over {
			b.Fatal("game not over")
		}
	}
}

func BenchmarkParse5x5(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := game.Parse("XO.X./.OXO./..X../.O.X./X...O", 4); err != nil {
			b.Fatal(err)
		}
	}
}
