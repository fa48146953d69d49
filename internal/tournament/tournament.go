// Package tournament pairs the rounds of a tournament and ranks its players:
// round robin by the Berger tables, Swiss by a simplified Dutch system and
// single elimination seeded by rating. It is pure: no I/O, no clock, no
// randomness, so a round paired twice is paired the same.
//
// Players are named by their index in the slice the caller passes, which is
// the seeding order (index 0 is the top seed, pairing number 1). White is the
// side that moves first (X).
package tournament

import "errors"

// Bye is the Black of a game that is a bye: White scores a win without
// playing.
const Bye = -1

// ErrNoPairing is returned when the remaining players cannot be paired
// without a repeat or a colour difference beyond ±2; the tournament ends
// there.
var ErrNoPairing = errors.New("tournament: no pairing is possible")

// Result is a game's outcome.
type Result uint8

const (
	Pending   Result = iota // not decided yet
	WhiteWins               // also a bye, and a forfeit by Black
	BlackWins
	Draw
	BothLose // neither moved in time: a loss for each
)

// Game is one pairing of a round.
type Game struct {
	White, Black int // Black is Bye for a bye
	Result       Result
}

// IsBye reports whether g is a bye.
func (g Game) IsBye() bool { return g.Black == Bye }

// Points returns p's score from g in half points: 2 for a win or a bye, 1
// for a draw, 0 for a loss.
func (g Game) Points(p int) int {
	switch {
	case g.Result == Draw:
		return 1
	case g.Result == WhiteWins && p == g.White, g.Result == BlackWins && p == g.Black:
		return 2
	}
	return 0
}

// Opponent returns p's opponent in g, Bye for a bye.
func (g Game) Opponent(p int) int {
	if p == g.White {
		return g.Black
	}
	return g.White
}

// Round is a round's games, board 1 first.
type Round []Game

// Player is an entrant as pairing sees them.
type Player struct {
	Rating    float64
	Withdrawn bool // left or removed: paired no more
}

// history is what the rounds played so far say about each player.
type history struct {
	n       int
	points  []int    // half points
	colours [][]int8 // +1 White, −1 Black, per game played in order
	byes    []int
	met     []bool // n×n: met[a*n+b] after a game between a and b
}

func newHistory(n int, played []Round) *history {
	h := &history{n: n, points: make([]int, n), colours: make([][]int8, n), byes: make([]int, n), met: make([]bool, n*n)}
	for _, r := range played {
		for _, g := range r {
			h.points[g.White] += g.Points(g.White)
			if g.IsBye() {
				h.byes[g.White]++
				continue
			}
			h.points[g.Black] += g.Points(g.Black)
			h.colours[g.White] = append(h.colours[g.White], 1)
			h.colours[g.Black] = append(h.colours[g.Black], -1)
			h.met[g.White*n+g.Black] = true
			h.met[g.Black*n+g.White] = true
		}
	}
	return h
}

func (h *history) diff(p int) int {
	d := 0
	for _, c := range h.colours[p] {
		d += int(c)
	}
	return d
}
