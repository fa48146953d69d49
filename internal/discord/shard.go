package discord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// ShardState is where a shard's gateway connection stands.
type ShardState string

const (
	ShardConnecting   ShardState = "connecting"   // before its first connection
	ShardConnected    ShardState = "connected"    // a session is open
	ShardReconnecting ShardState = "reconnecting" // the connection dropped
	ShardFailed       ShardState = "failed"       // Discord refused it for good
)

// ShardStates lists every state, for metrics that show each.
func ShardStates() []ShardState {
	return []ShardState{ShardConnecting, ShardConnected, ShardReconnecting, ShardFailed}
}

// HeartbeatStale is the age past which the last heartbeat acknowledgement
// means a shard is down though its session thinks it is up: two of
// Discord's 41.25 s heartbeat intervals and some slack, so two heartbeats
// went unanswered. discordgo itself reconnects only after five.
const HeartbeatStale = 2*41250*time.Millisecond + 10*time.Second

// shard is one gateway session of the bot and the loop that keeps it
// connected.
type shard struct {
	id  int
	g   *Gateway
	s   *discordgo.Session
	log *slog.Logger

	dropped chan struct{} // a Disconnect to look into
	up      chan struct{} // closed at the first connection
	upOnce  sync.Once

	mu         sync.Mutex
	state      ShardState
	since      time.Time // when the state began
	reconnects int
	readies    int       // READY events: each is a session start
	lastAck    time.Time // the acknowledgement sample read last
	wire       wire
}

// newShard makes shard id's session: the REST session's token and HTTP
// transport, its own websocket, and no reconnection of discordgo's own —
// the shard's loop, which runs until stop ends, reconnects, paced.
// discordgo's Open takes no context: stop ends the call and the dial it
// may be waiting on.
func (g *Gateway) newShard(id int, stop context.Context) (*shard, error) {
	s, err := discordgo.New(g.rest.Token)
	if err != nil {
		return nil, fmt.Errorf("new session of shard %d: %w", id, err)
	}
	tr := g.rest.Client.Transport
	if tr == nil {
		tr = http.DefaultTransport
	}
	s.Client = &http.Client{Transport: stopping{tr, stop}, Timeout: g.rest.Client.Timeout}
	s.UserAgent = g.rest.UserAgent
	s.Identify.Intents = g.rest.Identify.Intents
	s.StateEnabled = false
	s.LogLevel = g.rest.LogLevel
	s.ShardID, s.ShardCount = id, g.count
	s.ShouldReconnectOnError = false
	sh := &shard{
		id: id, g: g, s: s, log: g.log.With("shard", id),
		dropped: make(chan struct{}, 1), up: make(chan struct{}),
		state: ShardConnecting, since: time.Now(),
	}
	s.Dialer = sh.wire.dialer(stop)
	s.AddHandler(g.onInteraction)
	s.AddHandler(sh.onReady)
	s.AddHandler(func(*discordgo.Session, *discordgo.Disconnect) {
		select {
		case sh.dropped <- struct{}{}:
		default:
		}
	})
	return sh, nil
}

func (sh *shard) onReady(_ *discordgo.Session, r *discordgo.Ready) {
	sh.mu.Lock()
	sh.readies++
	again := sh.readies > 1
	sh.mu.Unlock()
	if again {
		// A reconnection whose resume Discord refused: discordgo
		// identified, which is a session start.
		sh.g.pacer.started()
		sh.log.Info("gateway shard identified anew: its resume was refused")
		return
	}
	var appID string
	if r.Application != nil {
		appID = r.Application.ID
	}
	sh.log.Info("gateway shard connected", "user", r.User.Username, "user_id", r.User.ID)
	select {
	case sh.g.first <- readyEvent{r.User, appID}:
	default:
	}
}

func (sh *shard) setState(st ShardState) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.state != st {
		sh.state, sh.since = st, time.Now()
	}
}

