package discordtest

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// shardSession is a discordgo session for one shard of count, not yet open,
// that answers each interaction with the shard's ID.
func shardSession(t *testing.T, srv *Server, shard, count int) *discordgo.Session {
	t.Helper()
	s := newSession(t, srv)
	s.ShardID, s.ShardCount = shard, count
	s.ShouldReconnectOnError = false
	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "shard " + strconv.Itoa(s.ShardID)},
		})
	})
	return s
}

func TestGatewayBot(t *testing.T) {
	t.Parallel()
	srv := NewServerWith(t, Options{Shards: 4, MaxConcurrency: 2, SessionStarts: 10, SessionStartsReset: time.Hour})
	s := shardSession(t, srv, 0, 1)
	g, err := s.GatewayBot()
	if err != nil {
		t.Fatal(err)
	}
	l := g.SessionStartLimit
	if g.Shards != 4 || l.MaxConcurrency != 2 || l.Total != 10 || l.Remaining != 10 || l.ResetAfter <= 0 || l.ResetAfter > 3600000 {
		t.Errorf("got %+v, want 4 shards, max_concurrency 2, 10 of 10 session starts left, reset within the hour", g)
	}
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	if g, err = s.GatewayBot(); err != nil || g.SessionStartLimit.Remaining != 9 {
		t.Errorf("after an identify: got %+v, %v; want 9 session starts left", g, err)
	}
}

// Each guild's interactions reach the shard (guild_id >> 22) % count, and
// DMs shard 0.
func TestShardRouting(t *testing.T) {
	t.Parallel()
	const count = 3
	srv := NewServerWith(t, Options{Shards: count, MaxConcurrency: count})
	for i := range count {
		if err := shardSession(t, srv, i, count).Open(); err != nil {
			t.Fatalf("open shard %d: %v", i, err)
		}
	}
	ids := srv.WaitShards(t, count)
	for i, id := range ids {
		if id.Shard == nil || *id.Shard != [2]int{i, count} {
			t.Errorf("shard %d identified as %v", i, id.Shard)
		}
	}
	alice := srv.NewUser("alice")
	for i := range count {
		g := srv.NewGuild(i, count)
		if got := GuildShard(g, count); got != i {
			t.Fatalf("NewGuild(%d, %d) = %s, on shard %d", i, count, g, got)
		}
		for range 2 { // two guilds per shard, from different snowflakes
			m := srv.Slash(t, alice, srv.NewChannelIn(g), "ttt ping").Result(t)
			if want := "shard " + strconv.Itoa(i); m.Content != want {
				t.Errorf("guild %s: answered by %q, want %q", g, m.Content, want)
			}
		}
	}
	if m := srv.Slash(t, alice, srv.NewDMChannel(), "ttt ping").Result(t); m.Content != "shard 0" {
		t.Errorf("DM: answered by %q, want shard 0", m.Content)
	}
	// One shard cut off: its guilds wait for it, the others answer.
	if n := srv.DisconnectShard(1); n != 1 {
		t.Fatalf("DisconnectShard(1) dropped %d connections, want 1", n)
	}
	if m := srv.Slash(t, alice, srv.NewChannelIn(srv.NewGuild(2, count)), "ttt ping").Result(t); m.Content != "shard 2" {
		t.Errorf("with shard 1 down: answered by %q, want shard 2", m.Content)
	}
}

// A shard out of range is refused with close code 4010.
func TestInvalidShard(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	s := shardSession(t, srv, 0, 2)
	// discordgo refuses to send shard 2 of 2 itself: ask for it by hand.
	s.Identify.Shard = &[2]int{2, 2}
	s.ShardCount = 0
	err := s.Open()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != closeInvalidShard {
		t.Errorf("got %v, want close code 4010", err)
	}
	if n := len(srv.Identifies()); n != 0 {
		t.Errorf("got %d sessions, want none", n)
	}
}

// A second identify in a rate-limit bucket within IdentifyInterval fails
// the test, and is refused; another bucket's is not.
func TestIdentifyPacing(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := NewServerWith(rec, Options{MaxConcurrency: 2, IdentifyInterval: time.Hour})
	for _, shard := range []int{0, 1} { // buckets 0 and 1
		if err := shardSession(t, srv, shard, 4).Open(); err != nil {
			t.Fatalf("shard %d: %v", shard, err)
		}
	}
	if got := rec.failures(); len(got) != 0 {
		t.Fatalf("one identify per bucket: got failures %q", got)
	}
	err := shardSession(t, srv, 2, 4).Open() // bucket 0 again
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != closeRateLimited {
		t.Errorf("too early: got %v, want close code 4008", err)
	}
	got := rec.failures()
	if len(got) != 1 || !strings.Contains(got[0], "shard 2/4 identified") || !strings.Contains(got[0], "bucket 0") {
		t.Errorf("failures: got %q, want shard 2/4 reported early in bucket 0", got)
	}
}

// An identify past the session start limit fails the test.
func TestSessionStartLimit(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := NewServerWith(rec, Options{MaxConcurrency: 4, SessionStarts: 1})
	if err := shardSession(t, srv, 0, 2).Open(); err != nil {
		t.Fatal(err)
	}
	if err := shardSession(t, srv, 1, 2).Open(); err == nil {
		t.Error("second session start: got nil, want an error")
	}
	if got := rec.failures(); len(got) != 1 || !strings.Contains(got[0], "past the session start limit of 1") {
		t.Errorf("failures: got %q, want the session start limit", got)
	}
}
