package game_test

import (
	"errors"
	"testing"

	"github.com/tttbot/tttbot/internal/game"
)

func FuzzParse(f *testing.F) {
	seeds := []struct {
		s string
		k int
	}{
		{"XO./.X./..O", 0},
		{"xo./.x./..o", 3},
		{".../.../...", 0},
		{"XOX/XOO/OXX", 0},
		{"XXX/OO./...", 0},
		{"XXX/OOO/...", 0},
		{"..../..../..../....", 3},
		{"XXXXX/OO.../OO.../...../.....", 4},
		{"...../...../...../...../.....", 5},
		{"XO./.X./..", 0},
		{"XO/OX", 0},
		{"", 0},
		{"/", 0},
		{"//////", 0},
		{"XO./.Z./..O", 0},
		{"XO./.X./..Ö", 0},
		{".../.../...", -1},
		{".../.../...", 1 << 40},
	}
	for _, s := range seeds {
		f.Add(s.s, s.k)
	}
	f.Fuzz(func(t *testing.T, s string, k int) {
		p, err := game.Parse(s, k)
		if err != nil {
			if !errors.Is(err, game.ErrNotation) && !errors.Is(err, game.ErrIllegal) {
				t.Fatalf("Parse(%q, %d): got %v, want ErrNotation or ErrIllegal", s, k, err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Parse(%q, %d) = %s does not validate: %v", s, k, p, err)
		}
		q, err := game.Parse(p.String(), p.Geometry().K)
		if err != nil {
			t.Fatalf("Parse(%q) of Parse(%q, %d): %v", p.String(), s, k, err)
		}
		if q.X() != p.X() || q.O() != p.O() || q.Geometry().String() != p.Geometry().String() {
			t.Fatalf("round trip of %q: got %s (%v), want %s (%v)", s, q, q.Geometry(), p, p.Geometry())
		}
		if q.String() != p.String() {
			t.Fatalf("round trip of %q: got %q, want %q", s, q.String(), p.String())
		}
	})
}

// FuzzPlay applies a sequence of cells (one signed byte each) to a parsed
// board: every move either errors with a typed error and changes nothing, or
// gives a legal position with one more piece.
func FuzzPlay(f *testing.F) {
	f.Add(".../.../...", []byte{4, 0, 8, 2, 6, 3, 5, 1, 7})
	f.Add(".../.../...", []byte{0, 3, 1, 4, 2, 5})
	f.Add(".../.../...", []byte{0, 0, 9, 0xff, 4})
	f.Add("XXX/OO./...", []byte{8})
	f.Add("XOX/XOO/OXX", []byte{4})
	f.Add("..../..../..../....", []byte{0, 5, 10, 15, 1, 2, 3, 16})
	f.Add("...../...../...../...../.....", []byte{12, 0, 13, 1, 11, 2, 14, 24, 10})
	f.Add("not a board", []byte{0})
	f.Fuzz(func(t *testing.T, board string, moves []byte) {
		p, err := game.Parse(board, 0)
		if err != nil {
			return
		}
		for _, b := range moves {
			cell := int(int8(b))
			before := p.String()
			q, err := p.Play(cell)
			if p.String() != before {
				t.Fatalf("%s Play(%d) changed the receiver to %s", before, cell, p)
			}
			if err != nil {
				if !errors.Is(err, game.ErrOutOfRange) && !errors.Is(err, game.ErrCellTaken) && !errors.Is(err, game.ErrGameOver) {
					t.Fatalf("%s Play(%d): untyped error %v", p, cell, err)
				}
				if q.String() != before {
					t.Fatalf("%s Play(%d) failed but gave %s", before, cell, q)
				}
				continue
			}
			if err := q.Validate(); err != nil {
				t.Fatalf("%s Play(%d) = %s: %v", p, cell, q, err)
			}
			if q.At(cell) != p.ToMove() || q.Ply() != p.Ply()+1 {
				t.Fatalf("%s Play(%d) = %s: want %v on the cell", p, cell, q, p.ToMove())
			}
			r := q.Result()
			if r.Over != (q.Moves() == nil) {
				t.Fatalf("%s: Result().Over = %v but Moves() = %v", q, r.Over, q.Moves())
			}
			if r.Winner != game.None && (r.Winner != p.ToMove() || len(r.Lines) == 0) {
				t.Fatalf("%s: got winner %v with lines %v after %v moved", q, r.Winner, r.Lines, p.ToMove())
			}
			p = q
		}
	})
}
