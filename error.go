package tttbot

import (
	"errors"
	"fmt"
)

// Error codes tell a caller what went wrong without parsing text. The Discord
// layer maps each to an ephemeral reply.
const (
	ENOTFOUND    = "not_found" // no such game
	ECONFLICT    = "conflict"  // a game already runs in the channel, or the player is in one
	EINVALID     = "invalid"   // bad input: a bad option, an illegal move
	ESTALE       = "stale"     // the click was made on an outdated board
	ENOTYOURS    = "not_yours" // the clicker is not a player of this game, or not the one asked
	ENOTYOURTURN = "not_your_turn"
	EFINISHED    = "finished" // the game or challenge is over
	EINTERNAL    = "internal"
)

// Error is an error a player or caller can act on. Message is written for the
// player and is safe to show in Discord.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for
// any other error and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the player-facing message of err; internal errors get a
// generic text so that no detail (or secret) leaks to Discord.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	}
	return "Something went wrong on our side. Please try again."
}
