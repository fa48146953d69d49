package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// Two processes share the shards, 0–1 and 2–3 of four, and one PostgreSQL
// database: they take turns to identify through it, each answers the
// guilds on its own shards, the one holding shard 0 registers the commands
// and plays the DM game, and the global leaderboard, asked of either,
// counts the games of both.
func TestShardsTwoProcesses(t *testing.T) {
	url := pgtest.URL(t)
	// One rate-limit bucket for all four shards, as most bots have; the
	// interval is longer than the second process takes to start, so that
	// only the turns taken through the database keep its first identify
	// far enough from the first process's last.
	const count, interval = 4, time.Second
	srv := discordtest.NewServerWith(t, discordtest.Options{Shards: count, MaxConcurrency: 1, IdentifyInterval: interval})
	clk := &clock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	var first *harness
	for _, ids := range []string{"0-1", "2-3"} {
		h := &harness{t: t, srv: srv, clock: clk, db: filepath.Join(t.TempDir(), "unused.db"), interval: interval, configure: func(c *config.Config) {
			c.Database.URL = config.DatabaseURL(url)
			c.Discord.ShardCount, c.Discord.ShardIDs = count, ids
		}}
		h.start()
		t.Cleanup(func() { h.stop() })
		if first == nil {
			first = h
		}
	}
	srv.WaitShards(t, count)
	h := first // for its helpers, which drive the local Discord
	alice, bob, carol := srv.NewUser("alice"), srv.NewUser("bob"), srv.NewUser("carol")
	// Two wins for alice in a guild on each shard: eight rated games, past
	// the five that rank a player.
	for i := range count {
		ch := srv.NewChannelIn(srv.NewGuild(i, count))
		for range 2 {
			board, _ := h.play(h.startGame(ch, alice, bob), alice, bob, 0, 3, 1, 4, 2)
			wantSays(t, board, alice.Mention()+" wins")
		}
	}
	end := h.playBot(alice, srv.Slash(t, alice, srv.NewDMChannel(), "ttt challenge", discordtest.StringOption("first", "me")).Result(t))
	if len(freeCells(end)) != 0 {
		t.Errorf("DM game did not end:\n%s", end)
	}
	if got := len(srv.CallsTo(discordtest.RouteOverwriteGlobal)); got != 1 {
		t.Errorf("got %d registrations, want 1: by the process holding shard 0", got)
	}
	for _, ch := range []string{srv.NewDMChannel(), srv.NewChannelIn(srv.NewGuild(3, count))} {
		lb := srv.Slash(t, carol, ch, "ttt leaderboard", discordtest.StringOption("scope", "global")).Result(t)
		wantSays(t, lb, "Leaderboard** · everyone", "**1.** ", "8–0–0", "0–8–0")
	}
}
