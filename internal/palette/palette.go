// Package palette holds the colours the bot shows the sides of a game in,
// for its messages (a board's accent) and its pictures alike.
//
// Each reads on Discord's dark theme and its light one: its contrast
// against both backgrounds is 3:1 or more. X and O, and either and the
// neutral grey, stay apart for red-green colour blindness: blue against
// vermillion (from Okabe and Ito's palette), which protanopia and
// deuteranopia keep apart as they keep blue from yellow. palette_test.go
// checks both by simulation.
package palette

import "image/color"

// The colours, as 0xRRGGBB.
const (
	X       = 0x1E88E5 // blue: the X side
	O       = 0xD55E00 // vermillion: the O side
	Neutral = 0x7F8C8D // grey: no side — a game over without a winner, a challenge
)

// Discord's message backgrounds, to hold the colours against.
const (
	DarkBackground  = 0x313338
	LightBackground = 0xFFFFFF
)

// RGBA is c, a colour as 0xRRGGBB, opaque.
func RGBA(c int) color.RGBA {
	return color.RGBA{R: uint8(c >> 16), G: uint8(c >> 8), B: uint8(c), A: 0xFF}
}
