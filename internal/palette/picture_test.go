package palette_test

import (
	"math"
	"testing"

	"github.com/tttbot/tttbot/internal/palette"
)

// TestPictureInks checks the pictures' colours, for normal vision and for
// red-green dichromats: inks a reader tells apart differ by a CIELAB
// distance of 15 or more; an ink and a background it is drawn on by 30 or
// more, and small digits and lines from theirs by 25 in lightness too.
func TestPictureInks(t *testing.T) {
	const apart, ground, groundL = 15, 30, 25
	sides := []int{palette.X, palette.O}
	verdicts := []int{palette.Best, palette.Inaccuracy, palette.Mistake}
	apartSets := [][]int{
		sides,
		verdicts,
		append(sides, verdicts...), // the badges beside the marks, and the chart's lines
	}
	themes := []int{palette.DarkBackground, palette.LightBackground}
	lines := []int{palette.X, palette.O, palette.Best, palette.Mistake} // the chart's
	grounds := []struct {
		inks, on []int
		small    bool
	}{
		{[]int{palette.X}, []int{palette.XCell}, false},
		{[]int{palette.O}, []int{palette.OCell}, false},
		{[]int{palette.Line}, []int{palette.XCell, palette.OCell, palette.Board}, false},
		{[]int{palette.Label}, []int{palette.Board, palette.XCell, palette.OCell, palette.DarkBackground, palette.LightBackground}, true},
		// A badge is ringed, and its digits written, in the board's colour.
		{verdicts, []int{palette.Board}, true},
		{lines, themes, true},
	}
	distance := func(a, b [3]float64) float64 { return math.Hypot(math.Hypot(a[0]-b[0], a[1]-b[1]), a[2]-b[2]) }
	for _, v := range visions {
		for _, set := range apartSets {
			for i, a := range set {
				for _, b := range set[:i] {
					if d := distance(lab(seen(a, v.m)), lab(seen(b, v.m))); d < apart {
						t.Errorf("%s: %06X and %06X: CIELAB distance %.1f, want %d or more", v.name, a, b, d, apart)
					}
				}
			}
		}
		for _, g := range grounds {
			for _, ink := range g.inks {
				for _, on := range g.on {
					a, b := lab(seen(ink, v.m)), lab(seen(on, v.m))
					if d, dl := distance(a, b), math.Abs(a[0]-b[0]); d < ground || g.small && dl < groundL {
						t.Errorf("%s: %06X on %06X: CIELAB distance %.1f, lightness %.1f; want %d and %d or more", v.name, ink, on, d, dl, ground, groundL)
					}
				}
			}
		}
	}
}

// The tints are Cell with 15% of their side's colour.
func TestTints(t *testing.T) {
	mix := func(a, b int) int {
		var c int
		for _, shift := range []int{16, 8, 0} {
			c |= int(float64(a>>shift&0xFF)*0.85+float64(b>>shift&0xFF)*0.15+0.5) << shift
		}
		return c
	}
	for _, tt := range []struct{ tint, side int }{{palette.XCell, palette.X}, {palette.OCell, palette.O}} {
		if got := mix(palette.Cell, tt.side); got != tt.tint {
			t.Errorf("tint of %06X: got %06X, want %06X", tt.side, tt.tint, got)
		}
	}
}
