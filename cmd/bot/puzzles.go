package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/puzzle"
)

// puzzlesCmd runs the puzzle tools. generate is the only one, so the
// help of puzzles is generate's.
func puzzlesCmd(ctx context.Context, e env, args []string) error {
	switch {
	case len(args) > 0 && args[0] == "generate":
		return puzzlesGenerate(ctx, e, args[1:])
	case len(args) > 0 && slices.Contains([]string{"-h", "-help", "--help"}, args[0]):
		return puzzlesGenerate(ctx, e, args)
	case len(args) > 0:
		return fmt.Errorf("puzzles: unknown subcommand %q (want generate)", args[0])
	}
	return fmt.Errorf("puzzles: want a subcommand: generate")
}

// puzzlesGenerate plays and mines games (see puzzle.Generate) and writes
// the puzzles found, one a line, after a comment line holding the command
// that makes them again: the starter set's files are its output.
func puzzlesGenerate(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot puzzles generate", "[-shape 5x5k4] [-count N] [-min-plies P] [-seed S] [-o FILE]",
		"Plays random and self-play games, mines them for puzzles and writes the distinct ones found, one a line; a summary goes to standard error.")
	shapeFlag := fs.String("shape", "5x5k4", "the board: ROWSxCOLSkK")
	count := fs.Int("count", 100, "how many puzzles")
	minPlies := fs.Int("min-plies", 0, "the shortest forced win kept, in plies (0: every puzzle mined)")
	seed := fs.Uint64("seed", 1, "the seed the games follow from: the same flags give the same puzzles")
	games := fs.Int("games", 0, "the most games to play (0: 100 per puzzle asked for)")
	out := fs.String("o", "", "the file to write (default: standard output)")
	rest, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs(fs, rest); err != nil {
		return err
	}
	shape, err := tttbot.ParseShape(*shapeFlag)
	if err != nil {
		return fmt.Errorf("puzzles generate: %w", err)
	}
	if *count <= 0 || *games < 0 || *minPlies < 0 {
		return fmt.Errorf("puzzles generate: -count must be positive, -games and -min-plies not negative")
	}
	engine := ai.New(ai.Options{TimeBudget: time.Minute, TableBytes: 64 << 20})
	start := time.Now()
	ps, played, err := puzzle.Generate(ctx, engine, puzzle.GenerateOptions{
		Geometry: game.MustGeometry(shape.Rows, shape.Cols, shape.K),
		Count:    *count, MinPlies: *minPlies, Seed: *seed, Games: *games,
	})
	if err != nil {
		return fmt.Errorf("puzzles generate: %w", err)
	}
	took := time.Since(start)
	var b strings.Builder
	fmt.Fprintf(&b, "# bot puzzles generate -shape %s -count %d -min-plies %d -seed %d -games %d\n", shape.Code(), *count, *minPlies, *seed, *games)
	byPlies := map[int]int{}
	for _, p := range ps {
		b.WriteString(puzzle.Format(p))
		b.WriteByte('\n')
		byPlies[p.Plies()]++
	}
	w := e.stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fmt.Errorf("puzzles generate: %w", err)
		}
		defer f.Close()
		w = f
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("puzzles generate: %w", err)
	}
	if f, ok := w.(*os.File); ok && *out != "" {
		if err := f.Close(); err != nil {
			return fmt.Errorf("puzzles generate: %w", err)
		}
	}
	fmt.Fprintf(e.stderr, "%d distinct %s puzzles from %d games in %.1fs; by plies:", len(ps), shape.Code(), played, took.Seconds())
	for _, n := range slices.Sorted(maps.Keys(byPlies)) {
		fmt.Fprintf(e.stderr, " %d: %d", n, byPlies[n])
	}
	fmt.Fprintln(e.stderr)
	return nil
}
