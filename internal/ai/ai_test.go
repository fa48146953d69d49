package ai

import (
	"context"
	"errors"
	"fmt"
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
	want := []MoveValue{{4, 0, 0, true}, {6, 1, 1, true}, {7, 0, 0, true}}
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
	}{
		{3, 3, 3, 0},
		{4, 4, 3, 1},
		{4, 4, 4, 0},
		{5, 5, 4, 0},
		{5, 5, 5, 0},
		// The other boards the bot offers (transposed ones alike).
		{3, 4, 3, 1}, {3, 4, 4, 0}, {3, 5, 3, 1}, {3, 5, 4, 0}, {3, 5, 5, 0},
		{4, 5, 3, 1}, {4, 5, 4, 0}, {4, 5, 5, 0}, {5, 5, 3, 1},
	}
	for _, tt := range tests {
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

// A search cut short by the budget still takes a win in one and blocks a
// single threat, and says when its move is not proven. The opening book
// needs no search.
func TestTimeBudget(t *testing.T) {
	e := New(Options{TimeBudget: time.Nanosecond})
	ctx := context.Background()
	tests := []struct {
		board  string
		want   []int // nil: any legal move
		proven bool
		inOne  bool // want[0] wins at once, and only it
	}{
		{"...../XXX../OO.../...../O....", []int{8}, true, true},  // win in one
		{"...../OOO../XX.../...../X....", []int{8}, true, false}, // block the single threat
		{"X...O/...../..X../...../O...X", nil, false, false},     // too big to prove in a nanosecond
		{"...../...../...../...../.....", nil, true, false},      // from the opening book
	}
	for _, tt := range tests {
		p := mustParse(t, tt.board, 4)
		ch, err := e.Move(ctx, p, Perfect, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if tt.want != nil && !slices.Contains(tt.want, ch.Cell) || !p.Empty().Has(ch.Cell) || ch.Proven != tt.proven {
			t.Errorf("%s: got cell %d, proven %v; want one of %v, proven %v", tt.board, ch.Cell, ch.Proven, tt.want, tt.proven)
		}
		a, err := e.Analyze(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Moves) != p.Empty().Count() || !tt.proven && a.Proven {
			t.Errorf("%s: got analysis proven %v with %d moves, want %d moves", tt.board, a.Proven, len(a.Moves), p.Empty().Count())
		}
		unproven := 0
		for _, mv := range a.Moves {
			if inOne := mv.Value == 1 && mv.Plies == 1; tt.inOne && inOne != (mv.Cell == tt.want[0]) {
				t.Errorf("%s: got %+v, want only cell %d to win in one", tt.board, mv, tt.want[0])
			}
			if tt.want != nil && mv.Cell == tt.want[0] && !mv.Proven {
				t.Errorf("%s: got %+v, want the forced move proven", tt.board, mv)
			}
			if !mv.Proven {
				unproven++
				if mv.Value != 0 || mv.Plies != 0 {
					t.Errorf("%s: got %+v, want an unproven move valued 0 in 0", tt.board, mv)
				}
			}
		}
		if a.Proven != (unproven == 0) {
			t.Errorf("%s: got analysis proven %v with %d of %d moves unproven", tt.board, a.Proven, unproven, len(a.Moves))
		}
	}
}

func TestCanceledContext(t *testing.T) {
	e := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := game.NewPosition(game.MustGeometry(5, 5, 4))
	if _, err := e.Move(ctx, p, Perfect, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Move: got error %v, want %v", err, context.Canceled)
	}
	if _, err := e.Analyze(ctx, p); !errors.Is(err, context.Canceled) {
		t.Errorf("Analyze: got error %v, want %v", err, context.Canceled)
	}
}

// Many goroutines share one engine and its table; every answer matches the
// one a lone engine gives. Run with -race.
func TestConcurrentUse(t *testing.T) {
	shared := New(Options{TableBytes: 1 << 20, TimeBudget: time.Minute})
	lone := New(Options{TableBytes: 1 << 20, TimeBudget: time.Minute})
	var positions []game.Position
	for _, g := range []*game.Geometry{game.MustGeometry(4, 4, 4), game.MustGeometry(3, 5, 4), game.MustGeometry(5, 5, 5)} {
		positions = append(positions, selfPlay(t, g, 4)...)
	}
	want := make([]Analysis, len(positions))
	for i, p := range positions {
		want[i], _ = lone.Analyze(context.Background(), p)
	}
	errs := make(chan error, 4)
	for w := range 4 {
		go func() {
			rng := rand.New(rand.NewPCG(uint64(w), 0))
			for i := range positions {
				i := (i + w*7) % len(positions)
				p := positions[i]
				a, err := shared.Analyze(context.Background(), p)
				if err == nil && !slices.Equal(a.Best, want[i].Best) {
					err = fmt.Errorf("%s: got best %v, want %v", p, a.Best, want[i].Best)
				}
				if err == nil {
					var ch Choice
					ch, err = shared.Move(context.Background(), p, Perfect, rng)
					if err == nil && !slices.Contains(want[i].Best, ch.Cell) {
						err = fmt.Errorf("%s: got move %d, want one of %v", p, ch.Cell, want[i].Best)
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// Leaving a threat open loses in 2 plies, known without search.
func TestAnalyzeOpenThreat(t *testing.T) {
	e := New(Options{TimeBudget: time.Nanosecond})
	p := mustParse(t, "...../OOO../XX.../...../X....", 4)
	a, err := e.Analyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range a.Moves {
		if mv.Cell != 8 && (mv.Value != -1 || mv.Plies != 2) {
			t.Errorf("cell %d: got value %d in %d plies, want a loss in 2", mv.Cell, mv.Value, mv.Plies)
		}
	}
}
