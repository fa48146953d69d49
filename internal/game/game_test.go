package game_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/game"
)

func TestNewGeometryLines(t *testing.T) {
	tests := []struct {
		rows, cols, k int
		lines         int
	}{
		{3, 3, 3, 8},
		{3, 4, 3, 14},
		{3, 4, 4, 3},
		{3, 5, 4, 6},
		{3, 5, 5, 3},
		{4, 3, 4, 3},
		{4, 4, 3, 24},
		{4, 4, 4, 10},
		{4, 5, 4, 17},
		{5, 5, 3, 48},
		{5, 5, 4, 28},
		{5, 5, 5, 12},
	}
	for _, tt := range tests {
		g, err := game.NewGeometry(tt.rows, tt.cols, tt.k)
		if err != nil {
			t.Fatalf("NewGeometry(%d, %d, %d): %v", tt.rows, tt.cols, tt.k, err)
		}
		if got := len(g.Lines()); got != tt.lines {
			t.Errorf("%v: got %d lines, want %d", g, got, tt.lines)
		}
		if got, want := g.Cells(), tt.rows*tt.cols; got != want {
			t.Errorf("%v: got %d cells, want %d", g, got, want)
		}
		if got, want := g.Full(), game.Mask(1)<<(tt.rows*tt.cols)-1; got != want {
			t.Errorf("%v: got full mask %b, want %b", g, got, want)
		}
		// Every line has K cells on the board, and LinesThrough indexes
		// each line once per cell.
		through := 0
		for cell := range g.Cells() {
			for _, l := range g.LinesThrough(cell) {
				if !l.Has(cell) {
					t.Errorf("%v: line %b listed through cell %d", g, l, cell)
				}
			}
			through += len(g.LinesThrough(cell))
		}
		for _, l := range g.Lines() {
			if l.Count() != tt.k || l&^g.Full() != 0 {
				t.Errorf("%v: bad line %b", g, l)
			}
		}
		if got, want := through, tt.lines*tt.k; got != want {
			t.Errorf("%v: got %d cell-line pairs, want %d", g, got, want)
		}
	}
}

func TestLinesThrough3x3(t *testing.T) {
	g := game.MustGeometry(3, 3, 3)
	want := []int{3, 2, 3, 2, 4, 2, 3, 2, 3}
	for cell, n := range want {
		if got := len(g.LinesThrough(cell)); got != n {
			t.Errorf("cell %d: got %d lines, want %d", cell, got, n)
		}
	}
}

func TestNewGeometryInvalid(t *testing.T) {
	tests := []struct {
		rows, cols, k int
		want          string // the end of the message
	}{
		{2, 3, 3, "2×3 board (sides must be 3 to 5)"},
		{3, 2, 3, "(sides must be 3 to 5)"},
		{6, 5, 4, "(sides must be 3 to 5)"},
		{5, 6, 4, "(sides must be 3 to 5)"},
		{0, 0, 0, "(sides must be 3 to 5)"},
		{-3, 3, 3, "(sides must be 3 to 5)"},
		{3, 3, 2, "2 in a row on 3×3 (must be 3)"},
		{3, 3, 4, "4 in a row on 3×3 (must be 3)"},
		{4, 4, 5, "5 in a row on 4×4 (must be 3 to 4)"},
		{3, 4, 5, "5 in a row on 3×4 (must be 3 to 4)"},
		{5, 5, 6, "6 in a row on 5×5 (must be 3 to 5)"},
		{5, 5, -1, "(must be 3 to 5)"},
	}
	for _, tt := range tests {
		g, err := game.NewGeometry(tt.rows, tt.cols, tt.k)
		if !errors.Is(err, game.ErrGeometry) || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("NewGeometry(%d, %d, %d): got %v, %v, want ErrGeometry ending %q", tt.rows, tt.cols, tt.k, g, err, tt.want)
		}
	}
}

func TestMustGeometryPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustGeometry(2, 2, 2) did not panic")
		}
	}()
	game.MustGeometry(2, 2, 2)
}

