package discord

import (
	"context"
	"log/slog"
	"sync"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/commands"
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
	next map[string]*commands.Edit
}

func newBoardEdits(s *discordgo.Session) *boardEdits {
	return &boardEdits{s: s, next: map[string]*commands.Edit{}}
}

// add queues e. It reports whether the caller must flush e's message:
// false when an edit of the message is queued or in flight already, whose
// flush sends e, or a newer one, next. Adapters add before answering the
// interaction and flush after, so that the edits of interactions answered
// together merge.
func (b *boardEdits) add(e *commands.Edit) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	cur, busy := b.next[e.MessageID]
	if cur == nil || e.Version >= cur.Version {
		b.next[e.MessageID] = e
	}
	return !busy
}

// flush sends the edit queued for a message, then any that came in
// meanwhile, until none waits.
func (b *boardEdits) flush(ctx context.Context, messageID string, log *slog.Logger) {
	for {
		b.mu.Lock()
		e := b.next[messageID]
		if e == nil {
			delete(b.next, messageID)
			b.mu.Unlock()
			return
		}
		b.next[messageID] = nil
		b.mu.Unlock()
		if err := (Messenger{b.s}).EditMessage(ctx, e.ChannelID, e.MessageID, e.Data); err != nil {
			log.Error("edit board", "game", e.GameID, "err", err)
		}
	}
}
