package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// runSub calls a subcommand with stdin and returns what it wrote.
func runSub(t testing.TB, cmd func(context.Context, env, []string) error, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	e := env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	err = cmd(context.Background(), e, args)
	return out.String(), errb.String(), err
}

func TestAnalyzeCmdJSON(t *testing.T) {
	out, errOut, err := runSub(t, analyzeCmd, "", "-json", "XOX/X.O/..O", "xxx/oo./...", "XO/..", "XOX/XOO/OXX", "X.../..../..../....")
	if !errors.As(err, new(exitError)) {
		t.Errorf("got error %v, want exit status 1 for the bad board", err)
	}
	if errOut != "" {
		t.Errorf("got stderr %q, want nothing in JSON mode", errOut)
	}
	want := []string{
		`{"board":"XOX/X.O/..O","size":"3x3","k":3,"to_move":"X","terminal":false,"value":1,"plies":1,"proven":true,"moves":[{"cell":4,"value":0,"plies":0,"proven":true},{"cell":6,"value":1,"plies":1,"proven":true},{"cell":7,"value":0,"plies":0,"proven":true}],"best":[6]}`,
		`{"board":"XXX/OO./...","size":"3x3","k":3,"to_move":"O","terminal":true,"winner":"X","value":-1,"plies":0,"proven":true}`,
		`{"board":"XO/..","error":"malformed board \"XO/..\": invalid board geometry: 2×2 board (sides must be 3 to 5)"}`,
		`{"board":"XOX/XOO/OXX","size":"3x3","k":3,"to_move":"O","terminal":true,"winner":"draw","value":0,"plies":0,"proven":true}`,
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(want)+1 {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want)+1, out)
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d: got %s, want %s", i, lines[i], w)
		}
	}
	var last struct {
		Size  string
		K     int
		Value int
		Moves []struct{ Cell, Value, Plies int }
		Best  []int
	}
	if err := json.Unmarshal([]byte(lines[4]), &last); err != nil {
		t.Fatal(err)
	}
	if last.Size != "4x4" || last.K != 4 || last.Value != 0 || len(last.Moves) != 15 || len(last.Best) != 15 {
		t.Errorf("4x4 after a corner: got %+v, want a draw with 15 drawing moves", last)
	}
}

// With no BOARD, boards come one per line from standard input; blank lines
// are skipped and -k applies to each.
func TestAnalyzeCmdStdin(t *testing.T) {
	out, errOut, err := runSub(t, analyzeCmd, "..../..../..../....\n\n  X.../.O../..X./....  \n", "-json", "-k", "3")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"k":3,"to_move":"X","terminal":false,"value":1,"plies":5`) {
		t.Errorf("got %q, want 2 lines, the first a 4x4 k=3 win for X in 5 plies", out)
	}
	if out2, _, _ := runSub(t, analyzeCmd, "XXX/OO./...\n"); !strings.Contains(out2, "game over: X won") {
		t.Errorf("got %q, want the game over", out2)
	}
}

func TestAnalyzeCmdHuman(t *testing.T) {
	out, errOut, err := runSub(t, analyzeCmd, "", "X../..O/OX.", "XXX/OOO/...", "O../OXX/..X")
	if !errors.As(err, new(exitError)) {
		t.Errorf("got error %v, want exit status 1", err)
	}
	for _, w := range []string{
		"X../..O/OX. (3x3, k=3)\n  X . .\n  . . O\n  O X .\nX to move: X wins in 3 plies\n",
		"     1    1   2  X wins in 3 plies  (best)\n     2    1   3  draw\n     3    2   1  O wins in 4 plies\n",
		"O to move: O wins in 1 ply\n",
		"     6    3   1  O wins in 1 ply  (best)\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("got output\n%s\nwant it to contain\n%s", out, w)
		}
	}
	if !strings.Contains(errOut, `"XXX/OOO/..."`) || !strings.Contains(errOut, "illegal position") {
		t.Errorf("got stderr %q, want the bad board named with the reason", errOut)
	}
}

func TestAnalyzeCmdFlags(t *testing.T) {
	if _, _, err := runSub(t, analyzeCmd, "", "-nope"); err == nil {
		t.Error("got no error for an unknown flag")
	}
	if _, errOut, err := runSub(t, analyzeCmd, "", "-k", "9", "..../..../..../...."); !errors.As(err, new(exitError)) || !strings.Contains(errOut, "9 in a row") {
		t.Errorf("got %v, %q; want the impossible k reported", err, errOut)
	}
	// Flags may follow the boards; before, -k and 9 were taken for boards
	// and the first board analyzed with the default k.
	_, errOut, err := runSub(t, analyzeCmd, "", "XO./.X./..O", "-k", "9")
	if want := "bot analyze: malformed board \"XO./.X./..O\": invalid board geometry: 9 in a row on 3×3 (must be 3)\n"; !errors.As(err, new(exitError)) || errOut != want {
		t.Errorf("got %v, %q; want only %q", err, errOut, want)
	}
	if _, _, err := runSub(t, analyzeCmd, "", "-budget", "-1ms", "XO./.X./..O"); err == nil || !strings.Contains(err.Error(), "-budget -1ms: must not be negative") {
		t.Errorf("got %v, want the negative budget refused", err)
	}
}

// Moves the budget leaves unsolved are said to be unproven, not drawn, and
// none is called best.
func TestAnalyzeCmdUnproven(t *testing.T) {
	const board = "X...O/...../..X../...../O...X" // no move is solved in a nanosecond
	out, errOut, err := runSub(t, analyzeCmd, "", board, "-budget", "1ns")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	for _, w := range []string{"O to move: not proven (the time budget ran out with 0 of 20 moves solved)\n", "     1    1   2  not proven\n", "    23    5   4  not proven\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("got output\n%s\nwant it to contain %q", out, w)
		}
	}
	for _, bad := range []string{"draw", "best", "wins"} {
		if strings.Contains(out, bad) {
			t.Errorf("got output\n%s\nwant no %q in it", out, bad)
		}
	}
	out, _, err = runSub(t, analyzeCmd, "", "-json", "-budget", "1ns", board)
	if err != nil || !strings.Contains(out, `"proven":false,"moves":[{"cell":1,"value":0,"plies":0,"proven":false}`) {
		t.Errorf("got %v, %s; want every move unproven", err, out)
	}
}

// Any standard input: no panic, and one JSON line per non-blank input line.
func FuzzAnalyzeCmd(f *testing.F) {
	for _, s := range []string{"XOX/X.O/..O", "x../.o./..x\n\n...", "XXXX/...", "", "/", "X.O.X/.....\n.OX/XO./...", "\x00\xff//", "ooo/xx./x.."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, _, _ := runSub(t, analyzeCmd, in, "-json", "-budget", "50ms")
		want := 0
		for _, l := range strings.Split(in, "\n") {
			if strings.TrimSpace(l) != "" {
				want++
			}
		}
		if got := strings.Count(out, "\n"); got != want && !strings.Contains(in, "\r") && len(in) < 60000 {
			t.Errorf("got %d lines for %d boards:\n%s", got, want, out)
		}
	})
}