func TestDefaultK(t *testing.T) {
	tests := []struct{ rows, cols, want int }{
		{3, 3, 3},
		{4, 4, 4},
		{5, 5, 4},
		{3, 4, 4},
		{3, 5, 4},
		{5, 3, 4},
	}
	for _, tt := range tests {
		if got := game.DefaultK(tt.rows, tt.cols); got != tt.want {
			t.Errorf("DefaultK(%d, %d): got %d, want %d", tt.rows, tt.cols, got, tt.want)
		}
		if _, err := game.NewGeometry(tt.rows, tt.cols, game.DefaultK(tt.rows, tt.cols)); err != nil {
			t.Errorf("DefaultK(%d, %d) is not a valid K: %v", tt.rows, tt.cols, err)
		}
	}
}

func TestGeometryNames(t *testing.T) {
	g := game.MustGeometry(4, 5, 4)
	if got, want := g.Size(), "4x5"; got != want {
		t.Errorf("Size: got %q, want %q", got, want)
	}
	if got, want := g.String(), "4x5 k=4"; got != want {
		t.Errorf("String: got %q, want %q", got, want)
	}
	if got, want := g.Cell(2, 3), 13; got != want {
		t.Errorf("Cell(2, 3): got %d, want %d", got, want)
	}
}

func TestMask(t *testing.T) {
	m := game.Mask(1<<0 | 1<<4 | 1<<24)
	if got, want := m.Count(), 3; got != want {
		t.Errorf("Count: got %d, want %d", got, want)
	}
	if got, want := m.Cells(), []int{0, 4, 24}; !slices.Equal(got, want) {
		t.Errorf("Cells: got %v, want %v", got, want)
	}
	if !m.Has(24) || m.Has(5) {
		t.Errorf("Has: got %v, %v, want true, false", m.Has(24), m.Has(5))
	}
	if got := game.Mask(0).Cells(); len(got) != 0 {
		t.Errorf("empty Cells: got %v, want none", got)
	}
}

func TestPlayerOther(t *testing.T) {
	tests := []struct{ p, other game.Player }{{game.X, game.O}, {game.O, game.X}, {game.None, game.None}}
	for _, tt := range tests {
		if got := tt.p.Other(); got != tt.other {
			t.Errorf("%v.Other(): got %v, want %v", tt.p, got, tt.other)
		}
	}
}

func TestParseRoundTrip(t *testing.T) {
	tests := []struct {
		in, want string
		k        int
	}{
		{"XO./.X./..O", "XO./.X./..O", 3},
		{"xo./.x./..o", "XO./.X./..O", 3},
		{"  .../.../...\n", ".../.../...", 3},
		{"..../..../..../....", "..../..../..../....", 4},
		{"...../...../..X../...../.....", "...../...../..X../...../.....", 4},
		{"X..../...../...../...../....O", "X..../...../...../...../....O", 4},
		{"XXX./OO../....", "XXX./OO../....", 4},
		{"XXX/OO./...", "XXX/OO./...", 3},
		{"X.O/..X/O.X/.../...", "X.O/..X/O.X/.../...", 4},
	}
	for _, tt := range tests {
		p, err := game.Parse(tt.in, 0)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := p.String(); got != tt.want {
			t.Errorf("Parse(%q).String(): got %q, want %q", tt.in, got, tt.want)
		}
		if got := p.Geometry().K; got != tt.k {
			t.Errorf("Parse(%q): got k=%d, want %d", tt.in, got, tt.k)
		}
		q, err := game.Parse(p.String(), p.Geometry().K)
		if err != nil || q.X() != p.X() || q.O() != p.O() {
			t.Errorf("Parse(%q) again: got %v, %v, want %v", p.String(), q, err, p)
		}
	}
}

