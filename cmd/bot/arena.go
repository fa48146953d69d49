package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/game"
)

// randomLevel is the arena's baseline below easy: any legal move.
const randomLevel = "random"

// arenaCmd plays AI levels against each other and prints the score, so that
// the difficulty ladder is a measured fact. Game i is seeded with (seed, i),
// so a run, and any one game of it, replays exactly.
func arenaCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot arena", "[-size 3] [-k K] [-games N] [-x LEVEL] [-o LEVEL] [-seed S] [-budget D]", "")
	size := fs.String("size", "3", "board size: N for N×N, or RxC")
	k := fs.Int("k", 0, "stones in a row to win (0: the board's default)")
	games := fs.Int("games", 100, "games to play")
	xFlag := fs.String("x", string(ai.Perfect), "level of X: easy, medium, hard, perfect or random")
	oFlag := fs.String("o", string(ai.Perfect), "level of O")
	seed := fs.Uint64("seed", 0, "random seed (0: pick one and print it)")
	budget := fs.Duration("budget", 0, "time budget per move (0: the engine's default, 1s)")
	rest, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs(fs, rest); err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if *budget < 0 {
		return fmt.Errorf("arena: -budget %v: must not be negative", *budget)
	}
	g, err := parseSize(*size, *k)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	if *games < 1 {
		return fmt.Errorf("arena: -games %d: must be at least 1", *games)
	}
	levels := [2]ai.Level{}
	for i, s := range []string{*xFlag, *oFlag} {
		if levels[i], err = arenaLevel(s); err != nil {
			return fmt.Errorf("arena: %w", err)
		}
	}
	if *seed == 0 {
		*seed = rand.Uint64()
	}

	a := arena{engine: ai.New(ai.Options{TimeBudget: *budget}), g: g, x: levels[0], o: levels[1], seed: *seed}
	start := time.Now()
	res, err := a.run(ctx, *games)
	if err != nil {
		return fmt.Errorf("arena: %w", err)
	}
	n := float64(*games)
	fmt.Fprintf(e.stdout, "%s k=%d, X %s vs O %s, %d games, seed %d\n", g.Size(), g.K, a.x, a.o, *games, a.seed)
	fmt.Fprintf(e.stdout, "X wins  %6d  %5.1f%%\n", res.xWins, 100*float64(res.xWins)/n)
	fmt.Fprintf(e.stdout, "draws   %6d  %5.1f%%\n", res.draws, 100*float64(res.draws)/n)
	fmt.Fprintf(e.stdout, "O wins  %6d  %5.1f%%\n", res.oWins, 100*float64(res.oWins)/n)
	slowest := "no move needed a search"
	if res.slowest > 0 {
		slowest = fmt.Sprintf("slowest search %v", significant(res.slowest))
	}
	fmt.Fprintf(e.stdout, "%d moves in %v, %s, %d not proven\n", res.moves, significant(time.Since(start)), slowest, res.unproven)
	return nil
}

// significant rounds d to three significant digits, so that it prints in a
// unit that shows it: 1.23ms or 870ns, where rounding to a fixed unit would
// print 0s.
func significant(d time.Duration) time.Duration {
	unit := time.Duration(1)
	for d >= 1000*unit {
		unit *= 10
	}
	return d.Round(unit)
}

// parseSize reads "N" or "RxC" into a geometry.
func parseSize(s string, k int) (*game.Geometry, error) {
	rs, cs, ok := strings.Cut(strings.ToLower(s), "x")
	if !ok {
		cs = rs
	}
	r, err1 := strconv.Atoi(rs)
	c, err2 := strconv.Atoi(cs)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("-size %q: want N or RxC", s)
	}
	if k == 0 {
		k = game.DefaultK(r, c)
	}
	return game.NewGeometry(r, c, k)
}

func arenaLevel(s string) (ai.Level, error) {
	if s == randomLevel {
		return randomLevel, nil
	}
	if l, err := ai.ParseLevel(s); err == nil {
		return l, nil
	}
	return "", fmt.Errorf("unknown level %q (use easy, medium, hard, perfect or random)", s)
}

type arena struct {
	engine *ai.Engine
	g      *game.Geometry
	x, o   ai.Level
	seed   uint64
}

type arenaResult struct {
	xWins, draws, oWins, moves, unproven int
	slowest                              time.Duration
}

// run plays the games on every core; each game's seed fixes its moves, so
// the totals do not depend on scheduling.
func (a *arena) run(ctx context.Context, games int) (arenaResult, error) {
	var (
		mu    sync.Mutex
		total arenaResult
		next  int
		first error
		wg    sync.WaitGroup
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				stop := i >= games || first != nil
				mu.Unlock()
				if stop {
					return
				}
				r, err := a.play(ctx, uint64(i))
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				total.xWins += r.xWins
				total.draws += r.draws
				total.oWins += r.oWins
				total.moves += r.moves
				total.unproven += r.unproven
				total.slowest = max(total.slowest, r.slowest)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return total, first
}

// play plays game i and returns it as a result of one game.
func (a *arena) play(ctx context.Context, i uint64) (arenaResult, error) {
	var r arenaResult
	rng := rand.New(rand.NewPCG(a.seed, i))
	p := game.NewPosition(a.g)
	for {
		res := p.Result()
		switch {
		case !res.Over:
		case res.Winner == game.X:
			r.xWins++
			return r, nil
		case res.Winner == game.O:
			r.oWins++
			return r, nil
		default:
			r.draws++
			return r, nil
		}
		level := a.x
		if p.ToMove() == game.O {
			level = a.o
		}
		cell := -1
		if level == randomLevel {
			moves := p.Moves()
			cell = moves[rng.IntN(len(moves))]
		} else {
			ch, err := a.engine.Move(ctx, p, level, rng)
			if err != nil {
				return r, fmt.Errorf("game %d, %s: %w", i, p, err)
			}
			cell = ch.Cell
			r.slowest = max(r.slowest, ch.Elapsed)
			if !ch.Proven {
				r.unproven++
			}
		}
		var err error
		if p, err = p.Play(cell); err != nil {
			return r, fmt.Errorf("game %d: %w", i, err)
		}
		r.moves++
	}
}
