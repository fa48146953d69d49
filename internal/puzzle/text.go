package puzzle

import (
	"bufio"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/tttbot/tttbot"
)

// Format writes a puzzle as one line of text, its fields separated by
// spaces: ID, start, kind and line (see tttbot.FormatLine).
func Format(p tttbot.Puzzle) string {
	return fmt.Sprintf("%s %s %s %s", p.ID, p.Start, p.Kind, tttbot.FormatLine(p.Line))
}

// Parse reads what Format writes and checks it against the rules (see
// Puzzle.Validate). The puzzle gets its estimated rating and no game.
func Parse(s string) (tttbot.Puzzle, error) {
	f := strings.Fields(s)
	if len(f) < 4 {
		return tttbot.Puzzle{}, fmt.Errorf("puzzle %q: want ID, start, kind and line", s)
	}
	id, _, _ := strings.Cut(f[0], "-")
	shape, err := tttbot.ParseShape(id)
	if err != nil {
		return tttbot.Puzzle{}, fmt.Errorf("puzzle %q: %w", s, err)
	}
	line, err := tttbot.ParseLine(strings.Join(f[3:], " "))
	if err != nil {
		return tttbot.Puzzle{}, fmt.Errorf("puzzle %q: %w", s, err)
	}
	p := tttbot.Puzzle{ID: f[0], Shape: shape, Start: f[1], Kind: tttbot.PuzzleKind(f[2]), Line: line}
	if err := p.Validate(); err != nil {
		return tttbot.Puzzle{}, err
	}
	r := p.EstimateRating()
	p.R, p.RD, p.Sigma = r.R, r.RD, r.Sigma
	return p, nil
}

// Read reads puzzles written by Format, one a line; blank lines and lines
// starting with '#' are skipped.
func Read(r io.Reader) ([]tttbot.Puzzle, error) {
	var out []tttbot.Puzzle
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		p, err := Parse(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, p)
	}
	return out, sc.Err()
}

// The starter set: puzzles that `bot puzzles generate` made for each
// shape, one file per shape, so that a new install has puzzles on its
// first day. Each file's first line is the command that wrote it, seed
// included: running it again writes the same file.
//
//go:embed starter/*.txt
var starter embed.FS

// Complete reports whether the starter set holds every puzzle of shape s,
// so that mining its games finds nothing new: 3×3, whose 54 puzzles come
// from its 5,478 positions (TestStarterComplete walks them all).
func Complete(s tttbot.Shape) bool { return s == tttbot.Shape{Rows: 3, Cols: 3, K: 3} }

// Starter returns the starter set, shape by shape.
func Starter() ([]tttbot.Puzzle, error) {
	names, err := fs.Glob(starter, "starter/*.txt")
	if err != nil {
		return nil, err
	}
	var out []tttbot.Puzzle
	for _, name := range names {
		f, err := starter.Open(name)
		if err != nil {
			return nil, err
		}
		ps, err := Read(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, ps...)
	}
	return out, nil
}
