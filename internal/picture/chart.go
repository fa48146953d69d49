package picture

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
)

// Format is an image format a chart is written in.
type Format int

const (
	PNG Format = iota
	SVG
)

// ErrNoRatings is Chart's answer for histories with no point: there is
// nothing to draw.
var ErrNoRatings = errors.New("no ratings to chart")

// The chart's size in pixels, at 96 dots per inch.
const (
	chartWidth  = 640
	chartHeight = 320
	chartDPI    = 96
)

// chartDashes tell the lines apart along with their colours.
var chartDashes = [len(seriesColors)][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}}

// Chart writes a chart of ratings over time, one line for each history's
// shape with its deviation as a band around it, on a transparent
// background. It draws the first four histories, and names their shapes
// in a legend when there are more than one. Histories without points are
// left out; with none at all, it returns ErrNoRatings.
func Chart(w io.Writer, histories []tttbot.RatingHistory, f Format) error {
	p := plot.New()
	p.BackgroundColor = color.Transparent
	sans := font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(10)}
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Color, a.Tick.Color, a.Tick.Label.Color = labelColor, labelColor, labelColor
		a.Tick.Label.Font = sans
		a.Padding = 0
	}
	p.Legend.TextStyle.Color, p.Legend.TextStyle.Font = labelColor, sans
	p.Legend.Top, p.Legend.Left = true, true
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.RGBA{0x94, 0x9b, 0xa4, 0x40}
	grid.Horizontal.Color = grid.Vertical.Color
	p.Add(grid)

	var first, last time.Time
	low, high := math.Inf(1), math.Inf(-1)
	var lines []*plotter.Line
	var shapes []tttbot.Shape
	for _, h := range histories {
		if len(h.Points) == 0 {
			continue
		}
		if len(lines) == len(seriesColors) {
			break
		}
		l, err := addSeries(p, h, len(lines))
		if err != nil {
			return err
		}
		lines, shapes = append(lines, l), append(shapes, h.Shape)
		for _, pt := range h.Points {
			low, high = min(low, pt.R-pt.RD), max(high, pt.R+pt.RD)
		}
		if first.IsZero() || h.Points[0].At.Before(first) {
			first = h.Points[0].At
		}
		if end := h.Points[len(h.Points)-1].At; end.After(last) {
			last = end
		}
	}
	if len(lines) == 0 {
		return ErrNoRatings
	}
	p.Y.Min, p.Y.Max = low, high
	if len(lines) > 1 {
		for i, l := range lines {
			p.Legend.Add(shapeLabel(shapes[i]), l)
		}
		// Room above the lines for the legend.
		p.Y.Max += (high - low) * 0.1 * float64(len(lines))
	}
	span := last.Sub(first)
	if span < time.Hour {
		// One game, or a few at once: an hour either side.
		p.X.Min, p.X.Max = float64(first.Add(-time.Hour).Unix()), float64(last.Add(time.Hour).Unix())
		span = last.Sub(first) + 2*time.Hour
	}
	p.X.Tick.Marker = plot.TimeTicks{Format: timeFormat(span)}
	p.Y.Tick.Marker = wholeTicks{}

	width, height := vg.Length(chartWidth)*vg.Inch/chartDPI, vg.Length(chartHeight)*vg.Inch/chartDPI
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch f {
	case PNG:
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(chartDPI), vgimg.UseBackgroundColor(color.Transparent))}
	case SVG:
		c = vgsvg.New(width, height)
	default:
		return fmt.Errorf("chart format %d unknown", f)
	}
	p.Draw(draw.New(c))
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("write chart: %w", err)
	}
	return nil
}

// addSeries adds h, the n-th line, to p.
func addSeries(p *plot.Plot, h tttbot.RatingHistory, n int) (*plotter.Line, error) {
	line := make(plotter.XYs, len(h.Points))
	band := make(plotter.XYs, 2*len(h.Points))
	for i, pt := range h.Points {
		x := float64(pt.At.Unix())
		line[i] = plotter.XY{X: x, Y: pt.R}
		band[i] = plotter.XY{X: x, Y: pt.R + pt.RD}
		band[len(band)-1-i] = plotter.XY{X: x, Y: pt.R - pt.RD}
	}
	c := seriesColors[n]
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return nil, fmt.Errorf("chart band: %w", err)
	}
	poly.Color = color.RGBA{c.R / 4, c.G / 4, c.B / 4, 0x40} // c at a quarter's opacity, premultiplied
	poly.LineStyle.Width = 0
	l, err := plotter.NewLine(line)
	if err != nil {
		return nil, fmt.Errorf("chart line: %w", err)
	}
	l.Color, l.Width, l.Dashes = c, vg.Points(2), chartDashes[n]
	p.Add(poly, l)
	if len(h.Points) <= 30 {
		// Few games: each one a dot, which a single game needs to show
		// at all.
		s, err := plotter.NewScatter(line)
		if err != nil {
			return nil, fmt.Errorf("chart points: %w", err)
		}
		s.GlyphStyle.Color, s.GlyphStyle.Radius, s.GlyphStyle.Shape = c, vg.Points(2.5), draw.CircleGlyph{}
		p.Add(s)
	}
	return l, nil
}

// shapeLabel names a shape in marks and digits: "5×5", and "5×5·3" when
// its K is not the size's usual one.
func shapeLabel(s tttbot.Shape) string {
	if s.K == game.DefaultK(s.Rows, s.Cols) {
		return fmt.Sprintf("%d×%d", s.Rows, s.Cols)
	}
	return fmt.Sprintf("%d×%d·%d", s.Rows, s.Cols, s.K)
}

// wholeTicks are plot's default ticks, labelled in whole points: a
// rating's decimals mean nothing to a player.
type wholeTicks struct{}

func (wholeTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i, t := range ts {
		if t.Label != "" {
			ts[i].Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
		}
	}
	return ts
}

// timeFormat is the ticks' format for a chart spanning span: ISO 8601's
// digits, which every language reads, in UTC.
func timeFormat(span time.Duration) string {
	switch {
	case span > 365*24*time.Hour:
		return "2006-01"
	case span > 2*24*time.Hour:
		return "2006-01-02"
	}
	return "15:04"
}