func TestParseExplicitK(t *testing.T) {
	p, err := game.Parse("..../..../..../....", 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Geometry().String(), "4x4 k=3"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		k    int
		err  error
		want string // part of the message, besides the board itself
	}{
		{"", 0, game.ErrNotation, "empty"},
		{"   ", 0, game.ErrNotation, "empty"},
		{"XO./.X.", 0, game.ErrNotation, "invalid board geometry"},
		{"XO./.X./..", 0, game.ErrNotation, "different lengths"},
		{"XO./.X./..O/", 0, game.ErrNotation, "different lengths"},
		{"XO./.Z./..O", 0, game.ErrNotation, "unexpected 'Z'"},
		{"XO. .X. ..O", 0, game.ErrNotation, "unexpected ' '"},
		{"XO./.X./..Ö", 0, game.ErrNotation, "unexpected 'Ö'"},
		{"XO./.X./..0", 0, game.ErrNotation, "unexpected '0'"},
		{"XO/OX", 0, game.ErrGeometry, "2×2"},
		{"....../....../......", 0, game.ErrGeometry, "3×6"},
		{".../.../...", 4, game.ErrGeometry, "4 in a row"},
		{".../.../...", 2, game.ErrGeometry, "2 in a row"},
		{"XX./.../...", 0, game.ErrIllegal, "X has 2 pieces and O 0"},
		{"O../.../...", 0, game.ErrIllegal, "X has 0 pieces and O 1"},
		{"XXX/OOO/...", 0, game.ErrIllegal, "both sides"},
		{"XXX/OO./O..", 0, game.ErrIllegal, "O moved after"},
		{"OOO/XX./X.X", 0, game.ErrIllegal, "X moved after"},
	}
	for _, tt := range tests {
		_, err := game.Parse(tt.in, tt.k)
		if !errors.Is(err, tt.err) {
			t.Errorf("Parse(%q, %d): got %v, want %v", tt.in, tt.k, err, tt.err)
			continue
		}
		msg := err.Error()
		if board := strings.TrimSpace(tt.in); !strings.Contains(msg, `"`+board+`"`) {
			t.Errorf("Parse(%q, %d): message %q does not name the board", tt.in, tt.k, msg)
		}
		if !strings.Contains(msg, tt.want) {
			t.Errorf("Parse(%q, %d): got message %q, want it to contain %q", tt.in, tt.k, msg, tt.want)
		}
	}
}

func TestParseIn(t *testing.T) {
	g := game.MustGeometry(4, 4, 3)
	p, err := game.ParseIn(g, "X.../..../..../...O")
	if err != nil {
		t.Fatal(err)
	}
	if p.Geometry() != g {
		t.Errorf("got geometry %v, want the one given", p.Geometry())
	}
	for _, bad := range []string{"X../.../..O", "X..../...../...../...../....O", "X.../..../...."} {
		if _, err := game.ParseIn(g, bad); !errors.Is(err, game.ErrNotation) {
			t.Errorf("ParseIn(4x4, %q): got %v, want ErrNotation", bad, err)
		}
	}
	// The geometry's K decides the result: three in a row wins on 4×4 k=3.
	p, err = game.ParseIn(g, "XXX./OO../..../....")
	if err != nil {
		t.Fatal(err)
	}
	if r := p.Result(); !r.Over || r.Winner != game.X {
		t.Errorf("got %+v, want X to have won", r)
	}
}

