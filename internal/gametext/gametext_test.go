package gametext_test

import (
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/gametext"
)

func TestWords(t *testing.T) {
	cat, err := commands.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	en, de := cat.For("en-US"), cat.For("de")
	geo := game.MustGeometry(3, 3, 3)
	tests := []struct{ got, want string }{
		{gametext.Shape(en, tttbot.Shape{Rows: 4, Cols: 4, K: 3}), "4×4, 3 in a row"},
		{gametext.Level(de, "easy"), "leicht"},
		{gametext.Level(en, "unknown"), "unknown"},
		{gametext.Cell(geo, 5), "C2"},
		{gametext.Cells(en, geo, []int{0}), "A1"},
		{gametext.Cells(en, geo, []int{0, 4}), "A1 or B2"},
		{gametext.Cells(en, geo, []int{0, 2, 6, 8}), "A1, C1, A3 or 1 more"},
		{gametext.Verdict(en, geo, ai.Best, 1, 1, nil), "✅ best: wins by force"},
		{gametext.Verdict(en, geo, ai.Mistake, -1, 1, []int{2}), "❗ mistake: gives away the win (lost now); C1 wins"},
		{gametext.Verdict(en, geo, ai.Unsolved, 0, 0, nil), "❔ not solved in time"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
