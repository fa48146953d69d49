// Package discord connects the bot to Discord: a gateway session that
// receives interactions, REST calls for timers and command registration, and
// the transport that points discordgo at any API base URL.
package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/commands"
)

// Handler answers interactions; *commands.Handler is one.
type Handler interface {
	Handle(ctx context.Context, i *discordgo.Interaction) commands.Reply
	TrackMessage(ctx context.Context, gameID int64, messageID string)
}

// handlerTimeout bounds one interaction: Discord waits 3 s for the first
// answer, and follow-up calls get the rest.
const handlerTimeout = 15 * time.Second

// NewSession returns a discordgo session for token whose REST and gateway
// traffic goes to apiURL (Discord's own, a REST proxy, or a test server).
func NewSession(token, apiURL string) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, fmt.Errorf("new session: %w", err)
	}
	// Timers and follow-ups send REST calls from many goroutines at once;
	// with the default two idle connections per host most would dial (and
	// on Discord, shake hands) anew.
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxIdleConnsPerHost = 64
	tr, err := NewTransport(apiURL, base)
	if err != nil {
		return nil, err
	}
	s.Client = &http.Client{Transport: tr, Timeout: 20 * time.Second}
	// Interactions need no gateway intents: they come to every bot.
	s.Identify.Intents = discordgo.IntentsNone
	s.StateEnabled = false
	// discordgo's warnings are reconnects and unexpected payloads, worth
	// a line each; its informational level narrates every call.
	s.LogLevel = discordgo.LogWarning
	return s, nil
}

// Gateway receives interactions over a gateway session and answers them
// with REST callbacks.
type Gateway struct {
	s   *discordgo.Session
	log *slog.Logger

	edits *boardEdits

	mu      sync.Mutex
	handler Handler
	ready   chan struct{} // closed once Serve has a handler
	closed  bool
	wg      sync.WaitGroup // in-flight interactions
}

// NewGateway wraps a session; Open connects it.
func NewGateway(s *discordgo.Session, log *slog.Logger) *Gateway {
	g := &Gateway{s: s, log: log, edits: newBoardEdits(s), ready: make(chan struct{})}
	s.AddHandler(g.onInteraction)
	return g
}

// Open connects to the gateway and returns the bot's user once READY. It
// tries once: run it under Backoff.Retry. It returns as soon as ctx ends.
func (g *Gateway) Open(ctx context.Context) (*discordgo.User, string, error) {
	var appID string
	ready := make(chan *discordgo.Ready, 1)
	remove := g.s.AddHandlerOnce(func(_ *discordgo.Session, r *discordgo.Ready) { ready <- r })
	defer remove()
	// discordgo's Open takes no context, and holds the session's lock
	// while it fetches the gateway's URL (up to the client's timeout) and
	// shakes hands (up to the dialer's), so Close would wait too: Open
	// runs aside, and when ctx ends first the session it may yet open is
	// closed.
	opened := make(chan error, 1)
	go func() { opened <- g.s.Open() }()
	select {
	case err := <-opened:
		if err != nil {
			return nil, "", fmt.Errorf("open gateway: %w", requested(err))
		}
	case <-ctx.Done():
		go func() {
			if <-opened == nil {
				g.s.Close()
			}
		}()
		return nil, "", ctx.Err()
	}
	select {
	case r := <-ready:
		if r.Application != nil {
			appID = r.Application.ID
		}
		g.log.Info("gateway connected", "user", r.User.Username, "user_id", r.User.ID)
		return r.User, appID, nil
	case <-ctx.Done():
		g.s.Close()
		return nil, "", ctx.Err()
	}
}

// Serve starts answering interactions with h. Interactions that arrived
// before waited for it.
func (g *Gateway) Serve(h Handler) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.handler = h
	close(g.ready)
}

// HeartbeatStale is the age past which the last heartbeat acknowledgement
// means the gateway is down though the session thinks it is up: two of
// Discord's 41.25 s heartbeat intervals and some slack, so two heartbeats
// went unanswered. discordgo itself reconnects only after five.
const HeartbeatStale = 2*41250*time.Millisecond + 10*time.Second

