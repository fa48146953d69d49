// Package gametext words a game's things in a player's language, from the
// bot's catalogs: board shapes, the bot's levels, cells and the solver's
// verdict on a move. The Discord replies and the web pages say them alike.
package gametext

import (
	"fmt"
	"strings"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/i18n"
)

// Shape names a board's shape: "3×3, 3 in a row".
func Shape(l *i18n.Language, s tttbot.Shape) string {
	return l.T("shape", map[string]any{"Rows": s.Rows, "Cols": s.Cols, "K": s.K})
}

// Level names one of the bot's difficulties.
func Level(l *i18n.Language, level string) string {
	switch ai.Level(level) {
	case ai.Easy, ai.Medium, ai.Hard, ai.Perfect:
		return l.T("level_"+level, nil)
	}
	return level
}

// Cell is a cell in chess style: column letter, row number ("B2").
func Cell(g *game.Geometry, cell int) string {
	return fmt.Sprintf("%c%d", 'A'+cell%g.Cols, cell/g.Cols+1)
}

// Cells names up to three cells: "B2", "B2 or C3", "A1, B2 or C3",
// "A1, B2, C3 or 2 more".
func Cells(l *i18n.Language, geo *game.Geometry, cells []int) string {
	var names []string
	for _, c := range cells[:min(len(cells), 3)] {
		names = append(names, Cell(geo, c))
	}
	if more := len(cells) - len(names); more > 0 {
		names = append(names, l.N("cells_more", more, nil))
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return l.T("cells_or", map[string]any{
		"List": strings.Join(names[:len(names)-1], l.T("cells_separator", nil)), "Last": names[len(names)-1]})
}

// Verdict words verdict v on a move whose value for its player was played
// (1 a win, 0 a draw, -1 a loss), when the best moves, better, had the
// value best.
func Verdict(l *i18n.Language, geo *game.Geometry, v ai.Verdict, played, best int, better []int) string {
	data := map[string]any{"Better": Cells(l, geo, better)}
	switch v {
	case ai.Best:
		switch played {
		case 1:
			return l.T("verdict_best_wins", nil)
		case -1:
			return l.T("verdict_best_lost", nil)
		}
		return l.T("verdict_best", nil)
	case ai.Inaccuracy:
		if best > 0 {
			return l.T("verdict_inaccuracy_wins", data)
		}
		return l.T("verdict_inaccuracy_loses", data)
	case ai.Mistake:
		switch {
		case best > 0 && played < 0:
			return l.T("verdict_mistake_win_lost", data)
		case best > 0:
			return l.T("verdict_mistake_win_draw", data)
		}
		return l.T("verdict_mistake_draw", data)
	}
	return l.T("verdict_unsolved", nil)
}

// MoveVerdict words the verdict on the move to cell in the position a
// analyzes, with the better moves when it was not one of them.
func MoveVerdict(l *i18n.Language, geo *game.Geometry, a ai.Analysis, cell int) string {
	v := a.Verdict(cell)
	var played int
	for _, m := range a.Moves {
		if m.Cell == cell {
			played = m.Value
		}
	}
	var better []int
	if v != ai.Best {
		better = a.Best
	}
	return Verdict(l, geo, v, played, a.Value, better)
}
