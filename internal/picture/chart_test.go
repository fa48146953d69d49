package picture

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// history is n ratings of shape, a game every interval from a fixed start,
// drifting up and down, with the deviation shrinking as games pile up.
func history(shape tttbot.Shape, n int, interval time.Duration) tttbot.RatingHistory {
	h := tttbot.RatingHistory{Shape: shape}
	at, r, rd := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), 1500.0, 350.0
	for i := range n {
		r += float64((i*7919)%61 - 29)
		rd = max(rd*0.95, 50)
		h.Points = append(h.Points, tttbot.RatingPoint{At: at.Add(time.Duration(i) * interval), R: r, RD: rd})
	}
	return h
}

var (
	shape3 = tttbot.Shape{Rows: 3, Cols: 3, K: 3}
	shape4 = tttbot.Shape{Rows: 4, Cols: 4, K: 3}
	shape5 = tttbot.Shape{Rows: 5, Cols: 5, K: 4}
)

func TestChart(t *testing.T) {
	tests := []struct {
		name      string
		histories []tttbot.RatingHistory
		lines     int // the series colours the chart must show
	}{
		{"1 point", []tttbot.RatingHistory{history(shape3, 1, time.Hour)}, 1},
		{"2 points", []tttbot.RatingHistory{history(shape3, 2, time.Minute)}, 1},
		{"500 points", []tttbot.RatingHistory{history(shape5, 500, 7*time.Hour)}, 1},
		{"3 shapes", []tttbot.RatingHistory{history(shape3, 120, 9*time.Hour), history(shape4, 30, 20*time.Hour), history(shape5, 1, 0)}, 3},
		{"an empty history among others", []tttbot.RatingHistory{{Shape: shape4}, history(shape5, 3, 24*time.Hour)}, 1},
		{"more shapes than colours", []tttbot.RatingHistory{
			history(shape3, 5, time.Hour), history(shape4, 5, time.Hour), history(shape5, 5, time.Hour),
			history(tttbot.Shape{Rows: 4, Cols: 4, K: 4}, 5, time.Hour), history(tttbot.Shape{Rows: 5, Cols: 5, K: 5}, 5, time.Hour),
		}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Chart(&buf, tt.histories, PNG); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := img.Bounds().Size(), image.Pt(chartWidth, chartHeight); got != want {
				t.Errorf("size: got %v, want %v", got, want)
			}
			seen := colours(img)
			for i, c := range seriesColors {
				if got, want := seen[c], i < tt.lines; got != want {
					t.Errorf("series %d's colour %v drawn: %t, want %t", i, c, got, want)
				}
			}
			if !seen[labelColor] {
				t.Errorf("no label drawn in %v", labelColor)
			}
			if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
				t.Errorf("corner's alpha %d, want a transparent background", a)
			}

			buf.Reset()
			if err := Chart(&buf, tt.histories, SVG); err != nil {
				t.Fatal(err)
			}
			var svg struct {
				XMLName xml.Name `xml:"svg"`
			}
			if err := xml.Unmarshal(buf.Bytes(), &svg); err != nil {
				t.Errorf("svg: %v", err)
			}
		})
	}
}

func TestChartNothing(t *testing.T) {
	for _, hs := range [][]tttbot.RatingHistory{nil, {{Shape: shape3}}} {
		var buf bytes.Buffer
		if err := Chart(&buf, hs, PNG); !errors.Is(err, ErrNoRatings) {
			t.Errorf("chart of %v: got %v, want ErrNoRatings", hs, err)
		}
		if buf.Len() != 0 {
			t.Errorf("chart of %v wrote %d bytes", hs, buf.Len())
		}
	}
}

// colours is the set of opaque colours in img.
func colours(img image.Image) map[color.RGBA]bool {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA); c.A == 0xff {
				seen[c] = true
			}
		}
	}
	return seen
}
