package storetest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tttbot/tttbot"
)

// The large fixture that BenchmarkRatingReads runs on, the same in every
// store's so that their figures compare: its players and finished games,
// and the guild they all play in, which makes the guild's leaderboards as
// long as the global ones.
const (
	FixturePlayers = 100_000
	FixtureGames   = 1_000_000
	FixtureGuild   = "guild"
)

// BenchmarkRatingReads measures what players wait for on a store whose
// guild holds a large fixture of rated games, players being its ranked
// players on 3×3, best first: a leaderboard page (first, middle, last), a
// player's stats (best, median, last ranked: a rank is a count of those
// ahead), a history, and finishing a game between two rated players,
// rating update included.
func BenchmarkRatingReads(b *testing.B, s tttbot.Store, guild string, players []string) {
	ctx := b.Context()
	shape3 := tttbot.Shape{Rows: 3, Cols: 3, K: 3}
	total := len(players)
	for _, p := range []struct {
		name   string
		offset int
	}{{"first", 0}, {"middle", total / 2}, {"last", total - 10}} {
		b.Run("leaderboard/"+p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				page, err := s.Leaderboard(ctx, guild, shape3, p.offset, 10)
				if err != nil || len(page.Standings) != 10 || page.Standings[0].Player != players[p.offset] {
					b.Fatalf("got %+v, %v; want 10 standings from %s", page, err, players[p.offset])
				}
			}
		})
	}
	for _, p := range []struct {
		name string
		rank int
	}{{"best", 1}, {"median", total / 2}, {"last", total}} {
		b.Run("stats/"+p.name, func(b *testing.B) {
			player := players[p.rank-1]
			b.ReportAllocs()
			for b.Loop() {
				st, err := s.Stats(ctx, guild, player)
				if err != nil {
					b.Fatal(err)
				}
				if i := slices.IndexFunc(st.Ratings, func(s tttbot.Standing) bool { return s.Shape == shape3 }); i < 0 || st.Ratings[i].Rank != p.rank {
					b.Fatalf("got %+v; want rank %d on 3×3", st.Ratings, p.rank)
				}
			}
		})
	}
	b.Run("history", func(b *testing.B) {
		player := players[total/2]
		b.ReportAllocs()
		for b.Loop() {
			if h, err := s.History(ctx, player, guild, 10); err != nil || len(h) != 10 {
				b.Fatalf("got %d games, %v; want 10", len(h), err)
			}
		}
	})
	b.Run("finish", func(b *testing.B) {
		BenchmarkFinish(b, s, guild, players, "")
	})
}

// BenchmarkFinish starts games of guild between players (against the bot
// at level, if set) outside the timer and times their resignation: the
// transaction that writes the results and the ratings or record a game
// leaves.
func BenchmarkFinish(b *testing.B, s tttbot.GameStore, guild string, players []string, level string) {
	ctx := b.Context()
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		a, o := players[i%len(players)], players[(i+1)%len(players)]
		if level != "" {
			o = "bot"
		}
		g := &tttbot.Game{GuildID: guild, ChannelID: fmt.Sprint("bench", i), Rows: 3, Cols: 3, K: 3,
			Challenger: a, Opponent: o, BotLevel: level, XPlayer: a, OPlayer: o, Status: tttbot.StatusActive}
		if err := s.StartGame(ctx, g, nil); err != nil {
			b.Fatal(err)
		}
		i++
		b.StartTimer()
		if _, err := s.Resign(ctx, g.ID, o, t0, nil); err != nil {
			b.Fatal(err)
		}
	}
}
