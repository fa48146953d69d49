package discord_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/interaction"
)

func TestShardHealth(t *testing.T) {
	const grace = time.Minute
	tests := []struct {
		name     string
		st       discord.ShardStatus
		wantNote string
		wantErr  string
	}{
		{"up", discord.ShardStatus{State: discord.ShardConnected, Up: true, HeartbeatAge: 12 * time.Second}, "heartbeat 12s ago", ""},
		{"acks late, within the grace", discord.ShardStatus{State: discord.ShardConnected, HeartbeatAge: discord.HeartbeatStale + 10*time.Second, Down: 10 * time.Second},
			"no heartbeat acknowledged for 1m43s, within the grace of 1m0s", ""},
		{"acks stopped", discord.ShardStatus{State: discord.ShardConnected, HeartbeatAge: discord.HeartbeatStale + 61*time.Second, Down: 61 * time.Second},
			"", "no heartbeat acknowledged for 2m34s"},
		{"reconnecting, within the grace", discord.ShardStatus{State: discord.ShardReconnecting, Down: 3 * time.Second}, "reconnecting for 3s, within the grace of 1m0s", ""},
		{"reconnecting too long", discord.ShardStatus{State: discord.ShardReconnecting, Down: 61 * time.Second}, "", "reconnecting for 1m1s (grace 1m0s)"},
		{"never connected", discord.ShardStatus{State: discord.ShardConnecting, Down: 2 * time.Minute}, "", "connecting for 2m0s (grace 1m0s)"},
		{"failed", discord.ShardStatus{State: discord.ShardFailed, Down: time.Second}, "", "failed 1s ago: Discord refused the shard (see the log)"},
	}
	for _, tt := range tests {
		note, err := tt.st.Health(grace)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if note != tt.wantNote || gotErr != tt.wantErr {
			t.Errorf("%s: got %q, %q; want %q, %q", tt.name, note, gotErr, tt.wantNote, tt.wantErr)
		}
	}
}

// gatewayFor returns a gateway on srv with the given options, its REST
// session's waits recorded rather than slept.
func gatewayFor(t *testing.T, srv *discordtest.Server, token string, o discord.GatewayOptions) (*discord.Gateway, *waits) {
	t.Helper()
	s, err := discord.NewSession(token, srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	w := &waits{}
	o.Backoff = testBackoff(w)
	if o.IdentifyInterval == 0 {
		// Each test's server paces identifies at Discord's 5s, and its
		// buckets hold one shard each: no wait is due, at start or Close.
		o.IdentifyInterval = time.Millisecond
	}
	o.Logger = slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	return discord.NewGateway(s, o), w
}

// Open returns as soon as its context ends, wherever the connection hangs.
func TestGatewayOpenCancelled(t *testing.T) {
	for _, tt := range discordtest.ConnectHangs() {
		t.Run(tt.Name, func(t *testing.T) {
			srv := discordtest.NewServer(t)
			hung := tt.Start(t, srv)
			gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{})
			ctx, cancel := context.WithCancel(t.Context())
			errc := make(chan error, 1)
			go func() {
				_, _, err := gw.Open(ctx)
				errc <- err
			}()
			hung()
			cancel()
			// Not a measure of speed: the hangs last until the server
			// closes, and discordgo's own timeouts are 20s and 45s.
			select {
			case err := <-errc:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("got %v, want context.Canceled", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("Open still running after its context ended")
			}
			if n := gw.Goroutines(); n != 0 {
				t.Errorf("got %d goroutines of the gateway left after Open, want none", n)
			}
		})
	}
}

// A gateway whose calls fail in ways that may pass is connected again
// under the Backoff.
func TestGatewayOpenRetried(t *testing.T) {
	for _, route := range []string{discordtest.RouteGatewayBot, discordtest.RouteGateway} {
		t.Run(route, func(t *testing.T) {
			srv := discordtest.NewServer(t)
			srv.FailNext(t, route, 2, http.StatusInternalServerError)
			gw, w := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{})
			u, _, err := gw.Open(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer gw.Close(context.Background())
			if u.ID != srv.Bot().ID {
				t.Errorf("user: got %s, want %s", u.ID, srv.Bot().ID)
			}
			if got := len(w.list()); got != 2 {
				t.Errorf("got %d waits, want 2", got)
			}
		})
	}
}

// A token Discord refuses is final.
func TestGatewayOpenRefused(t *testing.T) {
	srv := discordtest.NewServer(t)
	gw, w := gatewayFor(t, srv, "wrong-token", discord.GatewayOptions{ShardCount: 1})
	_, _, err := gw.Open(t.Context())
	var auth *discord.AuthError
	if !errors.As(err, &auth) || auth.Status != http.StatusUnauthorized {
		t.Errorf("got %v, want an AuthError with status 401", err)
	}
	if got := w.list(); len(got) != 0 {
		t.Errorf("got waits %v, want none", got)
	}
}

// serveGateway opens gw, answers every interaction with shardReply, and
// waits for every shard to connect; the gateway closes when the test ends.
func serveGateway(t *testing.T, gw *discord.Gateway) {
	t.Helper()
	if _, _, err := gw.Open(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gw.Close(context.Background()) })
	gw.Serve(&fakeHandler{reply: shardReply})
	if err := gw.WaitConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// waitShards waits until want holds of each of gw's shards: a shard's
// status follows its connection a moment later.
func waitShards(t *testing.T, gw *discord.Gateway, what string, want func(discord.ShardStatus) bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		sts := gw.Shards(time.Now())
		if !slices.ContainsFunc(sts, func(st discord.ShardStatus) bool { return !want(st) }) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("got shards %+v, want %s", sts, what)
		}
	}
}

