package discord

import (
	"context"
	"log/slog"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/interaction"
)

// boardEdits sends the board edits that follow interactions, merging those
// of one message: at most one is in flight, and the edits that come in
// meanwhile replace each other, the newest game version winning. A player
// hammering an outdated board then costs one edit more, not one per click,
// and the board ends up showing the game as it is.
type boardEdits struct {
	s *discordgo.Session

	mu sync.Mutex
	// next holds, for each message with an edit queued or in flight, the
	// edit to send next: nil when none waits.
	next map[string]*interaction.Edit
}

func newBoardEdits(s *discordgo.Session) *boardEdits {
	return &boardEdits{s: s, next: map[string]*interaction.Edit{}}
}

// add queues e. It reports whether the caller must flush e's message:
// false when an edit of the message is queued or in flight already, whose
// flush sends e, or a newer one, next. Adapters add before answering the
// interaction and flush after, so that the edits of interactions answered
// together merge.
func (b *boardEdits) add(e *interaction.Edit) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	cur, busy := b.next[e.Key()]
	if cur == nil || e.Version >= cur.Version {
		b.next[e.Key()] = e
	}
	return !busy
}

// flush sends the edit queued for a message, keyed by Edit.Key, then any
// that came in meanwhile, until none waits. Edits with a token go through
// the webhook of application appID.
func (b *boardEdits) flush(ctx context.Context, key, appID string, log *slog.Logger) {
	m := Messenger{S: b.s, AppID: appID}
	for {
		b.mu.Lock()
		e := b.next[key]
		if e == nil {
			delete(b.next, key)
			b.mu.Unlock()
			return
		}
		b.next[key] = nil
		b.mu.Unlock()
		var err error
		if e.Token != "" {
			err = m.EditResponse(ctx, e.Token, e.Data)
		} else {
			err = m.EditMessage(ctx, e.ChannelID, e.MessageID, e.Data)
		}
		if err != nil {
			log.Error("edit board", "game", e.GameID, "err", err)
		}
	}
}
