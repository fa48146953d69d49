package storetest

import (
	"strconv"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// testWebhookGameRoundTrip: a game's place — webhook, guest — and token are
// stored with it and read back as they were written.
func testWebhookGameRoundTrip(t *testing.T, newDB Opener) {
	tests := []struct {
		name string
		g    tttbot.Game
	}{
		{"channel REST", tttbot.Game{GuildID: "guild"}},
		{"bot DM", tttbot.Game{Webhook: true, Token: tttbot.Token{Value: "tok-a", Expires: t0.Add(15 * time.Minute)}}},
		{"guest server", tttbot.Game{GuildID: "guild", Webhook: true, Guest: true, Token: tttbot.Token{Value: "tok-b", Expires: t0.Add(time.Minute)}}},
	}
	db := newDB(t, Options{})
	for n, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Challenge("c"+strconv.Itoa(n), "alice", "bob")
			g.GuildID, g.Webhook, g.Guest, g.Token = tt.g.GuildID, tt.g.Webhook, tt.g.Guest, tt.g.Token
			OK(t, db.StartGame(t.Context(), g, nil))
			got := Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID))
			if got.Webhook != tt.g.Webhook || got.Guest != tt.g.Guest || got.Token.Value != tt.g.Token.Value || !got.Token.Expires.Equal(tt.g.Token.Expires) {
				t.Errorf("got webhook %v, guest %v, token %+v; want %v, %v, %+v", got.Webhook, got.Guest, got.Token, tt.g.Webhook, tt.g.Guest, tt.g.Token)
			}
		})
	}
}

// testSetToken: a newer token replaces the game's; an older one, from a
// slower answer to an earlier click, does not; the version stays.
func testSetToken(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	g := Challenge("c1", "alice", "bob")
	g.Webhook, g.Token = true, tttbot.Token{Value: "first", Expires: t0.Add(15 * time.Minute)}
	OK(t, db.StartGame(t.Context(), g, nil))
	steps := []struct {
		name string
		tok  tttbot.Token
		want string // the game's token after
		code string
	}{
		{"newer replaces", tttbot.Token{Value: "second", Expires: t0.Add(16 * time.Minute)}, "second", ""},
		{"older is ignored", tttbot.Token{Value: "stale", Expires: t0.Add(15*time.Minute + 30*time.Second)}, "second", ""},
		{"no value", tttbot.Token{Expires: t0.Add(time.Hour)}, "second", tttbot.EINVALID},
		{"no expiry", tttbot.Token{Value: "x"}, "second", tttbot.EINVALID},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			err := db.SetToken(t.Context(), g.ID, s.tok)
			WantCode(t, err, s.code)
			got := Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID))
			if got.Token.Value != s.want || got.Version != g.Version {
				t.Errorf("got token %q at version %d, want %q at %d", got.Token.Value, got.Version, s.want, g.Version)
			}
		})
	}
	WantCode(t, db.SetToken(t.Context(), 9999, tttbot.Token{Value: "x", Expires: t0}), tttbot.ENOTFOUND)
}

// testGuestGamesRateGlobally: a game in a server that has not installed the
// bot counts on the global leaderboard and in the players' history there,
// and on no leaderboard of the server; the consistency check agrees.
func testGuestGamesRateGlobally(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	for n, guest := range []bool{false, true} {
		g := Challenge("c"+strconv.Itoa(n), "alice", "bob")
		if guest {
			g.GuildID, g.Guest, g.Webhook = "guest-guild", true, true
			g.Token = tttbot.Token{Value: "tok", Expires: t0.Add(15 * time.Minute)}
		}
		OK(t, db.StartGame(t.Context(), g, nil))
		g = Must[*tttbot.Game](t)(db.Accept(t.Context(), tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: g.Version, XPlayer: "alice", At: t0, Deadline: t0.Add(time.Minute)}))
		PlayCells(t, db, g, xWins...)
	}
	tests := []struct {
		scope string
		games int
	}{
		{"", 2},
		{"guild", 1},
		{"guest-guild", 0},
	}
	for _, tt := range tests {
		if got := standing(t, db, tt.scope, "alice").Games; got != tt.games {
			t.Errorf("scope %q: alice has %d rated games, want %d", tt.scope, got, tt.games)
		}
	}
	if h := Must[[]tttbot.HistoryEntry](t)(db.History(t.Context(), "alice", "guest-guild", 10)); len(h) != 1 {
		t.Errorf("got %d games in alice's history in the guest server, want 1", len(h))
	}
	problems, err := db.Check(t.Context(), nil)
	OK(t, err)
	if len(problems) > 0 {
		t.Errorf("the consistency check found problems: %v", problems)
	}
}
