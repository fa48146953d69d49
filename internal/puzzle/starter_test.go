package puzzle_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/puzzle"
)

// TestStarter proves every puzzle of the starter set with the solver (see
// Check), 15 s to 30 s; with -short or the race detector, which slows the
// solver tenfold, all of 3×3 and every 50th puzzle of the other shapes.
func TestStarter(t *testing.T) {
	ps, err := puzzle.Starter()
	if err != nil {
		t.Fatal(err)
	}
	count := map[tttbot.Shape]int{}
	ids := map[string]bool{}
	e := newEngine()
	sample := testing.Short() || raceEnabled
	for _, p := range ps {
		count[p.Shape]++
		if ids[p.ID] {
			t.Errorf("puzzle %s twice", p.ID)
		}
		ids[p.ID] = true
		if sample && p.Shape.Rows > 3 && count[p.Shape]%50 != 1 {
			continue
		}
		if err := puzzle.Check(t.Context(), e, p); err != nil {
			t.Error(err)
		}
	}
	for _, code := range []string{"3x3k3", "4x4k3", "4x4k4", "5x5k4"} {
		s, _ := tttbot.ParseShape(code)
		if count[s] < 50 {
			t.Errorf("%s: %d starter puzzles, want 50 or more", s.Code(), count[s])
		}
	}
}

// TestStarterComplete walks every position of each shape Complete names
// and wants each puzzle a game could yield there in the starter set: any
// position the side to move wins, solved as the miner solves a missed win,
// the shortest it keeps (see Mine). No other shape is claimed complete.
func TestStarterComplete(t *testing.T) {
	ps, err := puzzle.Starter()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, p := range ps {
		have[p.ID] = true
	}
	e := newEngine()
	for _, code := range []string{"3x3k3", "4x4k3", "4x4k4", "5x5k4"} {
		s, _ := tttbot.ParseShape(code)
		if !puzzle.Complete(s) {
			continue
		}
		if s.Rows*s.Cols > 9 {
			t.Fatalf("%s: claimed complete, too large to walk here", code)
		}
		seen := map[string]bool{}
		found := 0
		var walk func(p game.Position)
		walk = func(p game.Position) {
			if seen[p.String()] {
				return
			}
			seen[p.String()] = true
			if pz, ok, err := puzzle.Solve(t.Context(), e, p, puzzle.MinMissedPlies); err != nil {
				t.Fatal(err)
			} else if ok {
				found++
				if !have[pz.ID] {
					t.Errorf("%s: puzzle %s (%s) is not in the starter set", code, pz.ID, pz.Start)
				}
			}
			for _, c := range p.Moves() {
				next, err := p.Play(c)
				if err != nil {
					t.Fatal(err)
				}
				walk(next)
			}
		}
		walk(game.NewPosition(game.MustGeometry(s.Rows, s.Cols, s.K)))
		if found == 0 {
			t.Errorf("%s: no puzzle among %d positions", code, len(seen))
		}
		t.Logf("%s: %d positions, %d of them puzzles", code, len(seen), found)
	}
	if !puzzle.Complete(tttbot.Shape{Rows: 3, Cols: 3, K: 3}) {
		t.Error("3×3 is not claimed complete")
	}
}

// TestStarterReproducible runs again the command at the head of each file
// of the starter set, for the first puzzles: the same seed makes the same
// puzzles, and a smaller count a prefix of them. The first 10; with -short
// or the race detector, the first 2 and not 5×5's.
func TestStarterReproducible(t *testing.T) {
	files, err := filepath.Glob("starter/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("got %v, %v; want the starter files", files, err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) { reproduce(t, name) })
	}
}

// reproduce runs the command of a starter file (see TestStarterReproducible).
func reproduce(t *testing.T, name string) {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	o := parseHeader(t, lines[0])
	o.Count = min(o.Count, 10)
	if testing.Short() || raceEnabled {
		if o.Geometry.Cells() == 25 {
			t.Skip("5×5 games from a cold table take 10 s under -race: run without -race and -short")
		}
		o.Count = 2
	}
	ps, _, err := puzzle.Generate(t.Context(), newEngine(), o)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if got := puzzle.Format(p); got != lines[i+1] {
			t.Errorf("%s line %d: got %q, want %q", name, i+2, got, lines[i+1])
		}
	}
	if len(ps) != o.Count {
		t.Errorf("%s: got %d puzzles, want %d", name, len(ps), o.Count)
	}
}

// parseHeader reads a starter file's first line, the command that wrote it.
func parseHeader(t *testing.T, line string) puzzle.GenerateOptions {
	t.Helper()
	const prefix = "# bot puzzles generate "
	if !strings.HasPrefix(line, prefix) {
		t.Fatalf("header %q: want %q first", line, prefix)
	}
	fs := flag.NewFlagSet("generate", flag.ContinueOnError)
	shape := fs.String("shape", "", "")
	var o puzzle.GenerateOptions
	fs.IntVar(&o.Count, "count", 0, "")
	fs.IntVar(&o.MinPlies, "min-plies", 0, "")
	fs.Uint64Var(&o.Seed, "seed", 0, "")
	fs.IntVar(&o.Games, "games", 0, "")
	if _, err := cli.Parse(fs, nil, nil, strings.Fields(strings.TrimPrefix(line, prefix))); err != nil {
		t.Fatalf("header %q: %v", line, err)
	}
	s, err := tttbot.ParseShape(*shape)
	if err != nil {
		t.Fatal(err)
	}
	o.Geometry = game.MustGeometry(s.Rows, s.Cols, s.K)
	return o
}

// Check refuses a puzzle whose line the solver disagrees with.
func TestCheckRefuses(t *testing.T) {
	e := newEngine()
	good, err := puzzle.Parse("3x3k3-1nxkbk .O./X../X.. found 0 2 4 5 7+8")
	if err != nil {
		t.Fatal(err)
	}
	if err := puzzle.Check(t.Context(), e, good); err != nil {
		t.Fatalf("the good puzzle: %v", err)
	}
	for _, bad := range []string{
		"3x3k3-1nxkbk .O./X../X.. found 0 2 4 5 7",     // a winning move left out
		"3x3k3-1nxkbk .O./X../X.. found 0+4 2 4 5 7+8", // a drawing move called winning
		"3x3k3-1nxkbk .O./X../X.. found 0 5 2",         // a defence that is not the longest
	} {
		p, err := puzzle.Parse(bad) // each keeps the rules
		if err != nil {
			t.Fatal(err)
		}
		if err := puzzle.Check(t.Context(), e, p); err == nil {
			t.Errorf("%q: got no error", bad)
		}
	}
}

// FuzzParse: a puzzle line that parses is written back by Format as one
// that parses to the same puzzle.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"3x3k3-mr2pfm XO./X.X/O.. missed 4 2 7",
		"3x3k3-1nxkbk .O./X../X.. found 0 2 4 5 7+8",
		"3x3k3-mr2pfm XO./X.X/O.. missed 4+1 2 7",
		"9x9k3-1 ... found 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := puzzle.Parse(s)
		if err != nil {
			return
		}
		again, err := puzzle.Parse(puzzle.Format(p))
		if err != nil {
			t.Fatalf("Parse(Format(%q)): %v", s, err)
		}
		if puzzle.Format(again) != puzzle.Format(p) || again.R != p.R {
			t.Errorf("%q: read back as %q", puzzle.Format(p), puzzle.Format(again))
		}
	})
}
