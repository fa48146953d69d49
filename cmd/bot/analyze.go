package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/game"
)

// analyzeCmd solves boards given as arguments, or one per line of standard
// input, with one engine for the whole batch.
func analyzeCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot analyze", "[-k K] [-json] [-budget D] [BOARD...]",
		"Analyzes each BOARD (e.g. XO./.X./..O), or one board per line of standard input.")
	k := fs.Int("k", 0, "stones in a row to win (0: the board's default)")
	asJSON := fs.Bool("json", false, "write one JSON object per board")
	budget := fs.Duration("budget", 10*time.Second, "how long to search each board, such as 500ms or 1m, or 0 for the bot's own 1s; moves not solved in that time are marked not proven")
	boards, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if *budget < 0 {
		return fmt.Errorf("analyze: -budget %v: must not be negative", *budget)
	}
	engine := ai.New(ai.Options{TimeBudget: *budget})
	failed := false
	analyze := func(board string) error {
		p, err := game.Parse(board, *k)
		var a ai.Analysis
		if err == nil {
			a, err = engine.Analyze(ctx, p)
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		if err != nil {
			failed = true
			if *asJSON {
				return json.NewEncoder(e.stdout).Encode(struct {
					Board string `json:"board"`
					Error string `json:"error"`
				}{board, err.Error()})
			}
			_, err = fmt.Fprintf(e.stderr, "bot analyze: %v\n", err)
			return err
		}
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(analysisJSON(p, a))
		}
		return writeAnalysis(e.stdout, p, a)
	}

	if len(boards) > 0 {
		for _, b := range boards {
			if err := analyze(b); err != nil {
				return fmt.Errorf("analyze: %w", err)
			}
		}
	} else {
		sc := bufio.NewScanner(e.stdin)
		for sc.Scan() {
			if b := strings.TrimSpace(sc.Text()); b != "" {
				if err := analyze(b); err != nil {
					return fmt.Errorf("analyze: %w", err)
				}
			}
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("read boards: %w", err)
		}
	}
	if failed {
		return exitError{}
	}
	return nil
}

type moveJSON struct {
	Cell   int  `json:"cell"`
	Value  int  `json:"value"`
	Plies  int  `json:"plies"`
	Proven bool `json:"proven"`
}

type analysisOut struct {
	Board    string     `json:"board"`
	Size     string     `json:"size"`
	K        int        `json:"k"`
	ToMove   string     `json:"to_move"`
	Terminal bool       `json:"terminal"`
	Winner   string     `json:"winner,omitempty"`
	Value    int        `json:"value"`
	Plies    int        `json:"plies"`
	Proven   bool       `json:"proven"`
	Moves    []moveJSON `json:"moves,omitempty"`
	Best     []int      `json:"best,omitempty"`
}

func analysisJSON(p game.Position, a ai.Analysis) analysisOut {
	out := analysisOut{
		Board: p.String(), Size: p.Geometry().Size(), K: p.Geometry().K, ToMove: p.ToMove().String(),
		Terminal: a.Terminal, Value: a.Value, Plies: a.Plies, Proven: a.Proven, Best: a.Best,
	}
	if a.Terminal {
		out.Winner = "draw"
		if a.Winner != game.None {
			out.Winner = a.Winner.String()
		}
	}
	for _, m := range a.Moves {
		out.Moves = append(out.Moves, moveJSON(m))
	}
	return out
}

// writeAnalysis prints a board, its verdict and a table of its moves.
func writeAnalysis(w io.Writer, p game.Position, a ai.Analysis) error {
	g := p.Geometry()
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, k=%d)\n", p, g.Size(), g.K)
	for r := range g.Rows {
		b.WriteString(" ")
		for c := range g.Cols {
			fmt.Fprintf(&b, " %s", p.At(g.Cell(r, c)))
		}
		b.WriteString("\n")
	}
	mover := p.ToMove()
	switch {
	case a.Terminal && a.Winner == game.None:
		b.WriteString("game over: draw\n")
	case a.Terminal:
		fmt.Fprintf(&b, "game over: %s won\n", a.Winner)
	case a.Proven:
		fmt.Fprintf(&b, "%s to move: %s\n", mover, verdict(mover, a.Value, a.Plies))
	default:
		// An unsolved move may be better than every solved one, so
		// nothing is called best.
		solved := 0
		for _, m := range a.Moves {
			if m.Proven {
				solved++
			}
		}
		fmt.Fprintf(&b, "%s to move: not proven (the time budget ran out with %d of %d moves solved)\n", mover, solved, len(a.Moves))
	}
	if !a.Terminal {
		b.WriteString("  cell  row col  result\n")
		best := map[int]bool{}
		for _, c := range a.Best {
			best[c] = a.Proven
		}
		for _, m := range a.Moves {
			result := "not proven"
			if m.Proven {
				result = verdict(mover, m.Value, m.Plies)
			}
			fmt.Fprintf(&b, "  %4d  %3d %3d  %s", m.Cell, m.Cell/g.Cols+1, m.Cell%g.Cols+1, result)
			if best[m.Cell] {
				b.WriteString("  (best)")
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// verdict says a value for the side to move in words: "X wins in 3 plies".
func verdict(mover game.Player, value, plies int) string {
	winner := mover
	switch value {
	case 0:
		return "draw"
	case -1:
		winner = mover.Other()
	}
	unit := "plies"
	if plies == 1 {
		unit = "ply"
	}
	return fmt.Sprintf("%s wins in %d %s", winner, plies, unit)
}