// run connects the shard, and again whenever its connection drops, until
// ctx ends or Discord refuses it for good.
func (sh *shard) run(ctx context.Context) {
	first := true
	for {
		var opened bool
		err := sh.g.o.Backoff.Retry(ctx, sh.log, "connect gateway shard", func(ctx context.Context) (err error) {
			opened, err = sh.connect(ctx, first)
			return err
		})
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			sh.setState(ShardFailed)
			sh.log.Error("gateway shard refused", "err", err)
			sh.g.failWith(fmt.Errorf("gateway shard %d of %d: %w", sh.id, sh.g.count, err))
			return
		}
		if opened && !first {
			sh.mu.Lock()
			sh.reconnects++
			sh.mu.Unlock()
			sh.log.Info("gateway shard reconnected")
		}
		sh.setState(ShardConnected)
		sh.upOnce.Do(func() { close(sh.up) })
		first = false
		// A Disconnect may come from a connection already replaced (two
		// of discordgo's goroutines close the same broken one): only a
		// shard whose connection is closed connects again. Every end of
		// a session closes its socket before the Disconnect, and only
		// this loop dials.
		for {
			select {
			case <-ctx.Done():
				return
			case <-sh.dropped:
			}
			if !sh.wire.open() {
				break
			}
		}
		sh.setState(ShardReconnecting)
		sh.log.Warn("gateway shard disconnected, reconnecting")
	}
}

// connect opens the shard's session once, in its turn by the pacer: a new
// session identifies, one that was open resumes. It returns as soon as ctx
// ends.
func (sh *shard) connect(ctx context.Context, first bool) (opened bool, err error) {
	done, err := sh.g.pacer.acquire(ctx, sh.id, first)
	if err != nil {
		return false, err
	}
	// discordgo's Open takes no context, and holds the session's lock
	// while it fetches the gateway's URL (up to the client's timeout) and
	// shakes hands (up to the dialer's): Open runs aside, and when ctx
	// ends first, its call and dial end with ctx (the shard's client and
	// dialer stop with the loop) and abort closes the connection it shakes
	// hands on, so that it returns at once. A session it opened all the
	// same is closed with the others.
	result := make(chan error, 1)
	sh.g.goroutines.Go(func() { result <- sh.s.Open() })
	select {
	case err = <-result:
	case <-ctx.Done():
		sh.wire.abort()
		<-result
		done(false)
		return false, ctx.Err()
	}
	if errors.Is(err, discordgo.ErrWSAlreadyOpen) {
		done(false)
		return false, nil // a Disconnect raced a connection that is up
	}
	done(err == nil)
	if err != nil {
		return false, fmt.Errorf("open gateway: %w", requested(err))
	}
	return true, nil
}

// ShardStatus is a shard's state at a moment, for health and metrics.
type ShardStatus struct {
	ID, Count    int
	State        ShardState
	Since        time.Time     // when the state began
	Reconnects   int           // connections dropped and made again
	Up           bool          // connected, with heartbeats acknowledged
	HeartbeatAge time.Duration // since the last acknowledgement
	// Latency is the time Discord took to acknowledge the last heartbeat;
	// zero before one was.
	Latency time.Duration
	// Down is how long the shard has been down at the moment; zero when up.
	Down time.Duration
}

// sample reads whether the shard's connection is open and when it last
// wrote, and the last heartbeat acknowledgement, which discordgo writes
// under the session's lock. discordgo's Open holds that lock through a
// whole handshake, which may hang for long: health and metrics must not
// wait for it, and take the last acknowledgement read instead.
func (sh *shard) sample() (open bool, ack, sent time.Time) {
	open, sent = sh.wire.open(), sh.wire.lastWrite()
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.s.TryLock() {
		sh.lastAck = sh.s.LastHeartbeatAck
		sh.s.Unlock()
	}
	return open, sh.lastAck, sent
}

// wire watches a shard's gateway connections at the socket: when the last
// one dialled wrote last, and whether it is closed. discordgo's records of
// either are no help: it writes the heartbeat's send time under a lock it
// does not export, so reading it races the next heartbeat; and its
// heartbeat goroutine can set DataReady after Close cleared it, leaving a
// dropped connection looking open. After the handshake the bot writes
// nothing but heartbeats, so the last write stands for the last heartbeat.
type wire struct {
	wrote atomic.Int64              // Unix nanoseconds
	conn  atomic.Pointer[wiredConn] // the last dialled
}

// open reports whether the last connection dialled is still open.
func (w *wire) open() bool {
	c := w.conn.Load()
	return c != nil && !c.closed.Load()
}