// heartbeating holds of a shard whose first heartbeat was acknowledged.
// Tests that count reconnections cut a connection only then: cut earlier,
// its heartbeat goroutine may close the connection that replaces it, a
// reconnection more of discordgo's making.
func heartbeating(st discord.ShardStatus) bool { return st.Up && st.Latency > 0 }

// upAfterReconnecting holds of a shard that is up, after one reconnection
// if it is shard id and none if not.
func upAfterReconnecting(id int) func(discord.ShardStatus) bool {
	return func(st discord.ShardStatus) bool {
		want := 0
		if st.ID == id {
			want = 1
		}
		return st.Up && st.Reconnects == want
	}
}

// shardReply answers each interaction with a message naming nothing: the
// test tells the shards apart by the server's routing.
var shardReply = interaction.Reply{Response: &discordgo.InteractionResponse{
	Type: discordgo.InteractionResponseChannelMessageWithSource,
	Data: &discordgo.InteractionResponseData{Content: "here"},
}}

// A gateway with Discord's recommended count runs every shard, paced by
// the rate-limit buckets, and answers guilds on each shard and DMs.
func TestGatewayShards(t *testing.T) {
	const count = 4
	srv := discordtest.NewServerWith(t, discordtest.Options{Shards: count, MaxConcurrency: 2, IdentifyInterval: 50 * time.Millisecond})
	gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{IdentifyInterval: 50 * time.Millisecond})
	serveGateway(t, gw)
	if got := gw.ShardCount(); got != count {
		t.Errorf("shard count: got %d, want Discord's %d", got, count)
	}
	ids := srv.WaitShards(t, count)
	// Discord's pacing, which the server checks, and the bot's own: in
	// each bucket (shard % 2) the second identify waited for the first.
	for _, pair := range [][2]int{{0, 2}, {1, 3}} {
		a, b := ids[pair[0]].At, ids[pair[1]].At
		if b.Sub(a).Abs() < 50*time.Millisecond {
			t.Errorf("shards %d and %d identified %s apart, want at least 50ms", pair[0], pair[1], b.Sub(a).Abs())
		}
	}
	alice := srv.NewUser("alice")
	for i := range count {
		ch := srv.NewChannelIn(srv.NewGuild(i, count))
		if m := srv.Slash(t, alice, ch, "ttt ping").Result(t); m.Content != "here" {
			t.Errorf("shard %d: got %q", i, m.Content)
		}
	}
	if m := srv.Slash(t, alice, srv.NewDMChannel(), "ttt ping").Result(t); m.Content != "here" {
		t.Errorf("DM: got %q", m.Content)
	}
	for _, st := range gw.Shards(time.Now()) {
		if !st.Up || st.State != discord.ShardConnected || st.Count != count {
			t.Errorf("shard %d: got %+v, want it up", st.ID, st)
		}
	}
}