// Health reports, at the time now, whether the gateway session is
// connected and Discord acknowledges its heartbeats, with the age of the
// last acknowledgement.
func (g *Gateway) Health(now time.Time) (string, error) {
	// discordgo writes these fields under the session's lock.
	g.s.RLock()
	ready, ack := g.s.DataReady, g.s.LastHeartbeatAck
	g.s.RUnlock()
	age := now.Sub(ack)
	rounded := age.Round(time.Second)
	switch {
	case !ready:
		return "", fmt.Errorf("not connected (last heartbeat acknowledged %s ago)", rounded)
	case age > HeartbeatStale:
		return "", fmt.Errorf("no heartbeat acknowledged for %s", rounded)
	}
	return fmt.Sprintf("heartbeat %s ago", rounded), nil
}

// Close stops taking interactions, waits for those in flight (or ctx), and
// closes the gateway.
func (g *Gateway) Close(ctx context.Context) error {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	done := make(chan struct{})
	go func() { g.wg.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("wait for interactions: %w", ctx.Err())
	}
	return errors.Join(err, g.s.Close())
}

func (g *Gateway) onInteraction(s *discordgo.Session, ic *discordgo.InteractionCreate) {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return
	}
	g.wg.Add(1)
	g.mu.Unlock()
	defer g.wg.Done()

	ctx, cancel := context.WithTimeout(context.Background(), handlerTimeout)
	defer cancel()
	select {
	case <-g.ready:
	case <-ctx.Done(): // the bot never got to serving: it failed at start-up
		return
	}
	answer(ctx, s, g.edits, g.handler, ic.Interaction, g.log)
}

// answer runs h on an interaction and sends its reply through REST: the
// callback, then the edit of a board (merged with others of the board by
// edits), then the board message's ID for the timers, then any follow-up.
func answer(ctx context.Context, s *discordgo.Session, edits *boardEdits, h Handler, i *discordgo.Interaction, log *slog.Logger) {
	start := time.Now()
	r := h.Handle(ctx, i)
	log = log.With("interaction", i.ID, "guild", i.GuildID, "channel", i.ChannelID)
	if r.Code == tttbot.EREPLAY {
		// Delivered again (a resumed session, say): the first delivery
		// was answered, and Discord refuses a second callback.
		log.Debug("interaction replayed")
		return
	}
	// Queued before the answer, so that the edits of the board's clicks
	// answered meanwhile merge into it.
	flush := r.Edit != nil && edits.add(r.Edit)
	err := respond(ctx, s, i, r.Response)
	elapsed := time.Since(start)
	if flush { // even when the answer was lost
		edits.flush(ctx, r.Edit.MessageID, log)
	}
	if err != nil {
		log.Error("interaction callback", "err", redact(err, i.Token))
		return
	}
	log.Debug("interaction answered", "type", i.Type, "elapsed", elapsed)
	// The callback has returned, so the message exists: no retries needed.
	afterResponse(ctx, s, h, i, r, log, func(_ context.Context, f func() error) error { return f() })
}

// afterResponse does the REST work that follows an interaction's response:
// the board message's ID for the timers, then any follow-up message. Each
// call goes through try, which may retry it.
func afterResponse(ctx context.Context, s *discordgo.Session, h Handler, i *discordgo.Interaction, r commands.Reply, log *slog.Logger, try func(context.Context, func() error) error) {
	if r.TrackGame != 0 {
		var id string
		err := try(ctx, func() (err error) {
			id, err = responseID(ctx, s, i)
			return err
		})
		if err != nil {
			log.Error("fetch board message", "game", r.TrackGame, "err", redact(err, i.Token))
		} else {
			h.TrackMessage(ctx, r.TrackGame, id)
		}
	}
	if f := r.Followup; f != nil {
		err := try(ctx, func() error { return followup(ctx, s, i, f) })
		if err != nil {
			log.Error("follow-up message", "err", redact(err, i.Token))
		}
	}
}
