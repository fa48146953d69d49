package tttbot

import (
	"context"
	"sync/atomic"
	"time"
)

// ErrReplay refuses an interaction handled before.
var ErrReplay = &Error{Code: EREPLAY, Message: "the interaction was handled before"}

// Interaction is the Discord interaction a store call serves. A signed
// request sent again verifies as the original did, so the store records the
// interaction's ID in the first transaction that changes something on its
// behalf and refuses (EREPLAY) an interaction it has recorded before. It
// travels in the context, not as a parameter, because one interaction may
// run several transactions (a move whose answer was not chosen with it,
// then the bot's answer) and only the first records it: the ID
// must reach the store's single write path whatever method runs it.
type Interaction struct {
	ID string
	// At is when the player made the interaction, by Discord's clock: a
	// move or an answer to a challenge counts from it, not from when the
	// database let the bot write it. Zero when unknown: the bot's clock
	// stands in.
	At time.Time
	// Click is what a click on a board tells of it, which the click's
	// move or accept records (see MoveRequest.Click); zero for a command.
	Click    BoardClick
	recorded atomic.Bool
}

// ErrTooOld refuses an interaction made TokenLife ago or earlier: Discord
// takes no answer to it any more, and its time is no longer believed.
var ErrTooOld = &Error{Code: EINVALID, Message: "the interaction is too old"}

// NewInteraction is the interaction of ID id, received at time now, made
// when its snowflake says (see IDTime), or at now when that is earlier:
// the clocks of Discord and of the bot differ a little, and no move counts
// from a time the bot has not reached. ErrBadID when id is no snowflake,
// ErrTooOld when it was made TokenLife before now or earlier.
func NewInteraction(id string, now time.Time) (*Interaction, error) {
	at, err := IDTime(id)
	switch {
	case err != nil:
		return nil, err
	case !now.Before(at.Add(TokenLife)):
		return nil, ErrTooOld
	}
	if at.After(now) {
		at = now
	}
	return &Interaction{ID: id, At: at}, nil
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
	// Remember records ctx's interaction, when no transaction has yet, in a
	// transaction of its own: for an interaction that changes nothing but
	// is followed by REST calls (a stale board's refresh). EREPLAY when it
	// was recorded before.
	Remember(ctx context.Context) error

	// PruneInteractions deletes interactions seen before before, too old
	// to be replayed, at most limit, oldest first, and reports how many it
	// deleted; fewer than limit when it found no more among the oldest.
	PruneInteractions(ctx context.Context, before time.Time, limit int) (int, error)
}
