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
	EFINISHED    = "finished"  // the game or challenge is over
	EREPLAY      = "replay"    // the interaction was handled before: a request sent again
	EFORBIDDEN   = "forbidden" // a guild's rules refuse it: a channel, a role, a cooldown
	EINTERNAL    = "internal"
)

// Error is an error a player or caller can act on. Its Message says what
// happened and is safe to show: internal/commands words the refusals below
// for players itself, and shows the Message of the errors it makes.
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

// The refusals of a game's rules, each with the code a caller acts on. A
// message says what happened, for logs; internal/commands words each
// refusal for players.
var (
	ErrNotFound      = &Error{Code: ENOTFOUND, Message: "no such game"}
	ErrBadShape      = &Error{Code: EINVALID, Message: "no board has this shape"}
	ErrSelfChallenge = &Error{Code: EINVALID, Message: "a player cannot challenge themselves"}
	ErrPlayerBusy    = &Error{Code: ECONFLICT, Message: "the player has a game in the channel already"}
	ErrOpponentBusy  = &Error{Code: ECONFLICT, Message: "the opponent has a game in the channel already"}
	ErrChannelBusy   = &Error{Code: ECONFLICT, Message: "the channel has a game already"}
	ErrNotForYou     = &Error{Code: ENOTYOURS, Message: "the challenge is not for this user"}
	ErrClosed        = &Error{Code: EFINISHED, Message: "the challenge is closed"}
	ErrExpired       = &Error{Code: EFINISHED, Message: "the challenge has expired"}
	ErrBadX          = &Error{Code: EINVALID, Message: "X is not one of the players"}
	ErrStale         = &Error{Code: ESTALE, Message: "the game has moved on from this version"}
	ErrNotAPlayer    = &Error{Code: ENOTYOURS, Message: "not a player of the game"}
	ErrNotStarted    = &Error{Code: EINVALID, Message: "the game has not started"}
	ErrNotYourTurn   = &Error{Code: ENOTYOURTURN, Message: "not the player's turn"}
	ErrGameOver      = &Error{Code: EFINISHED, Message: "the game is over"}
	ErrOffBoard      = &Error{Code: EINVALID, Message: "the cell is not on the board"}
	ErrCellTaken     = &Error{Code: EINVALID, Message: "the cell is taken"}
	ErrNotDue        = &Error{Code: EINVALID, Message: "the deadline has not passed"}
	ErrTimeUp        = &Error{Code: EFINISHED, Message: "the move was made after the turn's deadline"}
)
