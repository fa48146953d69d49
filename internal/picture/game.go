package picture

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"io"

	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

// A replay's pace, in hundredths of a second.
const (
	moveDelay = 70
	holdDelay = 300
)

// Replay writes a game as an animated GIF: a frame for each move, from the
// board with the first move, then a frame with the winning lines held
// longer, as the last. Every frame but the first holds only the rectangle
// that changed. moves are the cells played, in order.
func Replay(w io.Writer, geo *game.Geometry, moves []int) error {
	b, err := newBoard(geo)
	if err != nil {
		return err
	}
	anim := gif.GIF{Config: image.Config{ColorModel: gifPalette, Width: b.img.Bounds().Dx(), Height: b.img.Bounds().Dy()}}
	q := quantizer{palette: gifPalette, memo: map[color.RGBA]uint8{}}
	frame := func(r image.Rectangle, delay int) {
		p := image.NewPaletted(r, gifPalette)
		q.convert(p, b.img)
		anim.Image = append(anim.Image, p)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}
	pos := game.NewPosition(geo)
	for n, cell := range moves {
		var r image.Rectangle
		if pos, r, err = b.play(pos, cell); err != nil {
			return fmt.Errorf("move %d: %w", n+1, err)
		}
		if n == 0 {
			r = b.img.Bounds()
		}
		frame(r, moveDelay)
	}
	var held image.Rectangle
	for _, m := range pos.Result().Lines {
		held = held.Union(b.line(m))
	}
	switch {
	case len(moves) == 0:
		held = b.img.Bounds()
	case held.Empty():
		// No line to draw: the held frame is one pixel, unchanged.
		held = image.Rect(0, 0, 1, 1)
	}
	frame(held, holdDelay)
	if err := gif.EncodeAll(w, &anim); err != nil {
		return fmt.Errorf("encode gif: %w", err)
	}
	return nil
}

// Final writes a game's last position as a PNG, with its winning lines and
// each move's number, on a badge of its verdict's colour. verdicts, when
// not nil, judge moves one for one; a move judged ai.Unsolved, or past
// the verdicts, has no badge.
func Final(w io.Writer, geo *game.Geometry, moves []int, verdicts []ai.Verdict) error {
	b, err := newBoard(geo)
	if err != nil {
		return err
	}
	pos := game.NewPosition(geo)
	for n, cell := range moves {
		if pos, _, err = b.play(pos, cell); err != nil {
			return fmt.Errorf("move %d: %w", n+1, err)
		}
	}
	for _, m := range pos.Result().Lines {
		b.line(m)
	}
	for n, cell := range moves {
		v := ai.Unsolved
		if n < len(verdicts) {
			v = verdicts[n]
		}
		c, judged := verdictColors[v]
		b.number(cell, n+1, c, judged)
	}
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, b.img); err != nil {
		return fmt.Errorf("encode png: %w", err)
	}
	return nil
}

// play plays cell in pos and draws its mark, returning the new position
// and the rectangle drawn.
func (b *board) play(pos game.Position, cell int) (game.Position, image.Rectangle, error) {
	p := pos.ToMove()
	next, err := pos.Play(cell)
	if err != nil {
		return pos, image.Rectangle{}, err
	}
	return next, b.mark(cell, p), nil
}