func TestValidate(t *testing.T) {
	g33 := game.MustGeometry(3, 3, 3)
	g44 := game.MustGeometry(4, 4, 3)
	g55 := game.MustGeometry(5, 5, 4)
	tests := []struct {
		name  string
		g     *game.Geometry
		board string
		ok    bool
	}{
		{"empty", g33, ".../.../...", true},
		{"X to move", g33, "X../.O./...", true},
		{"O to move", g33, "X../.O./..X", true},
		{"O has two more", g33, "O../.O./...", false},
		{"X has two more", g33, "XX./.../...", false},
		{"full draw", g33, "XOX/XOO/OXX", true},
		{"X won, one more", g33, "XXX/OO./...", true},
		{"X won, equal counts", g33, "XXX/OO./..O", false},
		{"O won, equal counts", g33, "OOO/XX./X..", true},
		{"O won, X one more", g33, "OOO/XX./X.X", false},
		{"both won", g33, "XXX/OOO/...", false},
		{"X won on the last cell", g33, "XOX/OXO/OXX", true},
		{"X row and diagonal by one move", g33, "XXX/OXO/OOX", true},
		{"X row and column by one move", g33, "XXX/XOO/XOO", true},
		{"X both diagonals by one move", g33, "XOX/OXO/XOX", true},
		{"X two parallel lines", g44, "XXX./OO.O/XXX./.OO.", false},
		{"X two crossing lines", g44, "XXX./OXO./OXO./....", true},
		{"X two lines meeting at an end", g44, "XXXO/X.../XO../O.O.", true},
		{"X two rows of four", g55, "XXXX./OOO../XXXX./OOO../O....", false},
		{"X five in a row on k=4", g55, "XXXXX/OO.../OO.../...../.....", true},
		{"X five in a row, O moved after", g55, "XXXXX/OO.../OO.../O..../.....", false},
	}
	for _, tt := range tests {
		x, o := masks(t, tt.g, tt.board)
		_, err := game.FromMasks(tt.g, x, o)
		if tt.ok && err != nil {
			t.Errorf("%s: FromMasks(%s): %v", tt.name, tt.board, err)
		}
		if !tt.ok && !errors.Is(err, game.ErrIllegal) {
			t.Errorf("%s: FromMasks(%s): got %v, want ErrIllegal", tt.name, tt.board, err)
		}
	}
}

func TestValidateMasks(t *testing.T) {
	g := game.MustGeometry(3, 3, 3)
	tests := []struct {
		name string
		x, o game.Mask
	}{
		{"overlap", 1, 1},
		{"off the board", 1 << 9, 1},
	}
	for _, tt := range tests {
		if _, err := game.FromMasks(g, tt.x, tt.o); !errors.Is(err, game.ErrIllegal) {
			t.Errorf("%s: got %v, want ErrIllegal", tt.name, err)
		}
	}
	if err := (game.Position{}).Validate(); !errors.Is(err, game.ErrIllegal) {
		t.Errorf("zero Position: got %v, want ErrIllegal", err)
	}
}

func TestPlay(t *testing.T) {
	p := game.NewPosition(game.MustGeometry(3, 3, 3))
	for i, cell := range []int{4, 0, 8} {
		if got, want := p.ToMove(), []game.Player{game.X, game.O, game.X}[i]; got != want {
			t.Fatalf("before move %d: got %v to move, want %v", i, got, want)
		}
		before := p.String()
		q, err := p.Play(cell)
		if err != nil {
			t.Fatalf("Play(%d): %v", cell, err)
		}
		if p.String() != before {
			t.Errorf("Play(%d) changed the receiver: got %q, want %q", cell, p.String(), before)
		}
		if got, want := q.At(cell), p.ToMove(); got != want {
			t.Errorf("Play(%d): got %v on the cell, want %v", cell, got, want)
		}
		if got, want := q.Ply(), p.Ply()+1; got != want {
			t.Errorf("Play(%d): got ply %d, want %d", cell, got, want)
		}
		p = q
	}
	if got, want := p.String(), "O../.X./..X"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := p.Moves(), []int{1, 2, 3, 5, 6, 7}; !slices.Equal(got, want) {
		t.Errorf("Moves: got %v, want %v", got, want)
	}
	if got, want := p.Empty(), game.Mask(0b011101110); got != want {
		t.Errorf("Empty: got %b, want %b", got, want)
	}
}

func TestPlayErrors(t *testing.T) {
	tests := []struct {
		board string
		cell  int
		err   error
	}{
		{".../.../...", -1, game.ErrOutOfRange},
		{".../.../...", 9, game.ErrOutOfRange},
		{".../.../...", 40, game.ErrOutOfRange},
		{"..../..../..../....", 16, game.ErrOutOfRange},
		{"X../.../...", 0, game.ErrCellTaken},
		{"X../.O./...", 4, game.ErrCellTaken},
		{"XXX/OO./...", 8, game.ErrGameOver},
		{"XXX/OO./...", 3, game.ErrGameOver}, // taken, but over first
		{"XOX/XOO/OXX", 4, game.ErrGameOver}, // a draw: every cell is taken
		{"XXX/OO./...", 9, game.ErrOutOfRange},
	}
	for _, tt := range tests {
		p, err := game.Parse(tt.board, 0)
		if err != nil {
			t.Fatal(err)
		}
		q, err := p.Play(tt.cell)
		if !errors.Is(err, tt.err) {
			t.Errorf("%s Play(%d): got %v, want %v", tt.board, tt.cell, err, tt.err)
		}
		if q.String() != p.String() || p.String() != tt.board {
			t.Errorf("%s Play(%d): position changed to %q", tt.board, tt.cell, q.String())
		}
	}
}

