package storetest

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/web"
)

// FixtureWebID is the opaque ID of the fixture guild's web page, which
// each store's fixture turns on for BenchmarkWebPages.
const FixtureWebID = "00000000000000aa"

// FixtureWebSteps are the statements, in the SQL both engines speak, that
// give the large fixture what the web pages read besides its games: the
// guild's page on, every player's profile public, and the rating each of
// their rated games left, globally and in the guild. randomHex is the
// engine's expression for 16 random hex digits.
func FixtureWebSteps(randomHex string) []string {
	return []string{
		`UPDATE guilds SET web_id = '` + FixtureWebID + `' WHERE id = '` + FixtureGuild + `'`,
		`UPDATE players SET web_id = ` + randomHex + `, public = (id <> 'bot')`,
		`INSERT INTO rating_history (scope, player_id, board_rows, board_cols, k, game_id, rating, rd, at)
			SELECT s.scope, r.player_id, g.board_rows, g.board_cols, g.k, r.game_id,
				1500 + (r.game_id % 401) - 200, 50 + (r.game_id % 51), r.finished_at
			FROM results r JOIN games g ON g.id = r.game_id,
				(SELECT '' AS scope UNION ALL SELECT '` + FixtureGuild + `') s
			WHERE r.bot_level IS NULL`,
	}
}

// BenchmarkWebPages measures the server time of the web pages on a store
// holding the large fixture, with FixtureWebSteps applied, players being
// its ranked players on 3×3 in the guild, best first: the guild's
// leaderboard (first, middle and last page of 50) and a player's public
// profile (the best, the median and the last ranked), each rendered in
// full and, as a browser asks, gzipped.
func BenchmarkWebPages(b *testing.B, s tttbot.Store, players []string) {
	cat, err := commands.Catalog()
	if err != nil {
		b.Fatal(err)
	}
	srv, err := web.New(s, ai.New(ai.Options{}), cat, web.Options{PublicURL: "https://ttt.example", BotID: "bot"})
	if err != nil {
		b.Fatal(err)
	}
	get := func(b *testing.B, path string, gzip bool) {
		b.ReportAllocs()
		for b.Loop() {
			r := httptest.NewRequest(http.MethodGet, path, nil)
			r.Header.Set("Accept-Language", "en-US,en;q=0.9")
			if gzip {
				r.Header.Set("Accept-Encoding", "gzip")
			}
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, r)
			if w.Code != http.StatusOK {
				b.Fatalf("%s: status %d", path, w.Code)
			}
		}
	}
	// What the first leaderboard page reads, call by call.
	ctx := b.Context()
	shape3 := tttbot.Shape{Rows: 3, Cols: 3, K: 3}
	first := players[:min(50, len(players))]
	for _, c := range []struct {
		name string
		call func() error
	}{
		{"leaderboard", func() error { _, err := s.Leaderboard(ctx, FixtureGuild, shape3, 0, 50); return err }},
		{"profiles", func() error { _, err := s.Profiles(ctx, first); return err }},
		{"trends", func() error { _, err := s.Trends(ctx, FixtureGuild, shape3, first, 10); return err }},
		{"stats", func() error { _, err := s.Stats(ctx, "", players[0]); return err }},
		{"recent", func() error { _, err := s.RecentGames(ctx, players[0], "", 20); return err }},
	} {
		b.Run("store/"+c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	pages := (len(players) + 49) / 50
	for _, p := range []struct {
		name string
		page int
	}{{"first", 1}, {"middle", pages / 2}, {"last", pages}} {
		path := "/s/" + FixtureWebID + "?p=" + strconv.Itoa(p.page)
		b.Run("leaderboard/"+p.name, func(b *testing.B) { get(b, path, false) })
		b.Run("leaderboard/"+p.name+"/gzip", func(b *testing.B) { get(b, path, true) })
	}
	for _, p := range []struct {
		name   string
		player string
	}{{"best", players[0]}, {"median", players[len(players)/2]}, {"last", players[len(players)-1]}} {
		ps, err := s.Profiles(b.Context(), []string{p.player})
		if err != nil || ps[p.player].WebID == "" {
			b.Fatalf("profile of %s: %+v, %v", p.player, ps, err)
		}
		path := "/p/" + ps[p.player].WebID
		b.Run("profile/"+p.name, func(b *testing.B) { get(b, path, false) })
		b.Run("profile/"+p.name+"/gzip", func(b *testing.B) { get(b, path, true) })
	}
}
