package discord

// The decoder, for the tests in package discord_test.
var (
	DecodeInteraction = decodeInteraction
	DecodeWith        = decodeWith
)
