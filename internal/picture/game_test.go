package picture

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

// games are the games the tests draw: moves as cells, in order.
var games = []struct {
	name  string
	geo   *game.Geometry
	moves []int
}{
	{"no move", game.MustGeometry(3, 3, 3), nil},
	{"3x3 diagonal win", game.MustGeometry(3, 3, 3), []int{0, 1, 4, 2, 8}},
	{"3x3 o wins a column", game.MustGeometry(3, 3, 3), []int{0, 1, 3, 4, 8, 7}},
	{"3x3 draw", game.MustGeometry(3, 3, 3), []int{4, 0, 2, 6, 3, 5, 1, 7, 8}},
	{"3x3 resigned", game.MustGeometry(3, 3, 3), []int{4}},
	{"5x5 row of four", game.MustGeometry(5, 5, 4), []int{12, 0, 6, 1, 18, 24, 13, 2, 11, 14, 10}},
	{"4x5 anti-diagonal", game.MustGeometry(4, 5, 4), []int{4, 0, 8, 1, 12, 2, 16}},
	{"5x5 full board", game.MustGeometry(5, 5, 4), fullDraw(game.MustGeometry(5, 5, 4))},
}

// fullDraw finds an order of play that fills geo's board with no line.
func fullDraw(geo *game.Geometry) []int {
	rng := rand.New(rand.NewPCG(1, 2))
next:
	for {
		cells := rng.Perm(geo.Cells())
		p := game.NewPosition(geo)
		for _, c := range cells {
			var err error
			if p, err = p.Play(c); err != nil {
				continue next
			}
		}
		if !p.Result().Over || p.Result().Winner != game.None {
			continue
		}
		return cells
	}
}

// positions replays moves: positions[n] is after n moves.
func positions(t testing.TB, geo *game.Geometry, moves []int) []game.Position {
	ps := []game.Position{game.NewPosition(geo)}
	for _, c := range moves {
		p, err := ps[len(ps)-1].Play(c)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// checkCells checks the colour at the centre of each of geo's cells in
// img, drawn at pos: an X's colour, an O's cell, an empty cell, or the
// winning line's colour on a line's cells when lines are drawn.
func checkCells(t *testing.T, img image.Image, geo *game.Geometry, pos game.Position, lines bool) {
	t.Helper()
	var won game.Mask
	if lines {
		for _, m := range pos.Result().Lines {
			won |= m
		}
	}
	b := board{geo: geo}
	for cell := range geo.Cells() {
		want := cellColor
		switch {
		case won.Has(cell):
			want = lineColor
		case pos.At(cell) == game.X:
			want = xColor
		case pos.At(cell) == game.O:
			want = oCell
		}
		x, y := b.centre(cell)
		if got := color.RGBAModel.Convert(img.At(int(x), int(y))); got != want {
			t.Errorf("after %d moves, cell %d: got %v, want %v", pos.Ply(), cell, got, want)
		}
	}
}

func boardSize(geo *game.Geometry) image.Point {
	return image.Pt(margin+geo.Cols*cellSize+(geo.Cols-1)*gap+pad, margin+geo.Rows*cellSize+(geo.Rows-1)*gap+pad)
}

func TestReplay(t *testing.T) {
	for _, tt := range games {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Replay(&buf, tt.geo, tt.moves); err != nil {
				t.Fatal(err)
			}
			g, err := gif.DecodeAll(&buf)
			if err != nil {
				t.Fatal(err)
			}
			size := boardSize(tt.geo)
			if got := image.Pt(g.Config.Width, g.Config.Height); got != size {
				t.Errorf("size: got %v, want %v", got, size)
			}
			if got, want := len(g.Image), len(tt.moves)+1; got != want {
				t.Fatalf("frames: got %d, want %d", got, want)
			}
			if got := g.Image[0].Bounds(); got != image.Rect(0, 0, size.X, size.Y) {
				t.Errorf("first frame: got %v, want the whole board", got)
			}
			ps := positions(t, tt.geo, tt.moves)
			canvas := image.NewRGBA(image.Rect(0, 0, size.X, size.Y))
			for n, frame := range g.Image {
				if n > 0 && n < len(tt.moves) {
					if got, most := frame.Bounds().Size(), image.Pt(cellSize, cellSize); got.X > most.X || got.Y > most.Y {
						t.Errorf("frame %d: got %v, want at most the changed cell's %v", n, got, most)
					}
				}
				if g.Disposal[n] != gif.DisposalNone {
					t.Errorf("frame %d: disposal %d, want none", n, g.Disposal[n])
				}
				draw.Draw(canvas, frame.Bounds(), frame, frame.Bounds().Min, draw.Src)
				held := n == len(tt.moves)
				checkCells(t, canvas, tt.geo, ps[min(n+1, len(tt.moves))], held)
			}
			if last := g.Delay[len(g.Delay)-1]; last != holdDelay {
				t.Errorf("the last frame's delay: got %d, want %d", last, holdDelay)
			}
		})
	}
}

func TestFinal(t *testing.T) {
	for _, tt := range games {
		t.Run(tt.name, func(t *testing.T) {
			// Every verdict in turn, to see each one's badge.
			verdicts := make([]ai.Verdict, len(tt.moves))
			for n := range verdicts {
				verdicts[n] = ai.Verdict(n % 4)
			}
			var buf bytes.Buffer
			if err := Final(&buf, tt.geo, tt.moves, verdicts); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := img.Bounds().Size(), boardSize(tt.geo); got != want {
				t.Errorf("size: got %v, want %v", got, want)
			}
			ps := positions(t, tt.geo, tt.moves)
			checkCells(t, img, tt.geo, ps[len(ps)-1], true)
			b := board{geo: tt.geo}
			for n, cell := range tt.moves {
				want, ok := verdictColors[verdicts[n]]
				if !ok {
					want = boardColor
				}
				// The badge's top, above its digits.
				r := b.cellRect(cell)
				if got := color.RGBAModel.Convert(img.At(r.Min.X+badgeR+3, r.Min.Y+5)); got != want {
					t.Errorf("move %d's badge: got %v, want %v", n+1, got, want)
				}
			}
		})
	}
}

func TestIllegalMove(t *testing.T) {
	geo := game.MustGeometry(3, 3, 3)
	for _, moves := range [][]int{{4, 4}, {9}, {-1}, {0, 1, 4, 2, 8, 3}} {
		if err := Replay(new(bytes.Buffer), geo, moves); err == nil {
			t.Errorf("replay of %v: no error", moves)
		}
		err := Final(new(bytes.Buffer), geo, moves, nil)
		if !errors.Is(err, game.ErrCellTaken) && !errors.Is(err, game.ErrOutOfRange) && !errors.Is(err, game.ErrGameOver) {
			t.Errorf("final of %v: got %v, want the game's error", moves, err)
		}
	}
}