// One shard's connection cut: it resumes on its own, without a new
// identify, while the others answer.
func TestGatewayShardResumes(t *testing.T) {
	const count = 3
	srv := discordtest.NewServerWith(t, discordtest.Options{MaxConcurrency: count})
	gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{ShardCount: count})
	serveGateway(t, gw)
	alice := srv.NewUser("alice")
	guilds := make([]string, count)
	for i := range guilds {
		guilds[i] = srv.NewGuild(i, count)
	}
	waitShards(t, gw, "each heartbeating", heartbeating)
	// Shard 1 down: the gateway's handler must not wait for it.
	srv.DisconnectShard(1)
	for _, i := range []int{0, 2} {
		if m := srv.Slash(t, alice, srv.NewChannelIn(guilds[i]), "ttt ping").Result(t); m.Content != "here" {
			t.Errorf("shard %d while shard 1 is down: got %q", i, m.Content)
		}
	}
	if m := srv.Slash(t, alice, srv.NewChannelIn(guilds[1]), "ttt ping").Result(t); m.Content != "here" {
		t.Errorf("shard 1 after its reconnection: got %q", m.Content)
	}
	if got := len(srv.Identifies()); got != count {
		t.Errorf("got %d identifies, want %d: shard 1 resumed", got, count)
	}
	waitShards(t, gw, "each up, shard 1 after 1 reconnection and the others after none", upAfterReconnecting(1))
}

// A process runs only its shards; one outside the count is refused before
// any connection.
func TestGatewayShardIDs(t *testing.T) {
	srv := discordtest.NewServerWith(t, discordtest.Options{MaxConcurrency: 4})
	gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{ShardCount: 4, ShardIDs: []int{2, 3}})
	if _, _, err := gw.Open(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := gw.WaitConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, id := range srv.Identifies() {
		got = append(got, id.Shard[0])
	}
	if len(got) != 2 || got[0]+got[1] != 5 || !gw.Runs(2) || gw.Runs(0) {
		t.Errorf("identified shards %v, want 2 and 3", got)
	}
	gw.Close(context.Background())

	gw, _ = gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{ShardCount: 4, ShardIDs: []int{4}})
	if _, _, err := gw.Open(t.Context()); err == nil || !strings.Contains(err.Error(), "shard 4 is out of range of 4 shards") {
		t.Errorf("shard 4 of 4: got %v, want it out of range", err)
	}
}

// discordgo's heartbeat goroutine, sending as its connection drops, sets
// DataReady after Close cleared it: the dropped session looks open. The
// shard reconnects all the same.
func TestGatewayShardReconnectsThoughDataReadySet(t *testing.T) {
	srv := discordtest.NewServerWith(t, discordtest.Options{MaxConcurrency: 1})
	// Every connection after the first waits for the test's turn.
	asked, turn := make(chan struct{}, 1), make(chan struct{})
	var connections atomic.Int32
	lock := func(ctx context.Context, _ int) (func(), error) {
		if connections.Add(1) > 1 {
			select {
			case asked <- struct{}{}:
			default:
			}
			select {
			case <-turn:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return func() {}, nil
	}
	gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{ShardCount: 1, LockBucket: lock})
	serveGateway(t, gw)
	waitShards(t, gw, "heartbeating", heartbeating)
	s := gw.ShardSession(0)
	srv.DisconnectShard(0)
	// The shard asks for its turn to reconnect once discordgo's Close has
	// closed the connection and let go of the session's lock: the test
	// takes the lock then, before it lets the shard go on.
	<-asked
	s.Lock()
	closed := !gw.ShardOpen(0)
	s.DataReady = true // the late heartbeat's doing
	s.Unlock()
	if !closed {
		t.Fatal("the shard reconnects on an open connection")
	}
	close(turn)
	waitShards(t, gw, "shard 0 up after 1 reconnection", upAfterReconnecting(0))
	alice := srv.NewUser("alice")
	if m := srv.Slash(t, alice, srv.NewChannelIn(srv.NewGuild(0, 1)), "ttt ping").Result(t); m.Content != "here" {
		t.Errorf("after the reconnection: got %q", m.Content)
	}
}

// blocked answers nothing until its context ends, and reports that end.
type blocked struct {
	started chan struct{}
	ended   chan error
}

func (b *blocked) Handle(ctx context.Context, _ *discordgo.Interaction) interaction.Reply {
	close(b.started)
	<-ctx.Done()
	b.ended <- ctx.Err()
	return shardReply
}

func (b *blocked) TrackMessage(context.Context, int64, string) {}

func (b *blocked) Private(*discordgo.Interaction) bool { return false }

// Close cancels the interactions still running when its context ends, and
// every goroutine of the gateway has ended when it returns.
func TestGatewayCloseEndsEverything(t *testing.T) {
	srv := discordtest.NewServerWith(t, discordtest.Options{MaxConcurrency: 2})
	gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{ShardCount: 2})
	if _, _, err := gw.Open(t.Context()); err != nil {
		t.Fatal(err)
	}
	h := &blocked{started: make(chan struct{}), ended: make(chan error, 1)}
	gw.Serve(h)
	if err := gw.WaitConnected(t.Context()); err != nil {
		t.Fatal(err)
	}
	srv.Slash(t, srv.NewUser("alice"), srv.NewChannelIn(srv.NewGuild(1, 2)), "ttt ping")
	<-h.started
	if n := gw.Goroutines(); n < 2 {
		t.Errorf("got %d goroutines of the gateway running, want at least its 2 shards' loops", n)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := gw.Close(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("close: got %v, want the wait for interactions cancelled", err)
	}
	select {
	case err := <-h.ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the interaction's context ended with %v, want it cancelled", err)
		}
	default:
		t.Error("the interaction still runs after Close")
	}
	if n := gw.Goroutines(); n != 0 {
		t.Errorf("got %d goroutines of the gateway left after Close, want none", n)
	}
}

