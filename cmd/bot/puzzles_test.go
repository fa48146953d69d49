package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/puzzle"
)

func TestPuzzlesGenerate(t *testing.T) {
	out, errOut, err := runSub(t, puzzlesCmd, "", "generate", "-shape", "4x4k3", "-count", "5", "-min-plies", "5", "-seed", "3")
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if want := "# bot puzzles generate -shape 4x4k3 -count 5 -min-plies 5 -seed 3 -games 0"; lines[0] != want {
		t.Errorf("got header %q, want %q", lines[0], want)
	}
	ps, err := puzzle.Read(strings.NewReader(out))
	if err != nil || len(ps) != 5 {
		t.Fatalf("got %d puzzles, %v; want 5", len(ps), err)
	}
	for _, p := range ps {
		if p.Plies() < 5 || p.Shape.Code() != "4x4k3" {
			t.Errorf("%s: %d plies on %s, want 5 or more on 4x4k3", p.ID, p.Plies(), p.Shape.Code())
		}
	}
	if !strings.HasPrefix(errOut, "5 distinct 4x4k3 puzzles from ") || !strings.Contains(errOut, "by plies:") {
		t.Errorf("got summary %q", errOut)
	}

	// -o writes the same to a file.
	file := filepath.Join(t.TempDir(), "p.txt")
	if _, errOut, err := runSub(t, puzzlesCmd, "", "generate", "-shape", "4x4k3", "-count", "5", "-min-plies", "5", "-seed", "3", "-o", file); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	if data, err := os.ReadFile(file); err != nil || string(data) != out {
		t.Errorf("-o wrote %q, %v; want %q", data, err, out)
	}
}

func TestPuzzlesGenerateRefuses(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"solve"},
		{"generate", "-shape", "9x9k3"},
		{"generate", "-count", "0"},
		{"generate", "-min-plies", "-1"},
		{"generate", "stray"},
	} {
		if _, _, err := runSub(t, puzzlesCmd, "", args...); err == nil {
			t.Errorf("puzzles %q: got no error", args)
		}
	}
}
