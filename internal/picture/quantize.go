package picture

import (
	"image"
	"image/color"
)

// gifPalette holds the replay's colours: the plain ones, and the steps of
// anti-aliased edges between an ink and what it is drawn on.
var gifPalette = func() color.Palette {
	p := color.Palette{boardColor, cellColor, xCell, oCell, xColor, oColor, lineColor, labelColor}
	for _, edge := range [][2]color.RGBA{
		{xColor, xCell}, {oColor, oCell}, {labelColor, boardColor},
		{lineColor, xCell}, {lineColor, oCell}, {lineColor, boardColor}, {lineColor, xColor}, {lineColor, oColor},
	} {
		for i := 1; i < 8; i++ {
			p = append(p, mix(edge[0], edge[1], float64(i)/8))
		}
	}
	return p
}()

// quantizer maps an RGBA image's colours to a palette's nearest. The
// pictures use few colours, in runs: it remembers the last and those it
// has seen.
type quantizer struct {
	palette color.Palette
	memo    map[color.RGBA]uint8
}

// convert draws src into dst, within dst's bounds.
func (q *quantizer) convert(dst *image.Paletted, src *image.RGBA) {
	r := dst.Bounds()
	var last color.RGBA
	lastIndex := q.index(last)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		s := src.Pix[src.PixOffset(r.Min.X, y):]
		d := dst.Pix[dst.PixOffset(r.Min.X, y):]
		for x := range r.Dx() {
			c := color.RGBA{s[4*x], s[4*x+1], s[4*x+2], s[4*x+3]}
			if c != last {
				last, lastIndex = c, q.index(c)
			}
			d[x] = lastIndex
		}
	}
}

func (q *quantizer) index(c color.RGBA) uint8 {
	i, ok := q.memo[c]
	if !ok {
		i = uint8(q.palette.Index(c))
		q.memo[c] = i
	}
	return i
}
