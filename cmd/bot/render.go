package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/picture"
	"github.com/tttbot/tttbot/internal/rating"
)

// The sample games render draws: a 5×5 game won with a row of four, and a
// 3×3 game where O's answer on an edge loses.
var (
	sampleReplay = []int{12, 6, 7, 17, 8, 4, 16, 13, 20}
	sampleFinal  = []int{4, 1, 0, 8, 6, 3, 2}
)

// renderCmd writes sample pictures — a rating chart, a game's replay and
// its final position judged by the solver — to a directory: those the
// README shows.
func renderCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot render", "[-dir DIR]",
		"Writes sample pictures as the bot draws them: chart.png and chart.svg (a rating history), replay.gif (a 5×5 game) and final.png (a 3×3 game, each move judged by the solver).")
	dir := fs.String("dir", ".", "the directory to write them to")
	rest, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs(fs, rest); err != nil {
		return err
	}
	geo3 := game.MustGeometry(3, 3, 3)
	verdicts, err := judge(ctx, geo3, sampleFinal)
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	histories := sampleHistories()
	for _, f := range []struct {
		name string
		draw func(*bytes.Buffer) error
	}{
		{"chart.png", func(b *bytes.Buffer) error { return picture.Chart(b, histories, picture.PNG) }},
		{"chart.svg", func(b *bytes.Buffer) error { return picture.Chart(b, histories, picture.SVG) }},
		{"replay.gif", func(b *bytes.Buffer) error { return picture.Replay(b, game.MustGeometry(5, 5, 4), sampleReplay) }},
		{"final.png", func(b *bytes.Buffer) error { return picture.Final(b, geo3, sampleFinal, verdicts) }},
	} {
		var b bytes.Buffer
		if err := f.draw(&b); err != nil {
			return fmt.Errorf("render %s: %w", f.name, err)
		}
		path := filepath.Join(*dir, f.name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("render: %w", err)
		}
		fmt.Fprintf(e.stdout, "%s\t%d bytes\n", path, b.Len())
	}
	return nil
}

// judge is the solver's verdict on each of moves.
func judge(ctx context.Context, geo *game.Geometry, moves []int) ([]ai.Verdict, error) {
	engine := ai.New(ai.Options{})
	p := game.NewPosition(geo)
	var out []ai.Verdict
	for _, c := range moves {
		a, err := engine.Analyze(ctx, p)
		if err != nil {
			return nil, err
		}
		out = append(out, a.Verdict(c))
		if p, err = p.Play(c); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sampleHistories are a made-up player's ratings on three shapes, rated
// by Glicko-2 against opponents rated about 1500, from a fixed seed:
// months on 3×3, weeks on 4×4 and 5×5.
func sampleHistories() []tttbot.RatingHistory {
	rng := rand.New(rand.NewPCG(34, 1))
	start := time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)
	var out []tttbot.RatingHistory
	for _, s := range []struct {
		shape tttbot.Shape
		games int
		every time.Duration
		skill float64 // the chance of a win
	}{
		{tttbot.Shape{Rows: 3, Cols: 3, K: 3}, 160, 26 * time.Hour, 0.6},
		{tttbot.Shape{Rows: 4, Cols: 4, K: 3}, 40, 60 * time.Hour, 0.45},
		{tttbot.Shape{Rows: 5, Cols: 5, K: 4}, 12, 5 * 24 * time.Hour, 0.55},
	} {
		h := tttbot.RatingHistory{Shape: s.shape}
		r := rating.Default()
		at := start.Add(time.Duration(rng.IntN(20*24)) * time.Hour)
		for range s.games {
			score := rating.Loss
			if rng.Float64() < s.skill {
				score = rating.Win
			}
			opponent := rating.Rating{R: 1500 + 150*rng.NormFloat64(), RD: 80, Sigma: rating.Default().Sigma}
			r, _ = rating.UpdatePair(r, opponent, score, rating.DefaultTau)
			h.Points = append(h.Points, tttbot.RatingPoint{At: at, R: r.R, RD: r.RD})
			at = at.Add(time.Duration(rng.Int64N(int64(2 * s.every))))
		}
		out = append(out, h)
	}
	return out
}
