package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// Messenger edits and posts messages through REST: channel messages with
// the bot token, and interactions' messages through the webhook of
// application AppID with their tokens. It is the Messenger of internal/commands.
type Messenger struct {
	S     *discordgo.Session
	AppID string
}

// EditMessage replaces a message's content, components and files.
func (m Messenger) EditMessage(ctx context.Context, channelID, messageID string, data *discordgo.InteractionResponseData) error {
	ct, body, err := messageBody(data, true)
	if err == nil {
		_, err = m.S.RequestRaw(http.MethodPatch, discordgo.EndpointChannelMessage(channelID, messageID), ct, body,
			discordgo.EndpointChannelMessage(channelID, ""), 0, discordgo.WithContext(ctx))
	}
	if err != nil {
		return fmt.Errorf("edit message: %w", requested(err))
	}
	return nil
}

// SendMessage posts a message, with its files, to a channel, and returns
// its ID.
func (m Messenger) SendMessage(ctx context.Context, channelID string, data *discordgo.InteractionResponseData) (string, error) {
	ct, body, err := messageBody(data, false)
	var resp []byte
	if err == nil {
		resp, err = m.S.RequestRaw(http.MethodPost, discordgo.EndpointChannelMessages(channelID), ct, body,
			discordgo.EndpointChannelMessages(channelID), 0, discordgo.WithContext(ctx))
	}
	if err != nil {
		return "", fmt.Errorf("send message: %w", requested(err))
	}
	var sent struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(resp, &sent); err != nil {
		return "", fmt.Errorf("send message: read the message posted: %w", err)
	}
	return sent.ID, nil
}

// EditResponse replaces the content, components and files of the message
// that answered the interaction whose token is given.
func (m Messenger) EditResponse(ctx context.Context, token string, data *discordgo.InteractionResponseData) error {
	c, err := editCall(m.AppID, token, data)
	if err == nil {
		_, err = callInteraction(ctx, m.S, c)
	}
	if err != nil {
		return fmt.Errorf("edit response: %w", redacted{err, token})
	}
	return nil
}

// Followup posts a message, with its files, after the answer of the
// interaction whose token is given.
func (m Messenger) Followup(ctx context.Context, token string, data *discordgo.InteractionResponseData) error {
	c, err := followupCall(m.AppID, token, data, false)
	if err == nil {
		_, err = callInteraction(ctx, m.S, c)
	}
	if err != nil {
		return fmt.Errorf("follow-up message: %w", redacted{err, token})
	}
	return nil
}

// redacted is err with token cut from its text, which quotes the webhook's
// URL; it unwraps to err for callers that look for a *discordgo.RESTError.
type redacted struct {
	err   error
	token string
}

func (r redacted) Error() string { return redact(r.err, r.token) }
func (r redacted) Unwrap() error { return r.err }

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