func (w *wire) lastWrite() time.Time {
	if n := w.wrote.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

// dialer is websocket's default dialer with its connections watched by w.
// A dial ends when stop does.
func (w *wire) dialer(stop context.Context) *websocket.Dialer {
	d := *websocket.DefaultDialer
	var nd net.Dialer
	d.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		ctx, cancel := context.WithCancel(ctx)
		defer context.AfterFunc(stop, cancel)()
		c, err := nd.DialContext(ctx, network, addr)
		cancel()
		if err != nil {
			return nil, err
		}
		wc := &wiredConn{Conn: c, w: w}
		w.conn.Store(wc)
		if stop.Err() != nil { // abort may have looked before the Store
			wc.Close()
			return nil, stop.Err()
		}
		return wc, nil
	}
	return &d
}

// abort closes the last connection dialled, which ends the handshake of a
// session's Open on it.
func (w *wire) abort() {
	if c := w.conn.Load(); c != nil {
		c.Close()
	}
}

type wiredConn struct {
	net.Conn
	w      *wire
	closed atomic.Bool
}

func (c *wiredConn) Write(p []byte) (int, error) {
	c.w.wrote.Store(time.Now().UnixNano())
	return c.Conn.Write(p)
}

// Close is every end of a connection: discordgo's Close, a failed Open,
// and a failed handshake all close the socket.
func (c *wiredConn) Close() error {
	c.closed.Store(true)
	return c.Conn.Close()
}

// status reads the shard's state at now.
func (sh *shard) status(now time.Time) ShardStatus {
	sh.mu.Lock()
	st := ShardStatus{ID: sh.id, Count: sh.g.count, State: sh.state, Since: sh.since, Reconnects: sh.reconnects}
	sh.mu.Unlock()
	open, ack, sent := sh.sample()
	st.HeartbeatAge = now.Sub(ack)
	if !ack.IsZero() && !sent.IsZero() && !ack.Before(sent) {
		st.Latency = ack.Sub(sent)
	}
	switch {
	case st.State != ShardConnected:
		st.Down = now.Sub(st.Since)
	case !open:
		// Dropped a moment ago: the loop has yet to hear of it.
		st.State, st.Since = ShardReconnecting, now
	case st.HeartbeatAge > HeartbeatStale:
		st.Down = st.HeartbeatAge - HeartbeatStale
	default:
		st.Up = true
	}
	st.Down = max(st.Down, 0)
	return st
}

// Shards reports the state of each shard of this process at now, by ID.
func (g *Gateway) Shards(now time.Time) []ShardStatus {
	out := make([]ShardStatus, len(g.shards))
	for i, sh := range g.shards {
		out[i] = sh.status(now)
	}
	return out
}

// Health says whether the shard is fit to serve: up, or down no longer than
// grace, which leaves a reconnection its time; a failed shard never is.
func (st ShardStatus) Health(grace time.Duration) (string, error) {
	age := st.HeartbeatAge.Round(time.Second)
	down := st.Down.Round(time.Second)
	switch {
	case st.Up:
		return fmt.Sprintf("heartbeat %s ago", age), nil
	case st.State == ShardFailed:
		return "", fmt.Errorf("failed %s ago: Discord refused the shard (see the log)", down)
	case st.State == ShardConnected: // heartbeats unanswered
		if st.Down > grace {
			return "", fmt.Errorf("no heartbeat acknowledged for %s", age)
		}
		return fmt.Sprintf("no heartbeat acknowledged for %s, within the grace of %s", age, grace), nil
	case st.Down > grace:
		return "", fmt.Errorf("%s for %s (grace %s)", st.State, down, grace)
	}
	return fmt.Sprintf("%s for %s, within the grace of %s", st.State, down, grace), nil
}

// stopping sends requests through base, each ended when stop is: discordgo's
// Open asks for the gateway's URL without a context.
type stopping struct {
	base http.RoundTripper
	stop context.Context
}

func (t stopping) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(r.Context())
	unhook := context.AfterFunc(t.stop, cancel)
	end := func() { unhook(); cancel() }
	resp, err := t.base.RoundTrip(r.WithContext(ctx))
	if err != nil {
		end()
		return nil, err
	}
	resp.Body = &endingBody{ReadCloser: resp.Body, end: end}
	return resp, nil
}

// endingBody calls end once closed.
type endingBody struct {
	io.ReadCloser
	end func()
}

func (b *endingBody) Close() error {
	defer b.end()
	return b.ReadCloser.Close()
}
