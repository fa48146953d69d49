package picture

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/tttbot/tttbot/internal/game"
)

// A board's layout, in pixels: cells with gaps between them, the column
// letters above and the row numbers to the left.
const (
	cellSize = 64
	gap      = 4
	margin   = 24 // room for the coordinates
	pad      = 8  // around the other sides

	labelSize = 15 // the coordinates' font size
	badgeSize = 13 // a move number's font size
	badgeR    = 11 // a move number's badge radius
)

// board draws positions of one geometry into an RGBA image. It is not safe
// for concurrent use: its rasterizer and font faces are its own.
type board struct {
	geo   *game.Geometry
	img   *image.RGBA
	z     vector.Rasterizer
	area  image.Rectangle // where z draws: paths are drawn within it, to keep its buffer small
	label font.Face       // coordinates
	badge font.Face       // move numbers
}

// newBoard returns geo's board, empty, with its coordinates.
func newBoard(geo *game.Geometry) (*board, error) {
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("parse font: %w", err)
	}
	b := &board{geo: geo}
	if b.label, err = opentype.NewFace(f, &opentype.FaceOptions{Size: labelSize, DPI: 72, Hinting: font.HintingFull}); err != nil {
		return nil, fmt.Errorf("font face: %w", err)
	}
	if b.badge, err = opentype.NewFace(f, &opentype.FaceOptions{Size: badgeSize, DPI: 72, Hinting: font.HintingFull}); err != nil {
		return nil, fmt.Errorf("font face: %w", err)
	}
	w := margin + geo.Cols*cellSize + (geo.Cols-1)*gap + pad
	h := margin + geo.Rows*cellSize + (geo.Rows-1)*gap + pad
	b.img = image.NewRGBA(image.Rect(0, 0, w, h))
	fill(b.img, b.img.Bounds(), boardColor)
	for c := range geo.Cols {
		r := b.cellRect(geo.Cell(0, c))
		b.text(b.label, string(rune('A'+c)), image.Pt((r.Min.X+r.Max.X)/2, margin/2), labelColor)
	}
	for row := range geo.Rows {
		r := b.cellRect(geo.Cell(row, 0))
		b.text(b.label, fmt.Sprint(row+1), image.Pt(margin/2, (r.Min.Y+r.Max.Y)/2), labelColor)
	}
	for cell := range geo.Cells() {
		fill(b.img, b.cellRect(cell), cellColor)
	}
	return b, nil
}

// cellRect is where cell is drawn.
func (b *board) cellRect(cell int) image.Rectangle {
	r, c := cell/b.geo.Cols, cell%b.geo.Cols
	min := image.Pt(margin+c*(cellSize+gap), margin+r*(cellSize+gap))
	return image.Rectangle{min, min.Add(image.Pt(cellSize, cellSize))}
}

// centre is the middle of cell.
func (b *board) centre(cell int) (x, y float32) {
	r := b.cellRect(cell)
	return float32(r.Min.X) + cellSize/2, float32(r.Min.Y) + cellSize/2
}

// mark draws p's mark in cell, on a cell tinted with its colour, and
// returns the rectangle it changed.
func (b *board) mark(cell int, p game.Player) image.Rectangle {
	r := b.cellRect(cell)
	x, y := b.centre(cell)
	b.start(r)
	switch p {
	case game.X:
		fill(b.img, r, xCell)
		const arm, half = cellSize * 0.26, cellSize * 0.065 // the diagonals' reach and half width
		b.stroke(x-arm, y-arm, x+arm, y+arm, half)
		b.stroke(x-arm, y+arm, x+arm, y-arm, half)
		b.paint(xColor)
	case game.O:
		fill(b.img, r, oCell)
		const outer, inner = cellSize * 0.3, cellSize*0.3 - cellSize*0.13
		b.circle(x, y, outer, false)
		b.circle(x, y, inner, true)
		b.paint(oColor)
	}
	return r
}

