package main

import (
	"runtime"
	"testing"
	"time"
)

// measureHTTP runs this test binary as the empty handler, paced or as fast
// as it answers, and measures its CPU where /proc tells it.
func TestMeasureHTTP(t *testing.T) {
	for _, tt := range []struct {
		name        string
		rate, conns int
	}{
		{"paced", 2000, 4},
		{"as fast as answered", 0, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := measureHTTP(t.Context(), tt.rate, tt.conns, 1500, 700, "", 100*time.Millisecond, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if runtime.GOOS == "linux" && got <= 0 {
				t.Errorf("measureHTTP = %v, want the empty handler's CPU per request above 0", got)
			}
		})
	}
}
