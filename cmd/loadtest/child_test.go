package main

import (
	"testing"
	"time"
)

func TestParseMachineBusy(t *testing.T) {
	tests := []struct {
		name, stat string
		want       time.Duration
		wantCPUs   int
	}{
		{"busy counts all but idle and iowait", "cpu  100 2 30 500 40 5 6 7 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\ncpu1 1 2 3 4 5 6 7 8 0 0\nintr 5\n", 1500 * time.Millisecond, 2},
		{"an older kernel's eight columns", "cpu  100 0 0 900 0 0 0 0\ncpu0 100 0 0 900 0 0 0 0\n", time.Second, 1},
		{"too few columns", "cpu  100 0 0 900\ncpu0 100 0 0 900\n", 0, 0},
		{"not the summary line", "cpu0 100 0 0 900 0 0 0 0 0 0\n", 0, 0},
		{"not a number", "cpu  x 0 0 900 0 0 0 0 0 0\n", 0, 0},
		{"empty", "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cpus := parseMachineBusy(tt.stat)
			if got != tt.want || cpus != tt.wantCPUs {
				t.Errorf("parseMachineBusy(%q) = %v, %d; want %v, %d", tt.stat, got, cpus, tt.want, tt.wantCPUs)
			}
		})
	}
}
