//go:build race

package puzzle_test

// raceEnabled: the race detector slows the solver tenfold.
const raceEnabled = true
