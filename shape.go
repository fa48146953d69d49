package tttbot

import (
	"fmt"

	"github.com/tttbot/tttbot/internal/game"
)

// Shape is a board's size and win length. Ratings are kept per shape: a
// strong 3×3 player may be a weak 5×5 one.
type Shape struct{ Rows, Cols, K int }

// Shape returns the shape of g's board.
func (g *Game) Shape() Shape { return Shape{Rows: g.Rows, Cols: g.Cols, K: g.K} }

// String names the shape as players read it: "3×3, 3 in a row".
func (s Shape) String() string { return fmt.Sprintf("%d×%d, %d in a row", s.Rows, s.Cols, s.K) }

// Validate returns ErrBadShape when no game can have shape s.
func (s Shape) Validate() error {
	if _, err := game.NewGeometry(s.Rows, s.Cols, s.K); err != nil {
		return ErrBadShape
	}
	return nil
}
