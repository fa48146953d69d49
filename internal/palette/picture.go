package palette

// The pictures' other colours (internal/picture), as 0xRRGGBB. A board
// carries its own dark background, so it reads the same on both themes;
// the chart's background is transparent, so its lines (the sides' colours
// and the verdicts') and Label stand against both themes.
const (
	Board = 0x1E1F22 // a board, between its cells
	Cell  = 0x2B2D31 // an empty cell
	// A cell a mark holds is tinted with its side's colour (15% of it on
	// Cell), so that its centre, inside an O's ring too, says whose it is.
	XCell = 0x293B4C
	OCell = 0x45342A
	Label = 0x949BA4 // coordinates, axes, ticks, an unjudged move's number
	Line  = 0xF2F3F5 // a winning line

	// A move's verdict fills the badge of its number: bluish green for the
	// best move, yellow for an inaccuracy, reddish purple for a mistake
	// (Okabe and Ito's).
	Best       = 0x009E73
	Inaccuracy = 0xF0E442
	Mistake    = 0xCC79A7
)
