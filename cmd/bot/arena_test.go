package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
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

	// Every 3×3 move comes from the table, in far less than a millisecond.
	if !regexp.MustCompile(`\n2\d\d\d moves in [1-9][0-9.]*[µm]?s, no move needed a search, 0 not proven\n$`).MatchString(out) {
		t.Errorf("got\n%s\nwant the time in a unit that shows it", out)
	}

	out, _, err = runSub(t, arenaCmd, "", "-size", "4", "-games", "4", "-x", "perfect", "-o", "random", "-seed", "1")
	if err != nil || !strings.Contains(out, "4x4 k=4, X perfect vs O random") || !strings.Contains(out, "O wins       0") {
		t.Errorf("got %v,\n%s\nwant perfect unbeaten on 4x4", err, out)
	}
	if !regexp.MustCompile(`, slowest search [1-9][0-9.]*[µm]?s, `).MatchString(out) {
		t.Errorf("got\n%s\nwant the slowest search's time", out)
	}
}

func TestSignificant(t *testing.T) {
	tests := []struct{ d, want time.Duration }{
		{0, 0},
		{870, 870},
		{1234, 1230},
		{482_345, 482_000},
		{1_234_567, 1_230_000},
		{7_155_000, 7_160_000},
		{3*time.Second + 456*time.Millisecond, 3_460 * time.Millisecond},
	}
	for _, tt := range tests {
		if got := significant(tt.d); got != tt.want {
			t.Errorf("significant(%v): got %v, want %v", tt.d, got, tt.want)
		}
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
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-budget", "-1s"}, "-budget -1s: must not be negative"},
	} {
		_, _, err := runSub(t, arenaCmd, "", tt.args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: got error %v, want it to mention %q", tt.args, err, tt.want)
		}
	}
}
