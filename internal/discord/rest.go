package discord

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/bwmarrin/discordgo"
)

// Messenger edits and posts channel messages through REST with the bot
// token. It implements commands.Messenger.
type Messenger struct{ S *discordgo.Session }

// EditMessage replaces a message's content and components.
func (m Messenger) EditMessage(ctx context.Context, channelID, messageID string, data *discordgo.InteractionResponseData) error {
	_, err := m.S.ChannelMessageEditComplex(&discordgo.MessageEdit{
		ID: messageID, Channel: channelID,
		Content: &data.Content, Components: &data.Components, AllowedMentions: data.AllowedMentions,
	}, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("edit message: %w", requested(err))
	}
	return nil
}

// SendMessage posts a message to a channel.
func (m Messenger) SendMessage(ctx context.Context, channelID string, data *discordgo.InteractionResponseData) error {
	_, err := m.S.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
		Content: data.Content, Components: data.Components, AllowedMentions: data.AllowedMentions,
	}, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("send message: %w", requested(err))
	}
	return nil
}

// Register overwrites the application's commands: globally when guildIDs is
// empty (Discord may take a while to show them), else in each guild (at once).
// It tries each call once: run it under Backoff.Retry.
func Register(ctx context.Context, s *discordgo.Session, appID string, guildIDs []string, cmds []*discordgo.ApplicationCommand, log *slog.Logger) error {
	if len(guildIDs) == 0 {
		guildIDs = []string{""}
	}
	for _, g := range guildIDs {
		got, err := s.ApplicationCommandBulkOverwrite(appID, g, cmds, once(ctx)...)
		if err != nil {
			return fmt.Errorf("register commands in guild %q: %w", g, requested(err))
		}
		scope := "global"
		if g != "" {
			scope = "guild " + g
		}
		log.Info("commands registered", "scope", scope, "count", len(got))
	}
	return nil
}

// GuildEmojis lists a guild's custom emojis.
func (m Messenger) GuildEmojis(ctx context.Context, guildID string) ([]*discordgo.Emoji, error) {
	emojis, err := m.S.GuildEmojis(guildID, discordgo.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("list guild emojis: %w", requested(err))
	}
	return emojis, nil
}
