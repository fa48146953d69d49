package ai

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/game"
)

func mustParse(t testing.TB, s string, k int) game.Position {
	t.Helper()
	p, err := game.Parse(s, k)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The positions of the classic articles on minimax, and the fastest-win case
// a popular Node bot gets wrong.
func TestClassicPositions(t *testing.T) {
	e := New(Options{TableBytes: 1 << 20})
	tests := []struct {
		board        string
		value, plies int
		best         []int
	}{
		{"XOX/X.O/..O", 1, 1, []int{6}},
		{"X../..O/.XO", 1, 5, []int{2}}, // the block also sets up a fork on 6
		{"X../..O/OX.", 1, 3, []int{1, 4}},
		{"O../OXX/..X", 1, 1, []int{6}}, // O to move: O wins at once on 6, not later on 2
		{"X../.O./..X", 0, 0, []int{1, 3, 5, 7}},
	}
	for _, tt := range tests {
		p := mustParse(t, tt.board, 0)
		a, err := e.Analyze(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if a.Value != tt.value || a.Plies != tt.plies || !slices.Equal(a.Best, tt.best) || !a.Proven {
			t.Errorf("%s: got value %d in %d plies, best %v, proven %v; want %d in %d, best %v",
				tt.board, a.Value, a.Plies, a.Best, a.Proven, tt.value, tt.plies, tt.best)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 20 {
			ch, err := e.Move(context.Background(), p, Perfect, rng)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(tt.best, ch.Cell) || !ch.Proven {
				t.Errorf("%s: perfect played %d (proven %v), want one of %v", tt.board, ch.Cell, ch.Proven, tt.best)
			}
		}
	}
}

// The same positions through the search rather than the 3×3 table, and the
// analysis of each move.
func TestAnalyzeMoves(t *testing.T) {
	e := New(Options{TableBytes: 1 << 20})
	p := mustParse(t, "XOX/X.O/..O", 0)
	a, err := e.Analyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	want := []MoveValue{{4, 0, 0}, {6, 1, 1}, {7, 0, 0}}
	if !slices.Equal(a.Moves, want) {
		t.Errorf("got moves %v, want %v", a.Moves, want)
	}
}

func TestAnalyzeTerminal(t *testing.T) {
	e := New(Options{TableBytes: 1 << 20})
	for _, tt := range []struct {
		board  string
		winner game.Player
		value  int
	}{
		{"XXX/OO./...", game.X, -1},
		{"XOX/XOO/OXX", game.None, 0},
		{"XX.X/OOOO/X.../....", game.O, -1},
	} {
		a, err := e.Analyze(context.Background(), mustParse(t, tt.board, 0))
		if err != nil {
			t.Fatal(err)
		}
		if !a.Terminal || a.Winner != tt.winner || a.Value != tt.value || a.Moves != nil || !a.Proven {
			t.Errorf("%s: got %+v, want terminal, winner %v, value %d", tt.board, a, tt.winner, tt.value)
		}
		if _, err := e.Move(context.Background(), mustParse(t, tt.board, 0), Perfect, nil); !errors.Is(err, game.ErrGameOver) {
			t.Errorf("%s: Move got error %v, want %v", tt.board, err, game.ErrGameOver)
		}
	}
}

func TestKnownValues(t *testing.T) {
	tests := []struct {
		rows, cols, k int
		value         int
		slow          bool
	}{
		{3, 3, 3, 0, false},
		{4, 4, 3, 1, false},
		{4, 4, 4, 0, false},
		{5, 5, 4, 0, true},
		{5, 5, 5, 0, false},
	}
	for _, tt := range tests {
		if tt.slow && testing.Short() {
			continue
		}
		e := New(Options{TimeBudget: time.Minute})
		p := game.NewPosition(game.MustGeometry(tt.rows, tt.cols, tt.k))
		start := time.Now()
		a, err := e.Analyze(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%dx%d k=%d: value %d in %d plies, best %v, %d nodes, %v", tt.rows, tt.cols, tt.k, a.Value, a.Plies, a.Best, a.Nodes, time.Since(start))
		if a.Value != tt.value || !a.Proven {
			t.Errorf("%dx%d k=%d: got value %d (proven %v), want %d", tt.rows, tt.cols, tt.k, a.Value, a.Proven, tt.value)
		}
	}
}
