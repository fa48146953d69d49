package main

import (
	"testing"
	"time"
)

func TestParseMachineBusy(t *testing.T) {
	tests := []struct {
		name, stat string
		want       time.Duration
	}{
		{"busy counts all but idle and iowait", "cpu  100 2 30 500 40 5 6 7 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n", 1500 * time.Millisecond},
		{"an older kernel's eight columns", "cpu  100 0 0 900 0 0 0 0\n", time.Second},
		{"too few columns", "cpu  100 0 0 900\n", 0},
		{"not the summary line", "cpu0 100 0 0 900 0 0 0 0 0 0\n", 0},
		{"not a number", "cpu  x 0 0 900 0 0 0 0 0 0\n", 0},
		{"empty", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseMachineBusy(tt.stat); got != tt.want {
				t.Errorf("parseMachineBusy(%q) = %v, want %v", tt.stat, got, tt.want)
			}
		})
	}
}
