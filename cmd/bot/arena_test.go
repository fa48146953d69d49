package main

import (
	"strings"
	"testing"
)

func TestArenaCmd(t *testing.T) {
	args := []string{"-size", "3", "-k", "3", "-games", "300", "-x", "medium", "-o", "perfect", "-seed", "42"}
	out, errOut, err := runSub(t, arenaCmd, "", args...)
	if err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	again, _, _ := runSub(t, arenaCmd, "", args...)
	score := func(s string) string { return s[:strings.LastIndex(strings.TrimSpace(s), "\n")] }
	if score(out) != score(again) {
		t.Errorf("the same seed gave\n%s\nand\n%s", out, again)
	}
	if !strings.HasPrefix(out, "3x3 k=3, X medium vs O perfect, 300 games, seed 42\nX wins       0    0.0%\n") {
		t.Errorf("got\n%s\nwant no X wins against perfect", out)
	}

	out, _, err = runSub(t, arenaCmd, "", "-size", "4", "-games", "4", "-x", "perfect", "-o", "random", "-seed", "1")
	if err != nil || !strings.Contains(out, "4x4 k=4, X perfect vs O random") || !strings.Contains(out, "O wins       0") {
		t.Errorf("got %v,\n%s\nwant perfect unbeaten on 4x4", err, out)
	}
}

func TestArenaCmdRefuses(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-x", "expert"}, `unknown level "expert"`},
		{[]string{"-size", "6"}, "6×6 board"},
		{[]string{"-size", "ax3"}, `-size "ax3"`},
		{[]string{"-size", "3", "-k", "4"}, "4 in a row"},
		{[]string{"-games", "0"}, "-games 0"},
		{[]string{"extra"}, "unexpected arguments"},
	} {
		_, _, err := runSub(t, arenaCmd, "", tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: got error %v, want it to mention %q", tt.args, err, tt.want)
		}
	}
}
