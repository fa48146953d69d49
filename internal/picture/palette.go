package picture

import (
	"image/color"

	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/palette"
)

// The colours of internal/palette, which says why each and tests them.
var (
	boardColor = palette.RGBA(palette.Board)
	cellColor  = palette.RGBA(palette.Cell)
	labelColor = palette.RGBA(palette.Label)
	lineColor  = palette.RGBA(palette.Line)
	xColor     = palette.RGBA(palette.X)
	oColor     = palette.RGBA(palette.O)
	xCell      = palette.RGBA(palette.XCell)
	oCell      = palette.RGBA(palette.OCell)

	// The badge of a judged move's number; one not judged has the board's
	// colour, with its number in the labels'.
	verdictColors = map[ai.Verdict]color.RGBA{
		ai.Best:       palette.RGBA(palette.Best),
		ai.Inaccuracy: palette.RGBA(palette.Inaccuracy),
		ai.Mistake:    palette.RGBA(palette.Mistake),
	}

	// The chart's lines, one per shape, which also differ by their dashes.
	seriesColors = [...]color.RGBA{xColor, oColor, verdictColors[ai.Best], verdictColors[ai.Mistake]}
)

// mix is a blended with b, by t from 0 (a) to 1 (b).
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xff}
}