// line draws a winning line through the centres of its first and last
// cells, and returns the rectangle it changed.
func (b *board) line(m game.Mask) image.Rectangle {
	cells := m.Cells()
	x0, y0 := b.centre(cells[0])
	x1, y1 := b.centre(cells[len(cells)-1])
	// The line reaches a little past the centres of its end cells.
	const reach, half = cellSize * 0.3, cellSize * 0.05
	dx, dy := x1-x0, y1-y0
	n := float32(math.Hypot(float64(dx), float64(dy)))
	dx, dy = dx/n*reach, dy/n*reach
	r := b.cellRect(cells[0]).Union(b.cellRect(cells[len(cells)-1]))
	b.start(r)
	b.stroke(x0-dx, y0-dy, x1+dx, y1+dy, half)
	b.paint(lineColor)
	return r
}

// number draws move n's number in the top left corner of cell, on a badge:
// of its verdict's colour c, ringed in the board's, when judged, else of
// the board's colour.
func (b *board) number(cell, n int, c color.RGBA, judged bool) {
	r := b.cellRect(cell)
	x, y := float32(r.Min.X)+badgeR+3, float32(r.Min.Y)+badgeR+3
	b.start(r)
	b.circle(x, y, badgeR+2, false)
	b.paint(boardColor)
	ink := labelColor
	if judged {
		b.start(r)
		b.circle(x, y, badgeR, false)
		b.paint(c)
		ink = boardColor
	}
	b.text(b.badge, fmt.Sprint(n), image.Pt(int(x), int(y)), ink)
}

// start begins a new shape, to be drawn within area.
func (b *board) start(area image.Rectangle) {
	b.area = area.Intersect(b.img.Bounds())
	b.z.Reset(b.area.Dx(), b.area.Dy())
}

// moveTo and lineTo take the image's coordinates.
func (b *board) moveTo(x, y float32) { b.z.MoveTo(x-float32(b.area.Min.X), y-float32(b.area.Min.Y)) }
func (b *board) lineTo(x, y float32) { b.z.LineTo(x-float32(b.area.Min.X), y-float32(b.area.Min.Y)) }

func (b *board) cubeTo(x1, y1, x2, y2, x3, y3 float32) {
	ox, oy := float32(b.area.Min.X), float32(b.area.Min.Y)
	b.z.CubeTo(x1-ox, y1-oy, x2-ox, y2-oy, x3-ox, y3-oy)
}

// paint fills the shapes drawn since start with c.
func (b *board) paint(c color.RGBA) {
	b.z.Draw(b.img, b.area, image.NewUniform(c), image.Point{})
}

// stroke adds a straight stroke of half width half from (x0, y0) to
// (x1, y1) to the shape.
func (b *board) stroke(x0, y0, x1, y1, half float32) {
	dx, dy := x1-x0, y1-y0
	n := float32(math.Hypot(float64(dx), float64(dy)))
	nx, ny := -dy/n*half, dx/n*half
	b.moveTo(x0+nx, y0+ny)
	b.lineTo(x1+nx, y1+ny)
	b.lineTo(x1-nx, y1-ny)
	b.lineTo(x0-nx, y0-ny)
	b.z.ClosePath()
}

// circle adds a circle to the shape, of four cubic Béziers; drawn
// backwards inside another, it makes a hole.
func (b *board) circle(x, y, r float32, backwards bool) {
	k := r * 0.5523 // the control points' distance for a quarter circle
	s := float32(1)
	if backwards {
		s = -1
	}
	b.moveTo(x+r, y)
	b.cubeTo(x+r, y+s*k, x+k, y+s*r, x, y+s*r)
	b.cubeTo(x-k, y+s*r, x-r, y+s*k, x-r, y)
	b.cubeTo(x-r, y-s*k, x-k, y-s*r, x, y-s*r)
	b.cubeTo(x+k, y-s*r, x+r, y-s*k, x+r, y)
	b.z.ClosePath()
}

// text writes s in face centred on at.
func (b *board) text(face font.Face, s string, at image.Point, c color.RGBA) {
	d := font.Drawer{Dst: b.img, Src: image.NewUniform(c), Face: face}
	m := face.Metrics()
	w := d.MeasureString(s)
	d.Dot = fixed.Point26_6{
		X: fixed.I(at.X) - w/2,
		Y: fixed.I(at.Y) + (m.Ascent-m.Descent)/2,
	}
	d.DrawString(s)
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}