// With fewer session starts left than shards, the rest wait for the reset
// Discord announces.
func TestGatewaySessionStartLimit(t *testing.T) {
	srv := discordtest.NewServerWith(t, discordtest.Options{MaxConcurrency: 4, SessionStarts: 2, SessionStartsReset: 300 * time.Millisecond})
	gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{ShardCount: 4})
	serveGateway(t, gw)
	// The server fails the test on an identify past its limit.
	if got := len(srv.Identifies()); got != 4 {
		t.Errorf("got %d identifies, want 4", got)
	}
}

// A shard whose session Discord ends identifies anew, in its turn: the
// server checks the pacing, and the shard answers again. The interval
// exceeds the second discordgo takes to close a dropped connection, so
// that only the pacer keeps the new identify far enough from the last.
func TestGatewayShardIdentifiesAnew(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the identify pacing: seconds")
	}
	const count, interval = 2, 1500 * time.Millisecond
	srv := discordtest.NewServerWith(t, discordtest.Options{MaxConcurrency: 1, IdentifyInterval: interval})
	gw, _ := gatewayFor(t, srv, srv.Token(), discord.GatewayOptions{ShardCount: count, IdentifyInterval: interval})
	serveGateway(t, gw)
	waitShards(t, gw, "each heartbeating", heartbeating)
	ids := srv.Identifies()
	last := ids[count-1].OnShard().ID // the last to identify
	srv.InvalidateShard(last)
	alice := srv.NewUser("alice")
	if m := srv.Slash(t, alice, srv.NewChannelIn(srv.NewGuild(last, count)), "ttt ping").Result(t); m.Content != "here" {
		t.Errorf("shard %d after identifying anew: got %q", last, m.Content)
	}
	ids = srv.Identifies()
	if len(ids) != count+1 || ids[count].Shard[0] != last {
		t.Errorf("got %d identifies, want shard %d again after the first %d", len(ids), last, count)
	}
	waitShards(t, gw, fmt.Sprintf("each up, shard %d after 1 reconnection", last), upAfterReconnecting(last))
}

// BenchmarkGatewayStart times a start against the local Discord with
// Discord's own identify pacing, from GET /gateway/bot until every shard
// is connected: buckets of max_concurrency shards, one identify each per
// 5s. Each start takes seconds, so one iteration is enough:
//
//	go test ./internal/discord -run '^$' -bench GatewayStart -benchtime 1x
func BenchmarkGatewayStart(b *testing.B) {
	for _, c := range []struct{ shards, concurrency int }{{4, 4}, {4, 1}, {8, 2}, {16, 16}} {
		b.Run(fmt.Sprintf("shards=%d/max_concurrency=%d", c.shards, c.concurrency), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				srv := discordtest.NewServerWith(b, discordtest.Options{Shards: c.shards, MaxConcurrency: c.concurrency})
				s, err := discord.NewSession(srv.Token(), srv.URL())
				if err != nil {
					b.Fatal(err)
				}
				gw := discord.NewGateway(s, discord.GatewayOptions{})
				b.StartTimer()
				if _, _, err := gw.Open(b.Context()); err != nil {
					b.Fatal(err)
				}
				if err := gw.WaitConnected(b.Context()); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				gw.Close(context.Background())
				srv.Close()
				b.StartTimer()
			}
		})
	}
}
