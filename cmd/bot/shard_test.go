package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/health"
)

// newShardedHarness runs the bot in gateway mode against a local Discord
// with opts (its identify pacing scaled as the bot's), the bot's
// configuration changed by configure.
func newShardedHarness(t *testing.T, opts discordtest.Options, interval time.Duration, configure func(*config.Config)) *harness {
	opts.IdentifyInterval = interval
	h := &harness{
		t:         t,
		srv:       discordtest.NewServerWith(t, opts),
		clock:     &clock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)},
		db:        filepath.Join(t.TempDir(), "tttbot.db"),
		configure: configure,
		interval:  interval,
	}
	h.start()
	t.Cleanup(func() { h.stop() })
	return h
}

// healthz fetches the bot's /healthz.
func (h *harness) healthz() (int, health.Body) {
	h.t.Helper()
	code, body := get(h.t, "http://"+h.addr+"/healthz")
	var b health.Body
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		h.t.Fatalf("healthz: %v in %s", err, body)
	}
	return code, b
}

// One process with four shards, as many as Discord recommends, plays games
// in guilds on every shard and in a DM, registers the commands once, and
// reports every shard healthy.
func TestShardsOneProcess(t *testing.T) {
	const count = 4
	h := newShardedHarness(t, discordtest.Options{Shards: count, MaxConcurrency: 2}, identifyInterval, nil)
	ids := h.srv.WaitShards(t, count)
	for i, id := range ids {
		if id.Shard == nil || *id.Shard != [2]int{i, count} {
			t.Errorf("session %d identified as shard %v, want [%d %d]", i, id.Shard, i, count)
		}
	}
	alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
	for i := range count {
		ch := h.srv.NewChannelIn(h.srv.NewGuild(i, count))
		end := h.playBot(alice, h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.StringOption("first", "me")).Result(t))
		if !strings.Contains(end.Text(), "draw") && !strings.Contains(end.Text(), "wins") {
			t.Errorf("shard %d: the game did not end:\n%s", i, end)
		}
		board := h.startGame(ch, alice, bob)
		board = h.srv.Click(t, alice, board, cells(board)[4].CustomID).Result(t)
		if cells(board)[4].Label != "X" {
			t.Errorf("shard %d: a move between players did not land:\n%s", i, board)
		}
	}
	dm := h.srv.NewDMChannel()
	end := h.playBot(alice, h.srv.Slash(t, alice, dm, "ttt challenge", discordtest.StringOption("first", "me")).Result(t))
	if len(freeCells(end)) != 0 {
		t.Errorf("DM game did not end:\n%s", end)
	}
	if got := len(h.srv.CallsTo(discordtest.RouteOverwriteGlobal)); got != 1 {
		t.Errorf("got %d registrations, want 1 for the 4 shards", got)
	}

	code, b := h.healthz()
	if code != http.StatusOK {
		t.Errorf("healthz: got %d %+v, want 200", code, b)
	}
	for i := range count {
		if got := b.Checks[fmt.Sprintf("gateway shard %d", i)]; !strings.HasPrefix(got, "ok, heartbeat ") {
			t.Errorf("healthz: shard %d: got %q, want ok with its heartbeat", i, got)
		}
	}
	_, metrics := get(t, "http://"+h.addr+"/metrics")
	for i := range count {
		for _, want := range []string{
			fmt.Sprintf(`tttbot_gateway_shard_up{shard="%d"} 1`, i),
			fmt.Sprintf(`tttbot_gateway_shard_state{shard="%d",state="connected"} 1`, i),
			fmt.Sprintf(`tttbot_gateway_shard_reconnects_total{shard="%d"} 0`, i),
			fmt.Sprintf(`tttbot_gateway_shard_heartbeat_latency_seconds{shard="%d"}`, i),
		} {
			if !strings.Contains(metrics, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
	}
}

// One shard's connection cut and kept from coming back: the others keep
// answering, /healthz fails once the shard is down past its grace, and the
// shard resumes its session (no new identify) when it can.
func TestShardCutResumes(t *testing.T) {
	const count = 4
	h := newShardedHarness(t, discordtest.Options{Shards: count, MaxConcurrency: count}, identifyInterval, func(c *config.Config) {
		c.Discord.ShardDownGrace = config.Duration{Duration: time.Millisecond}
	})
	h.srv.WaitShards(t, count)
	alice := h.srv.NewUser("alice")
	boards := make([]*discordtest.Message, count)
	for i := range count {
		ch := h.srv.NewChannelIn(h.srv.NewGuild(i, count))
		boards[i] = h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
	}

	h.srv.HangGateway()
	if n := h.srv.DisconnectShard(2); n != 1 {
		t.Fatalf("dropped %d connections of shard 2, want 1", n)
	}
	h.srv.WaitGatewayHung(t) // shard 2 reconnecting, held
	for _, i := range []int{0, 1, 3} {
		boards[i] = h.srv.Click(t, alice, boards[i], freeCells(boards[i])[0].CustomID).Result(t)
	}
	// Until the shard's loop hears of the drop, the shard is just down:
	// wait for its grace to run out.
	var b health.Body
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var code int
		if code, b = h.healthz(); code == http.StatusServiceUnavailable {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("healthz with shard 2 down: got %d %+v, want 503", code, b)
		}
	}
	if got := b.Checks["gateway shard 2"]; !strings.HasPrefix(got, "reconnecting for ") {
		t.Errorf("healthz: shard 2: got %q, want it reconnecting", got)
	}
	if got := b.Checks["gateway shard 1"]; !strings.HasPrefix(got, "ok, heartbeat") {
		t.Errorf("healthz: shard 1: got %q, want it ok", got)
	}

	h.srv.UnhangGateway()
	boards[2] = h.srv.Click(t, alice, boards[2], freeCells(boards[2])[0].CustomID).Result(t)
	if got := len(freeCells(boards[2])); got != 7 {
		t.Errorf("shard 2 after resuming: got %d free cells, want 7:\n%s", got, boards[2])
	}
	if got := len(h.srv.Identifies()); got != count {
		t.Errorf("got %d identifies, want %d: shard 2 resumed its session", got, count)
	}
	if code, b := h.healthz(); code != http.StatusOK {
		t.Errorf("healthz after the resume: got %d %+v, want 200", code, b)
	}
	_, metrics := get(t, "http://"+h.addr+"/metrics")
	for _, want := range []string{`tttbot_gateway_shard_reconnects_total{shard="2"} 1`, `tttbot_gateway_shard_reconnects_total{shard="0"} 0`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// A bot stopped and started at once identifies within Discord's pacing: the
// local Discord fails the test on an identify too close to the last of its
// bucket, before or across the restart. The interval exceeds the time the
// sessions take to close, so that only waiting it out keeps to it.
func TestShardsRestartPacing(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the identify pacing: seconds")
	}
	const count, interval = 4, 1200 * time.Millisecond
	h := newShardedHarness(t, discordtest.Options{Shards: count, MaxConcurrency: 2}, interval, nil)
	h.srv.WaitShards(t, count)
	h.restart()
	h.srv.WaitShards(t, count)
	alice := h.srv.NewUser("alice")
	for i := range count {
		ch := h.srv.NewChannelIn(h.srv.NewGuild(i, count))
		h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
	}
	ids := h.srv.Identifies()
	if len(ids) != 2*count {
		t.Fatalf("got %d identifies, want %d", len(ids), 2*count)
	}
	last := map[int]time.Time{}
	for _, id := range ids {
		bucket := id.Shard[0] % 2
		if prev, ok := last[bucket]; ok && id.At.Sub(prev) < interval {
			t.Errorf("shard %d identified %s after the last of bucket %d, want at least %s", id.Shard[0], id.At.Sub(prev), bucket, interval)
		}
		last[bucket] = id.At
	}
}
