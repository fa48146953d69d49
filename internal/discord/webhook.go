package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"
)

// callInteraction sends a REST call on an interaction's token (its
// callback, its response message, a follow-up) with a rate-limit bucket of
// its own. Discord limits these per token, apart from the bot's global
// limit. discordgo would file a bucket per token in a map it never empties,
// one entry leaked per interaction, or for @original share one bucket among
// all tokens, whose lock it holds through each request: one call at a time
// for the whole bot. A bucket of its own still waits out a 429's
// Retry-After.
func callInteraction(ctx context.Context, s *discordgo.Session, method, url string, body []byte) ([]byte, error) {
	b := discordgo.NewRatelimiter().LockBucket(url)
	resp, err := s.RequestWithLockedBucket(method, url, "application/json", body, b, 0, discordgo.WithContext(ctx))
	return resp, requested(err)
}

// respond sends an interaction's answer as its callback.
func respond(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	if r == nil {
		return errors.New("no response")
	}
	body, err := encodeResponse(r)
	if err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	_, err = callInteraction(ctx, s, http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), body)
	return err
}

// followup posts a message after the answer of the interaction of
// application appID whose token is given. With wait, Discord returns the
// message, which it otherwise does not.
func followup(ctx context.Context, s *discordgo.Session, appID, token string, f *discordgo.InteractionResponseData, wait bool) ([]byte, error) {
	body, err := json.Marshal(&discordgo.WebhookParams{
		Content: f.Content, Components: f.Components, AllowedMentions: f.AllowedMentions, Flags: f.Flags,
	})
	if err != nil {
		return nil, fmt.Errorf("encode follow-up: %w", err)
	}
	url := discordgo.EndpointWebhookToken(appID, token)
	if wait {
		url += "?wait=true"
	}
	return callInteraction(ctx, s, http.MethodPost, url, body)
}

// responseID returns the ID of the message that answered i. It is what
// s.InteractionResponse does, but decodes the ID alone (see messageID).
func responseID(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction) (string, error) {
	body, err := callInteraction(ctx, s, http.MethodGet, discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original"), nil)
	if err != nil {
		return "", err
	}
	return messageID(body)
}
