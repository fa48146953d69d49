package palette_test

import (
	"math"
	"testing"

	"github.com/tttbot/tttbot/internal/palette"
)

// linear is c's channels in linear light, from 0 to 1.
func linear(c int) [3]float64 {
	var v [3]float64
	for i, shift := range []int{16, 8, 0} {
		s := float64(c>>shift&0xFF) / 255
		if s <= 0.04045 {
			v[i] = s / 12.92
		} else {
			v[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return v
}

// luminance is WCAG's relative luminance.
func luminance(v [3]float64) float64 { return 0.2126*v[0] + 0.7152*v[1] + 0.0722*v[2] }

// contrast is WCAG's contrast ratio of two colours.
func contrast(a, b int) float64 {
	la, lb := luminance(linear(a)), luminance(linear(b))
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// lab is CIELAB (D65) of a linear RGB colour.
func lab(v [3]float64) [3]float64 {
	x := (0.4124*v[0] + 0.3576*v[1] + 0.1805*v[2]) / 0.95047
	y := 0.2126*v[0] + 0.7152*v[1] + 0.0722*v[2]
	z := (0.0193*v[0] + 0.1192*v[1] + 0.9505*v[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
}

// Vision simulates colour vision on linear RGB: Viénot, Brettel and
// Mollon's (1999) projections for the two red-green dichromacies.
var visions = []struct {
	name string
	m    [3][3]float64
}{
	{"normal", [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
	{"protanopia", [3][3]float64{{0.11238, 0.88762, 0}, {0.11238, 0.88762, 0}, {0.00401, -0.00401, 1}}},
	{"deuteranopia", [3][3]float64{{0.29275, 0.70725, 0}, {0.29275, 0.70725, 0}, {-0.02234, 0.02234, 1}}},
}

func seen(c int, m [3][3]float64) [3]float64 {
	v := linear(c)
	var out [3]float64
	for i := range 3 {
		out[i] = min(1, max(0, m[i][0]*v[0]+m[i][1]*v[1]+m[i][2]*v[2]))
	}
	return out
}

// Each colour reads on both of Discord's themes.
func TestContrast(t *testing.T) {
	for _, c := range []struct {
		name string
		c    int
	}{{"X", palette.X}, {"O", palette.O}, {"neutral", palette.Neutral}} {
		for _, bg := range []int{palette.DarkBackground, palette.LightBackground} {
			if got := contrast(c.c, bg); got < 3 {
				t.Errorf("%s %06X on %06X: contrast %.2f, want 3 or more", c.name, c.c, bg, got)
			}
		}
	}
}

// X, O and neutral stay apart — a CIELAB distance of 40 or more, where 2
// is the least an eye tells — for normal vision and for red-green
// dichromats.
func TestDistinguishable(t *testing.T) {
	pairs := []struct {
		name string
		a, b int
	}{{"X/O", palette.X, palette.O}, {"X/neutral", palette.X, palette.Neutral}, {"O/neutral", palette.O, palette.Neutral}}
	for _, v := range visions {
		for _, p := range pairs {
			a, b := lab(seen(p.a, v.m)), lab(seen(p.b, v.m))
			if d := math.Hypot(math.Hypot(a[0]-b[0], a[1]-b[1]), a[2]-b[2]); d < 40 {
				t.Errorf("%s, %s: CIELAB distance %.1f, want 40 or more", v.name, p.name, d)
			}
		}
	}
}

func TestRGBA(t *testing.T) {
	if got := palette.RGBA(0x1E88E5); got.R != 0x1E || got.G != 0x88 || got.B != 0xE5 || got.A != 0xFF {
		t.Errorf("got %v, want 1E88E5 opaque", got)
	}
}
