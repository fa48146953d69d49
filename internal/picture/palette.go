package picture

import (
	"image/color"

	"github.com/tttbot/tttbot/internal/ai"
)

// The palette: every colour the pictures use, in one place.
//
// The boards carry their own dark background, so they read the same in
// Discord's dark and light themes. The chart's background is transparent,
// so its inks (lines and labels) are of middle lightness, standing out
// against both themes. The hues are Okabe and Ito's, chosen for colour-blind
// readers: X is orange and O blue, which protanopes and deuteranopes still
// tell apart as yellow and blue.
//
// TestPaletteDistinct checks it by simulation: each ink, seen with normal
// vision and through Machado et al.'s (2009) protanopia and deuteranopia
// matrices, must differ from the inks it is read against by ΔE*ab ≥ 15
// and from the backgrounds it is drawn on by ΔE*ab ≥ 30 and ΔL* ≥ 25.
var (
	boardColor = color.RGBA{0x1e, 0x1f, 0x22, 0xff} // the board, between the cells
	cellColor  = color.RGBA{0x2b, 0x2d, 0x31, 0xff} // an empty cell
	labelColor = color.RGBA{0x94, 0x9b, 0xa4, 0xff} // coordinates, axes, ticks and unjudged moves
	lineColor  = color.RGBA{0xf2, 0xf3, 0xf5, 0xff} // the winning line

	xColor = color.RGBA{0xe6, 0x9f, 0x00, 0xff}
	oColor = color.RGBA{0x56, 0xb4, 0xe9, 0xff}
	// A cell a mark holds is tinted with the mark's colour, so that its
	// centre, inside an O's ring too, says whose it is.
	xCell = mix(cellColor, xColor, 0.2)
	oCell = mix(cellColor, oColor, 0.2)

	// A verdict's colour fills the badge of a move's number, which is
	// ringed and written in the board's colour: bluish green for the best
	// move, yellow for an inaccuracy, vermillion for a mistake. A move not
	// judged has its number in the labels' grey on a badge of the board's
	// colour.
	verdictColors = map[ai.Verdict]color.RGBA{
		ai.Best:       {0x00, 0x9e, 0x73, 0xff},
		ai.Inaccuracy: {0xf0, 0xe4, 0x42, 0xff},
		ai.Mistake:    {0xd5, 0x5e, 0x00, 0xff},
	}

	// The chart's lines, one per shape, which also differ by their dashes.
	seriesColors = [...]color.RGBA{oColor, xColor, verdictColors[ai.Best], verdictColors[ai.Mistake]}
)

// mix is a blended with b, by t from 0 (a) to 1 (b).
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xff}
}
