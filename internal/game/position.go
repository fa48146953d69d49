package game

import (
	"fmt"
	"strings"
)

// Position is a board with its pieces. It is a small value: Play returns a new
// Position and never changes the receiver, so positions can be shared freely.
type Position struct {
	geo  *Geometry
	x, o Mask
}

// Result is the state of a finished or unfinished game.
type Result struct {
	Over   bool
	Winner Player // None for a draw or an unfinished game
	Lines  []Mask // every complete line of the winner, for highlighting
}

// NewPosition returns the empty board of g.
func NewPosition(g *Geometry) Position { return Position{geo: g} }

// FromMasks builds a position from its pieces and checks that it is legal.
func FromMasks(g *Geometry, x, o Mask) (Position, error) {
	p := Position{geo: g, x: x, o: o}
	if err := p.Validate(); err != nil {
		return Position{}, err
	}
	return p, nil
}

// Geometry returns the board shape.
func (p Position) Geometry() *Geometry { return p.geo }

// X returns the cells held by X.
func (p Position) X() Mask { return p.x }

// O returns the cells held by O.
func (p Position) O() Mask { return p.o }

// Empty returns the free cells.
func (p Position) Empty() Mask { return p.geo.full &^ (p.x | p.o) }

// Ply is the number of moves played.
func (p Position) Ply() int { return p.x.Count() + p.o.Count() }

// At returns who holds cell.
func (p Position) At(cell int) Player {
	switch {
	case p.x.Has(cell):
		return X
	case p.o.Has(cell):
		return O
	}
	return None
}

// ToMove returns the side whose turn it is (X moves first).
func (p Position) ToMove() Player {
	if p.x.Count() == p.o.Count() {
		return X
	}
	return O
}

// Validate checks the counts and lines of a position: X has as many pieces
// as O or one more; at most one side has a line; a winner made the last move,
// so all its lines pass through one cell. A position passes exactly when some
// game reaches it.
func (p Position) Validate() error {
	if p.geo == nil {
		return fmt.Errorf("%w: no geometry", ErrIllegal)
	}
	if p.x&p.o != 0 || (p.x|p.o)&^p.geo.full != 0 {
		return fmt.Errorf("%w: overlapping or off-board pieces", ErrIllegal)
	}
	nx, no := p.x.Count(), p.o.Count()
	if nx != no && nx != no+1 {
		return fmt.Errorf("%w: X has %d pieces and O %d (X moves first, sides alternate)", ErrIllegal, nx, no)
	}
	xw, ow := p.geo.wins(p.x), p.geo.wins(p.o)
	switch {
	case xw && ow:
		return fmt.Errorf("%w: both sides have a line", ErrIllegal)
	case xw && nx != no+1:
		return fmt.Errorf("%w: X has a line but O moved after it", ErrIllegal)
	case ow && nx != no:
		return fmt.Errorf("%w: O has a line but X moved after it", ErrIllegal)
	}
	// The game ends at the first line, so every line of the winner was
	// completed by its last move: the lines must share a cell.
	if xw || ow {
		winner, lines := X, p.geo.winningLines(p.x)
		if ow {
			winner, lines = O, p.geo.winningLines(p.o)
		}
		common := p.geo.full
		for _, l := range lines {
			common &= l
		}
		if common == 0 {
			return fmt.Errorf("%w: %v has lines that no single move completed", ErrIllegal, winner)
		}
	}
	return nil
}

// Result reports whether the game is over, who won, and with which lines.
func (p Position) Result() Result {
	if p.geo.wins(p.x) {
		return Result{Over: true, Winner: X, Lines: p.geo.winningLines(p.x)}
	}
	if p.geo.wins(p.o) {
		return Result{Over: true, Winner: O, Lines: p.geo.winningLines(p.o)}
	}
	return Result{Over: p.x|p.o == p.geo.full}
}

// Moves lists the free cells in increasing order, or nil when the game is over.
func (p Position) Moves() []int {
	if p.Result().Over {
		return nil
	}
	return p.Empty().Cells()
}

// Play puts the side to move on cell and returns the new position.
func (p Position) Play(cell int) (Position, error) {
	if cell < 0 || cell >= p.geo.Cells() {
		return p, fmt.Errorf("cell %d on %s: %w", cell, p.geo.Size(), ErrOutOfRange)
	}
	// Game over comes before a taken cell: on a full board every cell is
	// taken, and the caller needs to know the game has ended.
	if p.Result().Over {
		return p, ErrGameOver
	}
	if !p.Empty().Has(cell) {
		return p, fmt.Errorf("cell %d: %w", cell, ErrCellTaken)
	}
	if p.ToMove() == X {
		p.x |= 1 << cell
	} else {
		p.o |= 1 << cell
	}
	return p, nil
}

// String writes the notation: rows top to bottom separated by '/', cells
// 'X', 'O' and '.', e.g. "XO./.X./..O".
func (p Position) String() string {
	if p.geo == nil {
		return ""
	}
	var b strings.Builder
	b.Grow(p.geo.Rows * (p.geo.Cols + 1))
	for r := range p.geo.Rows {
		if r > 0 {
			b.WriteByte('/')
		}
		for c := range p.geo.Cols {
			b.WriteString(p.At(p.geo.Cell(r, c)).String())
		}
	}
	return b.String()
}

// Parse reads the notation (lower case accepted) and checks that the position
// is legal. The board size comes from the text; k = 0 means DefaultK.
func Parse(s string, k int) (Position, error) {
	s, rows, err := splitRows(s)
	if err != nil {
		return Position{}, err
	}
	if k == 0 {
		k = DefaultK(len(rows), len(rows[0]))
	}
	g, err := NewGeometry(len(rows), len(rows[0]), k)
	if err != nil {
		return Position{}, fmt.Errorf("%w %q: %w", ErrNotation, s, err)
	}
	return place(g, s, rows)
}

// ParseIn reads the notation for a known geometry, as storage does.
func ParseIn(g *Geometry, s string) (Position, error) {
	s, rows, err := splitRows(s)
	if err != nil {
		return Position{}, err
	}
	if len(rows) != g.Rows || len(rows[0]) != g.Cols {
		return Position{}, fmt.Errorf("%w %q: not a %s board", ErrNotation, s, g.Size())
	}
	return place(g, s, rows)
}

// splitRows checks the characters and the shape of the notation and returns
// it trimmed, with its rows.
func splitRows(s string) (string, []string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return s, nil, fmt.Errorf("%w %q: empty", ErrNotation, s)
	}
	// Check the characters first, so rows are ASCII and a stray character is
	// named rather than reported as a bad row length.
	for _, ch := range s {
		if !strings.ContainsRune("XxOo./", ch) {
			return s, nil, fmt.Errorf("%w %q: unexpected %q (use X, O and . in rows separated by /)", ErrNotation, s, ch)
		}
	}
	rows := strings.Split(s, "/")
	for _, r := range rows {
		if len(r) != len(rows[0]) {
			return s, nil, fmt.Errorf("%w %q: rows have different lengths", ErrNotation, s)
		}
	}
	return s, rows, nil
}

// place puts the pieces of rows on g and checks the position is legal.
func place(g *Geometry, s string, rows []string) (Position, error) {
	var x, o Mask
	for r, row := range rows {
		for c := 0; c < len(row); c++ {
			bit := Mask(1) << g.Cell(r, c)
			switch row[c] {
			case 'X', 'x':
				x |= bit
			case 'O', 'o':
				o |= bit
			}
		}
	}
	p, err := FromMasks(g, x, o)
	if err != nil {
		return Position{}, fmt.Errorf("board %q: %w", s, err)
	}
	return p, nil
}
