package puzzle_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/puzzle"
)

func newEngine() *ai.Engine { return ai.New(ai.Options{TimeBudget: time.Minute, TableBytes: 16 << 20}) }

// TestMine mines recorded games: a missed win, its mirror image (the same
// puzzle by ID), a found win, a found win too short to keep, and a draw
// with no win anywhere.
func TestMine(t *testing.T) {
	e := newEngine()
	g := game.MustGeometry(3, 3, 3)
	tests := []struct {
		name  string
		moves []int
		want  []string // puzzle.Format of each
	}{
		// After X0 O1 X3 O6, X forks on the centre and plays 5; then O
		// forks on the centre and plays 8, and X completes the middle row.
		{"missed", []int{0, 1, 3, 6, 5, 8, 4}, []string{
			"3x3k3-1nxkb0 XO./X../O.. missed 4 2 5+7+8",
			"3x3k3-mr2pfm XO./X.X/O.. missed 4 2 7",
		}},
		{"mirrored", []int{2, 1, 5, 8, 3, 6, 4}, []string{
			"3x3k3-1nxkb0 .OX/..X/..O missed 4 0 3+6+7",
			"3x3k3-mr2pfm .OX/X.X/..O missed 4 0 7",
		}},
		// After X3 O1 X6, O wins in 5 with the corner 0, and does.
		{"found", []int{3, 1, 6, 0, 2, 4, 5, 8}, []string{"3x3k3-1nxkbk .O./X../X.. found 0 2 4 5 7+8"}},
		// X0 O4? No: O1 lets X fork at once, a win in 3, too short to be
		// a found puzzle.
		{"short found", []int{0, 1, 4, 8, 3, 6, 5}, nil},
		{"draw", []int{4, 0, 8, 2, 1, 7, 6, 3, 5}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := puzzle.Mine(t.Context(), e, g, tt.moves, 42)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range ps {
				got = append(got, puzzle.Format(p))
				if p.GameID != 42 {
					t.Errorf("%s: got game %d, want 42", p.ID, p.GameID)
				}
				if err := puzzle.Check(t.Context(), e, p); err != nil {
					t.Error(err)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	// The draw has no forced win anywhere: nothing was missed.
	pos := game.NewPosition(g)
	for _, c := range tests[len(tests)-1].moves {
		if v, _, _ := e.Value(t.Context(), pos); v != 0 {
			t.Errorf("draw: %s has value %d, want 0", pos, v)
		}
		pos, _ = pos.Play(c)
	}
}

func TestSolve(t *testing.T) {
	e := newEngine()
	tests := []struct {
		board    string
		k        int
		minPlies int
		want     string // puzzle.Format, "" for no puzzle
	}{
		{"XO./X.X/O..", 0, 0, "3x3k3-mr2pfm XO./X.X/O.. missed 4 2 7"},
		{"XO./X.X/O..", 0, 5, ""},                                  // a win in 3
		{"XO./.../...", 0, 0, ""},                                  // X wins with more than one move
		{"X../.O./...", 0, 0, ""},                                  // a draw
		{"XX./OO./...", 0, 0, "3x3k3-1nxkbc XX./OO./... missed 2"}, // a win in one
	}
	for _, tt := range tests {
		pos, err := game.Parse(tt.board, tt.k)
		if err != nil {
			t.Fatal(err)
		}
		p, ok, err := puzzle.Solve(t.Context(), e, pos, tt.minPlies)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if ok {
			p.Kind = tttbot.PuzzleMissed
			got = puzzle.Format(p)
		}
		if got != tt.want {
			t.Errorf("Solve(%s, %d): got %q, want %q", tt.board, tt.minPlies, got, tt.want)
		}
	}
}
