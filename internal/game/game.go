// Package game holds the rules of m,n,k tic-tac-toe: board geometry, positions
// as bitboards, legal moves, results with their winning lines, and the text
// notation used by the CLI, tests, logs and storage.
package game

import (
	"errors"
	"fmt"
	"math/bits"
	"strconv"
)

// Board limits: a Discord message holds at most 5 rows of 5 buttons.
const (
	MinSize = 3
	MaxSize = 5
	MinK    = 3
)

// Errors a caller may need to tell apart. They are wrapped with detail, so
// compare with errors.Is.
var (
	ErrGeometry   = errors.New("invalid board geometry")
	ErrNotation   = errors.New("malformed board")
	ErrIllegal    = errors.New("illegal position")
	ErrOutOfRange = errors.New("cell out of range")
	ErrCellTaken  = errors.New("cell taken")
	ErrGameOver   = errors.New("game over")
)

// Player is a side, or None for an empty cell or a draw.
type Player uint8

const (
	None Player = iota
	X
	O
)

// Other returns the opponent of p (None stays None).
func (p Player) Other() Player {
	switch p {
	case X:
		return O
	case O:
		return X
	}
	return None
}

func (p Player) String() string {
	switch p {
	case X:
		return "X"
	case O:
		return "O"
	}
	return "."
}

// Mask is a set of cells, bit i for cell i (row-major from 0).
type Mask uint32

// Has reports whether cell is in m.
func (m Mask) Has(cell int) bool { return m&(1<<cell) != 0 }

// Count is the number of cells in m.
func (m Mask) Count() int { return bits.OnesCount32(uint32(m)) }

// Cells lists the cells of m in increasing order.
func (m Mask) Cells() []int {
	cells := make([]int, 0, m.Count())
	for v := uint32(m); v != 0; v &= v - 1 {
		cells = append(cells, bits.TrailingZeros32(v))
	}
	return cells
}

// Geometry is a board shape: Rows×Cols cells and K in a row to win. It is
// immutable once built and safe to share.
type Geometry struct {
	Rows, Cols, K int
	full          Mask
	lines         []Mask   // every K-cell segment of a row, column or diagonal
	cellLines     [][]Mask // the segments through each cell
	syms          [][]int  // the symmetries as cell permutations, identity first
}

// DefaultK is the win length used when none is given: 3×3 → 3, 4×4 → 4,
// 5×5 → 4 (five in a row on 5×5 is a dull draw): min(longer side, 4).
func DefaultK(rows, cols int) int {
	return min(max(rows, cols), 4)
}

// NewGeometry checks a board shape and returns it. Every shape is built
// once, at start-up, and shared: a Geometry is immutable, and building one
// costs more than the move or render that asks for it.
func NewGeometry(rows, cols, k int) (*Geometry, error) {
	if rows < MinSize || rows > MaxSize || cols < MinSize || cols > MaxSize {
		return nil, fmt.Errorf("%w: %d×%d board (sides must be %s)", ErrGeometry, rows, cols, span(MinSize, MaxSize))
	}
	if k < MinK || k > max(rows, cols) {
		return nil, fmt.Errorf("%w: %d in a row on %d×%d (must be %s)", ErrGeometry, k, rows, cols, span(MinK, max(rows, cols)))
	}
	return geometries[rows-MinSize][cols-MinSize][k-MinK], nil
}

// span says "3 to 5", or "3" when the range holds one number.
func span(lo, hi int) string {
	if lo == hi {
		return strconv.Itoa(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// geometries holds every valid shape by rows, cols and K, each offset by its
// minimum. It is written once, here, and only read after.
var geometries = func() (t [MaxSize - MinSize + 1][MaxSize - MinSize + 1][MaxSize - MinK + 1]*Geometry) {
	for rows := MinSize; rows <= MaxSize; rows++ {
		for cols := MinSize; cols <= MaxSize; cols++ {
			for k := MinK; k <= max(rows, cols); k++ {
				t[rows-MinSize][cols-MinSize][k-MinK] = buildGeometry(rows, cols, k)
			}
		}
	}
	return t
}()

// buildGeometry builds a valid board shape: its winning lines, and those
// through each cell.
func buildGeometry(rows, cols, k int) *Geometry {
	g := &Geometry{Rows: rows, Cols: cols, K: k, full: Mask(1)<<(rows*cols) - 1, syms: symmetries(rows, cols)}
	g.cellLines = make([][]Mask, rows*cols)
	dirs := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
	for r := range rows {
		for c := range cols {
			for _, d := range dirs {
				er, ec := r+d[0]*(k-1), c+d[1]*(k-1)
				if er < 0 || er >= rows || ec < 0 || ec >= cols {
					continue
				}
				var m Mask
				for i := range k {
					m |= 1 << ((r+d[0]*i)*cols + c + d[1]*i)
				}
				g.lines = append(g.lines, m)
				for _, cell := range m.Cells() {
					g.cellLines[cell] = append(g.cellLines[cell], m)
				}
			}
		}
	}
	return g
}

// MustGeometry is NewGeometry for shapes known to be valid; it panics otherwise.
func MustGeometry(rows, cols, k int) *Geometry {
	g, err := NewGeometry(rows, cols, k)
	if err != nil {
		panic(err)
	}
	return g
}

// Cells is the number of cells on the board.
func (g *Geometry) Cells() int { return g.Rows * g.Cols }

// Full is the mask of every cell.
func (g *Geometry) Full() Mask { return g.full }

// Lines returns every winning segment. The slice must not be modified.
func (g *Geometry) Lines() []Mask { return g.lines }

// LinesThrough returns the winning segments through cell. The slice must not
// be modified.
func (g *Geometry) LinesThrough(cell int) []Mask { return g.cellLines[cell] }

// Size is the board's size as "RxC", e.g. "3x3".
func (g *Geometry) Size() string { return fmt.Sprintf("%dx%d", g.Rows, g.Cols) }

func (g *Geometry) String() string { return fmt.Sprintf("%dx%d k=%d", g.Rows, g.Cols, g.K) }

// Cell returns the cell index of row r, column c.
func (g *Geometry) Cell(r, c int) int { return r*g.Cols + c }

// wins reports whether m contains a complete line.
func (g *Geometry) wins(m Mask) bool {
	for _, l := range g.lines {
		if m&l == l {
			return true
		}
	}
	return false
}

// winningLines lists the complete lines in m.
func (g *Geometry) winningLines(m Mask) []Mask {
	var out []Mask
	for _, l := range g.lines {
		if m&l == l {
			out = append(out, l)
		}
	}
	return out
}
