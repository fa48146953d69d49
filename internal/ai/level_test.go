package ai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tttbot/tttbot/internal/game"
)

// random is the baseline player below easy: any legal move.
const random Level = "random"

// play runs one seeded game between two levels and returns the winner.
func play(tb testing.TB, e *Engine, g *game.Geometry, x, o Level, seed uint64) game.Player {
	rng := rand.New(rand.NewPCG(seed, 0x7474))
	p := game.NewPosition(g)
	for {
		if res := p.Result(); res.Over {
			return res.Winner
		}
		level := x
		if p.ToMove() == game.O {
			level = o
		}
		var cell int
		if level == random {
			moves := p.Moves()
			cell = moves[rng.IntN(len(moves))]
		} else {
			ch, err := e.Move(context.Background(), p, level, rng)
			if err != nil || !ch.Proven {
				tb.Fatalf("%s at %s: got %+v, %v", p, level, ch, err)
			}
			cell = ch.Cell
		}
		var err error
		if p, err = p.Play(cell); err != nil {
			tb.Fatal(err)
		}
	}
}

// tally plays n games and returns the share of X wins, draws and O wins.
func tally(tb testing.TB, e *Engine, g *game.Geometry, x, o Level, n int) [3]float64 {
	var out [3]float64
	for i := range n {
		switch play(tb, e, g, x, o, uint64(i)) {
		case game.X:
			out[0]++
		case game.None:
			out[1]++
		default:
			out[2]++
		}
	}
	for i := range out {
		out[i] /= float64(n)
	}
	return out
}

// The difficulty ladder on 3×3, measured by seeded self-play: how often each
// level loses to perfect play (both sides, averaged) and how often it beats a
// random player as X. Each level's band lies clear of its neighbours'.
func TestLevelBands(t *testing.T) {
	e := New(Options{TableBytes: 1 << 20})
	g := game.MustGeometry(3, 3, 3)
	const n = 1000
	tests := []struct {
		level                        Level
		lossMin, lossMax             float64 // against perfect
		beatRandomMin, beatRandomMax float64 // as X against random
	}{
		{random, 0.78, 0.95, 0.50, 0.65},
		{Easy, 0.50, 0.76, 0.68, 0.85},
		{Medium, 0.12, 0.35, 0.90, 1},
		{Hard, 0.01, 0.10, 0.93, 1},
		{Perfect, 0, 0, 0.95, 1},
	}
	prevLoss, prevBeat := 1.0, 0.0
	for _, tt := range tests {
		asX, asO := tally(t, e, g, tt.level, Perfect, n), tally(t, e, g, Perfect, tt.level, n)
		loss := (asX[2] + asO[0]) / 2
		beat := tally(t, e, g, tt.level, random, n)[0]
		t.Logf("%-8s loses %.3f to perfect (as X %.3f, as O %.3f), beats random as X %.3f", tt.level, loss, asX[2], asO[0], beat)
		if loss < tt.lossMin || loss > tt.lossMax {
			t.Errorf("%s: got losses to perfect %.3f, want %.2f to %.2f", tt.level, loss, tt.lossMin, tt.lossMax)
		}
		if beat < tt.beatRandomMin || beat > tt.beatRandomMax {
			t.Errorf("%s: got wins against random as X %.3f, want %.2f to %.2f", tt.level, beat, tt.beatRandomMin, tt.beatRandomMax)
		}
		if loss >= prevLoss && tt.level != Perfect || beat < prevBeat {
			t.Errorf("%s: got losses %.3f and wins %.3f, not stronger than the level below (%.3f, %.3f)", tt.level, loss, beat, prevLoss, prevBeat)
		}
		prevLoss, prevBeat = loss, beat
	}
}

// A seed replays a game exactly; different seeds give different games, even
// between two perfect players.
func TestSeedReplaysGame(t *testing.T) {
	e := New(Options{TableBytes: 1 << 20})
	for _, g := range []*game.Geometry{game.MustGeometry(3, 3, 3), game.MustGeometry(4, 4, 4)} {
		games := map[string]bool{}
		for seed := range uint64(20) {
			a, b := record(t, e, g, Perfect, Medium, seed), record(t, e, g, Perfect, Medium, seed)
			if a != b {
				t.Fatalf("%s seed %d: got games %s and %s", g, seed, a, b)
			}
			games[record(t, e, g, Perfect, Perfect, seed)] = true
		}
		if len(games) < 10 {
			t.Errorf("%s: got %d different perfect games in 20 seeds, want at least 10", g, len(games))
		}
	}
}

// record plays a seeded game and returns its moves.
func record(tb testing.TB, e *Engine, g *game.Geometry, x, o Level, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	p := game.NewPosition(g)
	moves := ""
	for !p.Result().Over {
		level := x
		if p.ToMove() == game.O {
			level = o
		}
		ch, err := e.Move(context.Background(), p, level, rng)
		if err != nil {
			tb.Fatal(err)
		}
		p, _ = p.Play(ch.Cell)
		moves += fmt.Sprintf("%d ", ch.Cell)
	}
	return moves
}

func TestParseLevel(t *testing.T) {
	for _, l := range Levels() {
		if got, err := ParseLevel(string(l)); got != l || err != nil {
			t.Errorf("ParseLevel(%q): got %q, %v", l, got, err)
		}
	}
	for _, s := range []string{"", "Perfect", "random", "impossible"} {
		if _, err := ParseLevel(s); !errors.Is(err, ErrLevel) {
			t.Errorf("ParseLevel(%q): got error %v, want %v", s, err, ErrLevel)
		}
	}
	p := game.NewPosition(game.MustGeometry(4, 4, 4))
	if _, err := New(Options{TableBytes: 1 << 10}).Move(context.Background(), p, "expert", nil); !errors.Is(err, ErrLevel) {
		t.Errorf("Move at level expert: got error %v, want %v", err, ErrLevel)
	}
}