func TestResult(t *testing.T) {
	tests := []struct {
		board  string
		k      int
		over   bool
		winner game.Player
		lines  []string // each line as a board of its cells
	}{
		{".../.../...", 0, false, game.None, nil},
		{"XO./.X./..O", 0, false, game.None, nil},
		{"XOX/XOO/OXX", 0, true, game.None, nil},
		{"XXX/OO./...", 0, true, game.X, []string{"XXX/.../..."}},
		{"OOO/XX./X..", 0, true, game.O, []string{"OOO/.../..."}},
		{"XO./XO./X..", 0, true, game.X, []string{"X../X../X.."}},
		{"XOO/.X./..X", 0, true, game.X, []string{"X../.X./..X"}},
		{"XXO/.O./O.X", 0, true, game.O, []string{"..O/.O./O.."}},
		{"XXX/XOO/XOO", 0, true, game.X, []string{"XXX/.../...", "X../X../X.."}},
		{"XXX/OXO/OOX", 0, true, game.X, []string{"XXX/.../...", "X../.X./..X"}},
		{"XOX/OXO/XOX", 0, true, game.X, []string{"X../.X./..X", "..X/.X./X.."}},
		// On 5×5 k=4 a row of five holds two lines of four.
		{"XXXXX/OO.../O..../...../.O...", 0, true, game.X, []string{"XXXX./...../...../...../.....", ".XXXX/...../...../...../....."}},
		{"XX.../.X.../..X../...../OOOO.", 0, true, game.O, []string{"...../...../...../...../OOOO."}},
		{"XXX./OO../..../....", 3, true, game.X, []string{"XXX./..../..../...."}},
		{"XXX./OO../..../....", 4, false, game.None, nil},
	}
	for _, tt := range tests {
		p, err := game.Parse(tt.board, tt.k)
		if err != nil {
			t.Fatal(err)
		}
		r := p.Result()
		if r.Over != tt.over || r.Winner != tt.winner {
			t.Errorf("%s: got over=%v winner=%v, want over=%v winner=%v", tt.board, r.Over, r.Winner, tt.over, tt.winner)
		}
		var lines []string
		for _, l := range r.Lines {
			lines = append(lines, lineBoard(p.Geometry(), l, tt.winner))
		}
		if !slices.Equal(lines, tt.lines) {
			t.Errorf("%s: got lines %q, want %q", tt.board, lines, tt.lines)
		}
		if tt.over && p.Moves() != nil {
			t.Errorf("%s: got moves %v after the end, want none", tt.board, p.Moves())
		}
	}
}

// masks reads a board's pieces without Parse's legality check.
func masks(t *testing.T, g *game.Geometry, board string) (x, o game.Mask) {
	t.Helper()
	cell := 0
	for _, ch := range board {
		switch ch {
		case 'X':
			x |= 1 << cell
		case 'O':
			o |= 1 << cell
		case '/':
			continue
		}
		cell++
	}
	if cell != g.Cells() {
		t.Fatalf("board %q has %d cells, want %d", board, cell, g.Cells())
	}
	return x, o
}

// lineBoard draws a line as a board holding only the line's cells.
func lineBoard(g *game.Geometry, l game.Mask, p game.Player) string {
	var b strings.Builder
	for cell := range g.Cells() {
		if cell > 0 && cell%g.Cols == 0 {
			b.WriteByte('/')
		}
		if l.Has(cell) {
			b.WriteString(p.String())
		} else {
			b.WriteByte('.')
		}
	}
	return b.String()
}
