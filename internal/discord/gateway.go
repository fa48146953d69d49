// Package discord connects the bot to Discord: the gateway sessions of its
// shards, which receive interactions, the signed HTTP endpoint, REST calls
// for timers and command registration, and the transport that points
// discordgo at any API base URL.
package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/interaction"
)

// Handler answers interactions and hears of the board messages their
// replies create (interaction.Reply.TrackGame); cmd/bot hands the gateway
// and the HTTP endpoint internal/commands' handler.
type Handler interface {
	Handle(ctx context.Context, i *discordgo.Interaction) interaction.Reply
	TrackMessage(ctx context.Context, gameID int64, messageID string)
	// Private reports, before Handle, whether the answer to command i is
	// seen by its user alone unless refused: a deferral (see Budget) must
	// be as private as the answer that fills it.
	Private(i *discordgo.Interaction) bool
}

// handlerTimeout bounds the wait of an interaction that arrives while the
// bot starts, and the REST calls that follow an answer.
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

// GatewayOptions configure a Gateway; zero values pick the defaults.
type GatewayOptions struct {
	// ShardCount is how many shards the bot has in all; 0 takes Discord's
	// recommendation from GET /gateway/bot.
	ShardCount int
	// ShardIDs are the shards this process runs, each below the count;
	// nil runs them all.
	ShardIDs []int
	// IdentifyInterval is how often each rate-limit bucket may identify;
	// default IdentifyInterval, Discord's. Tests against a local Discord
	// scale it down.
	IdentifyInterval time.Duration
	// LockBucket, when set, shares the identify pacing with the other
	// processes that run the bot's shards; nil paces this process alone.
	LockBucket BucketLock
	// Backoff retries the start-up call and each shard's connections.
	Backoff Backoff
	// Budget bounds the time to an interaction's first answer.
	Budget Budget
	Logger *slog.Logger // default: discard
}

// Gateway receives interactions over the gateway sessions of this
// process's shards and answers them through REST. Each shard connects,
// reconnects and resumes on its own, paced by Discord's identify limits,
// so that one shard's trouble leaves the others answering; every shard
// feeds the same handler.
type Gateway struct {
	rest *discordgo.Session // REST calls and the answers, shared by the shards
	o    GatewayOptions
	log  *slog.Logger

	edits *boardEdits

	// base is the context of everything the gateway runs: the
	// interactions and the shards' loops. Close cancels it.
	base       context.Context
	cancel     context.CancelFunc
	goroutines goroutines // every one the gateway starts, awaited by Close

	mu      sync.Mutex
	handler Handler
	ready   chan struct{} // closed once Serve has a handler
	closed  bool
	wg      sync.WaitGroup // in-flight interactions

	// Set by Open.
	count  int
	shards []*shard
	pacer  *pacer
	stop   context.CancelFunc // ends the shards' connection loops
	first  chan readyEvent    // the first READY of any shard
	failed chan struct{}      // closed on a shard's final error
	err    error              // that error, set before failed closes
	fail   sync.Once
}

type readyEvent struct {
	user  *discordgo.User
	appID string
}

