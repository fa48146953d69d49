package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Backoff retries the calls that start a bot — who it is, the gateway,
// registering its commands — while they fail in ways that may pass: a 5xx,
// a 429 (after the wait it names), a network error. Other waits grow
// exponentially up to Max, jittered so that many bots restarted together
// do not call again in step. Zero values get the defaults.
type Backoff struct {
	Min time.Duration // the first wait; default 1s
	Max time.Duration // the longest; default 1 min
	// Sleep waits d, or until ctx ends; default a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a number in [0, 1) that jitters each wait; default
	// math/rand/v2.Float64.
	Rand func() float64
}

// AuthError is Discord refusing the bot: a 401 (the token is wrong or
// revoked; the gateway's close 4004 counts as one) or a 403 (the token may
// not make the call: in a guild, one the bot was not invited to with the
// applications.commands scope; elsewhere, a token that is not the bot's
// own, or another application's). Retrying cannot help.
type AuthError struct {
	Status int
	Call   string // the call refused, as Retry names it
	Guild  string // the guild the call addressed; "" for none
	Err    error
}

func (e *AuthError) Error() string {
	switch {
	case e.Status == http.StatusUnauthorized:
		return fmt.Sprintf("discord refused the bot token: set DISCORD_TOKEN to a current one (Developer Portal → your application → Bot → Reset Token): %v", e.Err)
	case e.Guild != "":
		return fmt.Sprintf("discord denied the bot access to guild %s: invite it to each guild of discord.guild_ids with the bot and applications.commands scopes: %v", e.Guild, e.Err)
	}
	return fmt.Sprintf("discord denied the token the call %q, which needs a bot's token: set DISCORD_TOKEN to the token of your application's bot (Developer Portal → your application → Bot), not a client secret or a user's token, and discord.application_id, if set, to that application's ID: %v", e.Call, e.Err)
}

// guildOf is the guild whose route a failed REST call addressed, "" for
// none.
func guildOf(err error) string {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Request == nil {
		return ""
	}
	_, rest, ok := strings.Cut(re.Request.URL.Path, "/guilds/")
	if !ok {
		return ""
	}
	guild, _, _ := strings.Cut(rest, "/")
	return guild
}

func (e *AuthError) Unwrap() error { return e.Err }

// Retry calls f until it succeeds, fails for good, or ctx ends, logging
// each failure it retries. A 401 or 403 comes back as *AuthError, another
// 4xx as it is.
func (b Backoff) Retry(ctx context.Context, log *slog.Logger, what string, f func(context.Context) error) error {
	if b.Min <= 0 {
		b.Min = time.Second
	}
	if b.Max <= 0 {
		b.Max = time.Minute
	}
	if b.Sleep == nil {
		b.Sleep = sleep
	}
	if b.Rand == nil {
		b.Rand = rand.Float64
	}
	next := b.Min
	for attempt := 1; ; attempt++ {
		err := f(ctx)
		if err == nil || ctx.Err() != nil {
			return err
		}
		after, ok, refused := retryable(err)
		if refused != 0 {
			return &AuthError{Status: refused, Call: what, Guild: guildOf(err), Err: err}
		}
		if !ok {
			return err
		}
		wait := after
		if wait <= 0 {
			// Half the step, plus up to as much again at random: the wait
			// still grows, never in step with another bot's.
			wait = next/2 + time.Duration(b.Rand()*float64(next/2))
			next = min(2*next, b.Max)
		}
		log.Warn("discord call failed, retrying", "call", what, "attempt", attempt, "wait", wait, "err", err)
		if err := b.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// The gateway's close codes after which Discord says not to reconnect
// (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
const (
	closeAuthenticationFailed = 4004
	closeInvalidShard         = 4010
	closeDisallowedIntents    = 4014 // the last of 4010–4014
)

// retryable reports whether a failed call may pass later, the wait a 429
// asked for (0 for none), and the HTTP status of Discord refusing the bot
// (0 if it did not). Only a 4xx, or the gateway's equivalent close codes,
// is Discord's final word: on a 5xx, a network error, a dropped websocket
// or a garbled answer (a proxy's page in place of a 429's JSON) the call
// may pass later.
func retryable(err error) (after time.Duration, ok bool, refused int) {
	var rl *discordgo.RateLimitError
	if errors.As(err, &rl) {
		return rl.RetryAfter, true, 0
	}
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		switch code := re.Response.StatusCode; code {
		case http.StatusUnauthorized, http.StatusForbidden:
			return 0, false, code
		default:
			return 0, code >= http.StatusInternalServerError, 0
		}
	}
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		switch {
		case ce.Code == closeAuthenticationFailed:
			return 0, false, http.StatusUnauthorized
		case ce.Code >= closeInvalidShard && ce.Code <= closeDisallowedIntents:
			return 0, false, 0
		}
	}
	return 0, true, 0
}

// once are the options of a start-up call: Backoff.Retry alone retries it,
// and waits out a 429 only while ctx lasts, where discordgo would retry
// 502s at once and sleep through 429s whatever the context.
func once(ctx context.Context) []discordgo.RequestOption {
	return []discordgo.RequestOption{
		discordgo.WithContext(ctx), discordgo.WithRetryOnRatelimit(false), discordgo.WithRestRetries(0),
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
