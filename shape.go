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

// Code names the shape in one word, as flags and puzzle IDs do: "5x5k4".
func (s Shape) Code() string { return fmt.Sprintf("%dx%dk%d", s.Rows, s.Cols, s.K) }

// ParseShape reads a shape's Code, refusing one no game can have.
func ParseShape(code string) (Shape, error) {
	var s Shape
	var rest string
	if n, _ := fmt.Sscanf(code, "%dx%dk%d%s", &s.Rows, &s.Cols, &s.K, &rest); n != 3 {
		return Shape{}, Errorf(EINVALID, "shape %q: want ROWSxCOLSkK, such as 5x5k4", code)
	}
	if err := s.Validate(); err != nil {
		return Shape{}, Errorf(EINVALID, "shape %q: no board has this shape", code)
	}
	return s, nil
}
