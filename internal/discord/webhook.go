package discord

import (
	"context"
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
func callInteraction(ctx context.Context, s *discordgo.Session, c call) ([]byte, error) {
	b := discordgo.NewRatelimiter().LockBucket(c.url)
	resp, err := s.RequestWithLockedBucket(c.method, c.url, c.contentType, c.body, b, 0, discordgo.WithContext(ctx))
	return resp, requested(err)
}

// call is a REST call encoded, once: a retry sends the same bytes, as
// the files of a message can be read only once.
type call struct {
	method, url, contentType string
	body                     []byte
}

// respond sends an interaction's answer as its callback.
func respond(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, r *discordgo.InteractionResponse) error {
	if r == nil {
		return errors.New("no response")
	}
	ct, body, err := responseBody(r)
	if err != nil {
		return fmt.Errorf("encode response: %w", err)
	}
	_, err = callInteraction(ctx, s, call{http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), ct, body})
	return err
}

// followupCall posts a message after the answer of the interaction of
// application appID whose token is given. With wait, Discord returns the
// message, which it otherwise does not.
func followupCall(appID, token string, f *discordgo.InteractionResponseData, wait bool) (call, error) {
	ct, body, err := messageBody(f, false)
	if err != nil {
		return call{}, fmt.Errorf("encode follow-up: %w", err)
	}
	url := discordgo.EndpointWebhookToken(appID, token)
	if wait {
		url += "?wait=true"
	}
	return call{http.MethodPost, url, ct, body}, nil
}

// editCall replaces the content, components and files of the message that
// answered the interaction whose token is given; Discord returns the
// message.
func editCall(appID, token string, data *discordgo.InteractionResponseData) (call, error) {
	ct, body, err := messageBody(data, true)
	if err != nil {
		return call{}, fmt.Errorf("encode edit: %w", err)
	}
	return call{http.MethodPatch, discordgo.EndpointWebhookMessage(appID, token, "@original"), ct, body}, nil
}

// responseID returns the ID of the message that answered i. It is what
// s.InteractionResponse does, but decodes the ID alone (see messageID).
func responseID(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction) (string, error) {
	body, err := callInteraction(ctx, s, call{method: http.MethodGet, url: discordgo.EndpointWebhookMessage(i.AppID, i.Token, "@original")})
	if err != nil {
		return "", err
	}
	return messageID(body)
}
