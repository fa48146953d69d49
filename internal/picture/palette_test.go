package picture

import (
	"image/color"
	"math"
	"slices"
	"testing"

	"github.com/tttbot/tttbot/internal/ai"
)

// The simulations of colour blindness: Machado, Oliveira and Fernandes
// (2009), "A Physiologically-based Model for Simulation of Color Vision
// Deficiency", at severity 1, applied to linear RGB.
var (
	protanopia = [3][3]float64{
		{0.152286, 1.052583, -0.204868},
		{0.114503, 0.786281, 0.099216},
		{-0.003882, -0.048116, 1.051998},
	}
	deuteranopia = [3][3]float64{
		{0.367322, 0.860646, -0.227968},
		{0.280085, 0.672501, 0.047413},
		{-0.011820, 0.042940, 0.968881},
	}
	normalVision = [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
)

// lab is a colour in CIELAB (D65), as seen through a simulation m.
type lab struct{ l, a, b float64 }

func toLab(c color.RGBA, m [3][3]float64) lab {
	linear := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	in := [3]float64{linear(c.R), linear(c.G), linear(c.B)}
	var rgb [3]float64
	for i := range 3 {
		for j := range 3 {
			rgb[i] += m[i][j] * in[j]
		}
		rgb[i] = min(max(rgb[i], 0), 1)
	}
	x := (0.4124564*rgb[0] + 0.3575761*rgb[1] + 0.1804375*rgb[2]) / 0.95047
	y := 0.2126729*rgb[0] + 0.7151522*rgb[1] + 0.0721750*rgb[2]
	z := (0.0193339*rgb[0] + 0.1191920*rgb[1] + 0.9503041*rgb[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	return lab{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// deltaE is the CIE 1976 colour difference: about 2.3 is just noticeable;
// past 20 two colours are plainly different.
func deltaE(p, q lab) float64 { return math.Hypot(math.Hypot(p.l-q.l, p.a-q.a), p.b-q.b) }

func TestLab(t *testing.T) {
	tests := []struct {
		c    color.RGBA
		want lab
	}{
		{color.RGBA{0xff, 0xff, 0xff, 0xff}, lab{100, 0, 0}},
		{color.RGBA{0, 0, 0, 0xff}, lab{0, 0, 0}},
		{color.RGBA{0xff, 0, 0, 0xff}, lab{53.24, 80.09, 67.20}},
		{color.RGBA{0, 0, 0xff, 0xff}, lab{32.30, 79.19, -107.86}},
	}
	for _, tt := range tests {
		if got := toLab(tt.c, normalVision); deltaE(got, tt.want) > 0.05 {
			t.Errorf("lab of %v: got %+v, want %+v", tt.c, got, tt.want)
		}
	}
}

// Discord's dark and light themes' message backgrounds, on which the
// chart's transparent background shows.
var (
	darkTheme  = color.RGBA{0x31, 0x33, 0x38, 0xff}
	lightTheme = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// TestPaletteDistinct simulates normal, protanopic and deuteranopic vision
// and checks that each ink differs plainly from the inks it is read
// against and from every background it is drawn on.
func TestPaletteDistinct(t *testing.T) {
	const (
		apart   = 15 // ΔE between two inks a reader must tell apart
		ground  = 30 // ΔE between an ink and its background
		groundL = 25 // and their difference in lightness, which small digits need
	)
	best, inaccuracy, mistake := verdictColors[ai.Best], verdictColors[ai.Inaccuracy], verdictColors[ai.Mistake]
	marks := []color.RGBA{xColor, oColor}
	verdicts := []color.RGBA{best, inaccuracy, mistake, labelColor}
	apartSets := [][]color.RGBA{
		marks,
		verdicts,
		seriesColors[:],
		append(slices.Clone(marks), best, inaccuracy, mistake),
	}
	cells := []color.RGBA{xCell, oCell}
	grounds := []struct {
		inks, on []color.RGBA
	}{
		{[]color.RGBA{xColor}, []color.RGBA{xCell}},
		{[]color.RGBA{oColor}, []color.RGBA{oCell}},
		{[]color.RGBA{labelColor}, cells}, // an unjudged move's number
		{[]color.RGBA{lineColor}, append(slices.Clone(cells), boardColor)},
		{[]color.RGBA{labelColor}, []color.RGBA{boardColor, darkTheme, lightTheme}},
		{seriesColors[:], []color.RGBA{darkTheme, lightTheme}},
		// A badge is ringed, and its digits written, in the board's colour.
		{[]color.RGBA{best, inaccuracy, mistake}, []color.RGBA{boardColor}},
	}
	for _, vision := range []struct {
		name string
		m    [3][3]float64
	}{{"normal", normalVision}, {"protanopia", protanopia}, {"deuteranopia", deuteranopia}} {
		for _, set := range apartSets {
			for i, a := range set {
				for _, b := range set[:i] {
					if d := deltaE(toLab(a, vision.m), toLab(b, vision.m)); d < apart {
						t.Errorf("%s: %v and %v differ by ΔE %.1f, want ≥ %d", vision.name, a, b, d, apart)
					}
				}
			}
		}
		for _, g := range grounds {
			for _, ink := range g.inks {
				for _, on := range g.on {
					p, q := toLab(ink, vision.m), toLab(on, vision.m)
					if d, dl := deltaE(p, q), math.Abs(p.l-q.l); d < ground || dl < groundL {
						t.Errorf("%s: %v on %v differs by ΔE %.1f, ΔL %.1f; want ≥ %d, %d", vision.name, ink, on, d, dl, ground, groundL)
					}
				}
			}
		}
	}
}
