// Package tttbot holds the domain types of the bot — games, moves, players,
// the errors a player can cause — and the interfaces that storage and Discord
// implement. It imports nothing of the project but the rules in internal/game.
package tttbot

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
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
	EREPLAY      = "replay"   // the interaction was handled before: a request sent again
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

// ErrReplay refuses an interaction handled before.
var ErrReplay = &Error{Code: EREPLAY, Message: "I've handled this interaction already."}

// Interaction is the Discord interaction a store call serves. A signed
// request sent again verifies as the original did, so the store records the
// interaction's ID in the first transaction that changes something on its
// behalf and refuses (EREPLAY) an interaction it has recorded before. It
// travels in the context, not as a parameter, because one interaction may
// run several transactions (a challenge against the bot creates the game,
// then plays the bot's first move) and only the first records it: the ID
// must reach the store's single write path whatever method runs it.
type Interaction struct {
	ID       string
	recorded atomic.Bool
}

// Recorded reports whether a committed transaction holds the interaction's ID.
func (in *Interaction) Recorded() bool { return in.recorded.Load() }

// SetRecorded is for stores: a transaction that recorded the ID committed.
func (in *Interaction) SetRecorded() { in.recorded.Store(true) }

type interactionKey struct{}

// WithInteraction returns ctx carrying in.
func WithInteraction(ctx context.Context, in *Interaction) context.Context {
	return context.WithValue(ctx, interactionKey{}, in)
}

// InteractionFrom returns the interaction ctx carries, or nil.
func InteractionFrom(ctx context.Context) *Interaction {
	in, _ := ctx.Value(interactionKey{}).(*Interaction)
	return in
}

// InteractionStore remembers the interactions that changed something, so
// that a replay of one changes nothing. Every write transaction of the
// store records the Interaction its context carries, unless one has
// already, and returns EREPLAY, changing nothing, when the ID is recorded.
type InteractionStore interface {
	// Seen reports whether interaction id is recorded: a cheap check that
	// refuses a replay before any work.
	Seen(ctx context.Context, id string) (bool, error)

	// Remember records ctx's interaction, when no transaction has yet, in a
	// transaction of its own: for an interaction that changes nothing but
	// is followed by REST calls (a stale board's refresh). EREPLAY when it
	// was recorded before.
	Remember(ctx context.Context) error

	// Forget deletes interactions seen before before, at most limit,
	// oldest first, and reports how many it deleted; fewer than limit
	// when it found no more among the oldest.
	Forget(ctx context.Context, before time.Time, limit int) (int, error)
}