// NewGateway returns a gateway whose shards answer through rest, the
// session that makes the bot's REST calls; Open connects it.
func NewGateway(rest *discordgo.Session, o GatewayOptions) *Gateway {
	if o.IdentifyInterval <= 0 {
		o.IdentifyInterval = IdentifyInterval
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	base, cancel := context.WithCancel(context.Background())
	return &Gateway{
		rest: rest, o: o, log: o.Logger, edits: newBoardEdits(rest), base: base, cancel: cancel,
		ready: make(chan struct{}), first: make(chan readyEvent, 1), failed: make(chan struct{}),
	}
}

// Open asks Discord for the shard count (unless set) and the session start
// limit, starts connecting every shard of this process, and returns the
// bot's user and application ID from the first READY. The other shards go
// on connecting, each retried under the Backoff; WaitConnected waits for
// them. Open returns a final error (a refused token, a shard out of range)
// as soon as a shard meets one, and returns when ctx ends; either way it
// stops the shards it started, and their goroutines have ended.
func (g *Gateway) Open(ctx context.Context) (*discordgo.User, string, error) {
	var gb *discordgo.GatewayBotResponse
	err := g.o.Backoff.Retry(ctx, g.log, "get gateway", func(ctx context.Context) (err error) {
		gb, err = g.rest.GatewayBot(once(ctx)...)
		if err != nil {
			return fmt.Errorf("get gateway: %w", requested(err))
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	g.count = g.o.ShardCount
	if g.count == 0 {
		g.count = max(gb.Shards, 1)
	}
	ids := g.o.ShardIDs
	if ids == nil {
		ids = make([]int, g.count)
		for i := range ids {
			ids[i] = i
		}
	}
	for _, id := range ids {
		if id < 0 || id >= g.count {
			return nil, "", fmt.Errorf("open gateway: shard %d is out of range of %d shards", id, g.count)
		}
	}
	l := gb.SessionStartLimit
	g.pacer = newPacer(sessionLimit{
		total: l.Total, remaining: l.Remaining, concurrency: l.MaxConcurrency,
		resetAfter: time.Duration(l.ResetAfter) * time.Millisecond,
	}, g.o.IdentifyInterval, g.o.LockBucket, nil, nil, g.log)
	g.log.Info("gateway sharding", "shards", g.count, "running", len(ids), "max_concurrency", max(l.MaxConcurrency, 1),
		"session_starts_remaining", l.Remaining)

	loopCtx, stop := context.WithCancel(g.base)
	g.stop = stop
	for _, id := range ids {
		sh, err := g.newShard(id, loopCtx)
		if err != nil {
			g.stopShards()
			return nil, "", err
		}
		g.shards = append(g.shards, sh)
		g.goroutines.Go(func() { sh.run(loopCtx) })
	}
	select {
	case r := <-g.first:
		return r.user, r.appID, nil
	case <-g.failed:
		g.stopShards()
		return nil, "", g.err
	case <-ctx.Done():
		g.stopShards()
		return nil, "", ctx.Err()
	}
}

// stopShards ends the shards' loops, waits for them, and closes their
// sessions, all at once: each Close waits a second for Discord.
func (g *Gateway) stopShards() error {
	g.stop()
	g.goroutines.Wait()
	errs := make([]error, len(g.shards))
	for i, sh := range g.shards {
		g.goroutines.Go(func() {
			if e := sh.s.Close(); e != nil {
				errs[i] = fmt.Errorf("close shard %d: %w", sh.id, e)
			}
		})
	}
	g.goroutines.Wait()
	return errors.Join(errs...)
}

// WaitConnected waits until every shard of this process has connected
// once, and returns a shard's final error or ctx's.
func (g *Gateway) WaitConnected(ctx context.Context) error {
	for _, sh := range g.shards {
		select {
		case <-sh.up:
		case <-g.failed:
			return g.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Failed is closed when a shard meets an error that retrying cannot
// mend, which Err then returns: the bot must stop.
func (g *Gateway) Failed() <-chan struct{} { return g.failed }

// Err is the final error of a shard, once Failed is closed.
func (g *Gateway) Err() error {
	select {
	case <-g.failed:
		return g.err
	default:
		return nil
	}
}

func (g *Gateway) failWith(err error) {
	g.fail.Do(func() {
		g.err = err
		close(g.failed)
	})
}

// ShardCount is how many shards the bot has in all, once Open has asked.
func (g *Gateway) ShardCount() int { return g.count }

// ShardIDs are the shards this process runs, once Open has started them.
func (g *Gateway) ShardIDs() []int {
	ids := make([]int, len(g.shards))
	for i, sh := range g.shards {
		ids[i] = sh.id
	}
	return ids
}

// Runs reports whether this process runs the shard id.
func (g *Gateway) Runs(id int) bool {
	for _, sh := range g.shards {
		if sh.id == id {
			return true
		}
	}
	return false
}

// Serve starts answering interactions with h. Interactions that arrived
// before waited for it.
func (g *Gateway) Serve(h Handler) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.handler = h
	close(g.ready)
}

// Close stops taking interactions, waits for those in flight (or ctx, and
// then cancels them), closes every shard's session, and then waits (within
// ctx) until each rate-limit bucket may identify again, so that a bot
// restarted at once keeps to Discord's pacing. Every goroutine of the
// gateway has ended when it returns.
func (g *Gateway) Close(ctx context.Context) error {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	done := make(chan struct{})
	g.goroutines.Go(func() { g.wg.Wait(); close(done) })
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("wait for interactions: %w", ctx.Err())
	}
	// Cancelled, the interactions still running end at once.
	g.cancel()
	<-done
	if g.stop == nil { // never opened
		return err
	}
	// discordgo sends each connection's close frame, then gives Discord a
	// second to end the connection: the close handshake, after which Discord
	// shows the bot offline at once rather than when its heartbeats stop.
	g.log.Info("gateway closing, waiting a second for discord to end each connection", "shards", len(g.shards))
	errs := g.stopShards()
	if e := g.pacer.settle(ctx); e != nil && err == nil {
		err = fmt.Errorf("wait for the identify pacing: %w", e)
	}
	return errors.Join(errs, err)
}

func (g *Gateway) onInteraction(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return
	}
	g.wg.Add(1)
	g.mu.Unlock()
	defer g.wg.Done()

	ctx, cancel := context.WithTimeout(g.base, handlerTimeout)
	defer cancel()
	select {
	case <-g.ready:
	case <-ctx.Done(): // the bot never got to serving: it failed at start-up
		return
	}
	// Answered through the REST session, whose rate limits every shard
	// shares, as Discord counts them per bot.
	answer(ctx, g.base, g.rest, g.edits, g.o.Budget, g.handler, ic.Interaction, g.log)
}

// answer runs h on an interaction and sends its reply through REST: the
// callback, then the edit of a board (merged with others of the board by
// edits), then the board message's ID for the timers, then any follow-up.
// A reply later than the budget allows follows a deferral (see Budget),
// sent under a context of its own from base: the handler's, ctx, may have
// ended with the work.
func answer(ctx, base context.Context, s *discordgo.Session, edits *boardEdits, b Budget, h Handler, i *discordgo.Interaction, log *slog.Logger) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, b.workLimit())
	defer cancel()
	log = log.With("interaction", i.ID, "guild", i.GuildID, "channel", i.ChannelID)
	r, late := b.run(ctx, h, i, func(deferred *discordgo.InteractionResponse) {
		if err := respond(ctx, s, i, deferred); err != nil {
			log.Error("interaction deferral", "err", redact(err, i.Token))
		} else {
			log.Debug("interaction deferred", "type", i.Type, "elapsed", time.Since(start))
		}
	})
	if late {
		workErr := ctx.Err()
		ctx, cancel := context.WithTimeout(base, handlerTimeout)
		defer cancel()
		b.late(ctx, s, edits, h, i, r, workErr, log, func(_ context.Context, f func() error) error { return f() })
		return
	}
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
		edits.flush(ctx, r.Edit.Key(), i.AppID, log)
	}
	if err != nil {
		log.Error("interaction callback", "err", redact(err, i.Token))
		return
	}
	log.Debug("interaction answered", "type", i.Type, "elapsed", elapsed)
	// The callback has returned, so the message exists: no retries needed.
	afterResponse(ctx, s, h, i, r, "", log, func(_ context.Context, f func() error) error { return f() })
}

// afterResponse does the REST work that follows an interaction's response:
// the board message's ID for the timers (fetched unless known as
// messageID), then any follow-up message. Each call goes through try,
// which may retry it.
func afterResponse(ctx context.Context, s *discordgo.Session, h Handler, i *discordgo.Interaction, r interaction.Reply, messageID string,
	log *slog.Logger, try func(context.Context, func() error) error) {
	if r.TrackGame != 0 && messageID != "" {
		h.TrackMessage(ctx, r.TrackGame, messageID)
	} else if r.FetchBoard {
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
		c, err := followupCall(i.AppID, i.Token, f, false)
		if err == nil {
			err = try(ctx, func() error {
				_, err := callInteraction(ctx, s, c)
				return err
			})
		}
		if err != nil {
			log.Error("follow-up message", "err", redact(err, i.Token))
		}
	}
}

// goroutines runs and counts goroutines, so that their owner can wait for
// every one, and a test can see that none is left.
type goroutines struct {
	wg      sync.WaitGroup
	running atomic.Int64
}

func (gs *goroutines) Go(f func()) {
	gs.running.Add(1)
	gs.wg.Go(func() {
		defer gs.running.Add(-1)
		f()
	})
}

func (gs *goroutines) Wait() { gs.wg.Wait() }
