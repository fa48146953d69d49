package main

import (
	"slices"
	"testing"
)

// TestWithGodebug: the settings join the environment's GODEBUG, or make
// one, and nothing else changes.
func TestWithGodebug(t *testing.T) {
	for _, tt := range []struct {
		name     string
		env      []string
		settings string
		want     []string
	}{
		{"none before", []string{"A=1"}, "schedtrace=9", []string{"A=1", "GODEBUG=schedtrace=9"}},
		{"added to the environment's", []string{"GODEBUG=gctrace=1", "A=1"}, "schedtrace=9", []string{"A=1", "GODEBUG=gctrace=1,schedtrace=9"}},
		{"an empty one", []string{"GODEBUG=", "A=1"}, "schedtrace=9", []string{"A=1", "GODEBUG=schedtrace=9"}},
		{"no settings", []string{"GODEBUG=gctrace=1", "A=1"}, "", []string{"GODEBUG=gctrace=1", "A=1"}},
	} {
		if got := withGodebug(tt.env, tt.settings); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
