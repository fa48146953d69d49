package commands

import (
	"context"
	"fmt"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// edits records the board edits the timers send, Discord's side of the
// Messenger boundary: a board's message ID for channel REST, "token:" and
// the token for an interaction's webhook.
type edits struct {
	mu     sync.Mutex
	msgs   []string
	emojis []*discordgo.Emoji // the guild's custom emojis
}

func (e *edits) EditResponse(_ context.Context, token string, _ *discordgo.InteractionResponseData) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.msgs = append(e.msgs, "token:"+token)
	return nil
}

func (e *edits) EditMessage(_ context.Context, _, messageID string, _ *discordgo.InteractionResponseData) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.msgs = append(e.msgs, messageID)
	return nil
}

func (e *edits) SendMessage(_ context.Context, channelID string, _ *discordgo.InteractionResponseData) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.msgs = append(e.msgs, "send:"+channelID)
	return fmt.Sprint(len(e.msgs)), nil
}

func (e *edits) GuildEmojis(context.Context, string) ([]*discordgo.Emoji, error) {
	return e.emojis, nil
}
