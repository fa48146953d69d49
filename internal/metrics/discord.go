package metrics

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/interaction"
)

// Interactions returns next with each interaction counted by type and
// outcome and its handling timed. It serves both the gateway and the HTTP
// endpoint.
func (m *Metrics) Interactions(next discord.Handler) discord.Handler {
	return &interactions{next: next, m: m}
}

type interactions struct {
	next discord.Handler
	m    *Metrics
}

func (h *interactions) Handle(ctx context.Context, i *discordgo.Interaction) interaction.Reply {
	start := time.Now()
	r := h.next.Handle(ctx, i)
	typ := interactionType(i.Type)
	h.m.handleSeconds.WithLabelValues(typ).Observe(time.Since(start).Seconds())
	h.m.interactions.WithLabelValues(typ, outcome(r)).Inc()
	return r
}

func (h *interactions) TrackMessage(ctx context.Context, gameID int64, messageID string) {
	h.next.TrackMessage(ctx, gameID, messageID)
}

func (h *interactions) Private(i *discordgo.Interaction) bool { return h.next.Private(i) }

// interactionType names the interaction types Discord documents; anything
// else is "other", so a client cannot grow the label set.
func interactionType(t discordgo.InteractionType) string {
	switch t {
	case discordgo.InteractionPing:
		return "ping"
	case discordgo.InteractionApplicationCommand:
		return "command"
	case discordgo.InteractionMessageComponent:
		return "component"
	case discordgo.InteractionApplicationCommandAutocomplete:
		return "autocomplete"
	case discordgo.InteractionModalSubmit:
		return "modal"
	}
	return "other"
}

// AI is the engine: it picks the bot's moves and analyzes positions for
// reviews.
type AI interface {
	Move(ctx context.Context, p game.Position, level ai.Level, rng *rand.Rand) (ai.Choice, error)
	Analyze(ctx context.Context, p game.Position) (ai.Analysis, error)
}

// AI returns next with each search timed and its nodes counted, by level.
func (m *Metrics) AI(next AI) AI { return &engine{next: next, m: m} }

type engine struct {
	next AI
	m    *Metrics
}

// Analyze is timed and counted under the level "analyze": a review's
// searches, apart from the moves the bot plays.
func (e *engine) Analyze(ctx context.Context, p game.Position) (ai.Analysis, error) {
	start := time.Now()
	a, err := e.next.Analyze(ctx, p)
	if err == nil {
		e.m.aiSeconds.WithLabelValues("analyze").Observe(time.Since(start).Seconds())
		e.m.aiNodes.WithLabelValues("analyze").Observe(float64(a.Nodes))
	}
	return a, err
}

func (e *engine) Move(ctx context.Context, p game.Position, level ai.Level, rng *rand.Rand) (ai.Choice, error) {
	start := time.Now()
	c, err := e.next.Move(ctx, p, level, rng)
	if err == nil {
		e.m.aiSeconds.WithLabelValues(string(level)).Observe(time.Since(start).Seconds())
		e.m.aiNodes.WithLabelValues(string(level)).Observe(float64(c.Nodes))
	}
	return c, err
}

// Transport returns next with every REST request to Discord counted by
// method and status and timed: 4xx and 5xx answers are Discord's errors,
// "error" a request that got no answer.
func (m *Metrics) Transport(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		start := time.Now()
		resp, err := next.RoundTrip(r)
		m.restSeconds.WithLabelValues(r.Method).Observe(time.Since(start).Seconds())
		code := "error"
		if err == nil {
			code = strconv.Itoa(resp.StatusCode)
		}
		m.restRequests.WithLabelValues(r.Method, code).Inc()
		return resp, err
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// RateLimited counts a 429 that discordgo waits out; add it to a session
// with AddHandler.
func (m *Metrics) RateLimited(_ *discordgo.Session, r *discordgo.RateLimit) {
	m.rateLimits.Inc()
	if r.TooManyRequests != nil {
		m.rateLimitWait.Add(r.RetryAfter.Seconds())
	}
}

// InteractionEndpoint returns next, the HTTP interactions endpoint, with its
// requests counted by status code: the refusals (bad signatures, stale
// timestamps, oversized bodies) never reach the interaction handler.
func (m *Metrics) InteractionEndpoint(next http.Handler) http.Handler {
	return promhttp.InstrumentHandlerCounter(m.httpRequests, next)
}

// Deferrals counts the interactions the transport answers past their
// budget (discord.Budget's Counter).
func (m *Metrics) Deferrals() discord.Counter { return deferrals{m} }

type deferrals struct{ m *Metrics }

func (d deferrals) Deferred()  { d.m.deferred.Inc() }
func (d deferrals) Abandoned() { d.m.abandoned.Inc() }

// outcome is "ok", "error" for a failure of the bot's own, or the code of
// a refusal the player caused.
func outcome(r interaction.Reply) string {
	switch r.Code {
	case "":
		return "ok"
	case tttbot.EINTERNAL:
		return "error"
	}
	return r.Code
}
