package storetest

import (
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// webGuild is a guild ID that UpdateSettings takes: a snowflake.
const webGuild = "123456789012345678"

func testWebProfiles(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	for _, p := range []tttbot.Player{{ID: "alice", Name: "Alice", Avatar: "a1"}, {ID: "alice", Name: "Alice", Avatar: "a2"}} {
		g := Challenge("c-"+p.Avatar, "alice", "bob")
		OK(t, db.StartGame(ctx, g, nil, p, tttbot.Player{ID: "bob", Name: "Bob"}))
		_, err := db.Decline(ctx, g.ID, "bob", g.Version, t0, nil)
		OK(t, err)
	}
	got := Must[map[string]tttbot.Profile](t)(db.Profiles(ctx, []string{"alice", "bob", "nobody"}))
	if len(got) != 2 {
		t.Fatalf("got %d profiles, want 2: %v", len(got), got)
	}
	alice, bob := got["alice"], got["bob"]
	if alice.Name != "Alice" || alice.Avatar != "a2" || alice.Public || bob.Name != "Bob" || bob.Avatar != "" {
		t.Errorf("got %+v and %+v, want Alice with avatar a2 and Bob without, neither public", alice, bob)
	}
	if !tttbot.ValidWebID(alice.WebID) || !tttbot.ValidWebID(bob.WebID) || alice.WebID == bob.WebID {
		t.Errorf("got web IDs %q and %q, want two distinct valid ones", alice.WebID, bob.WebID)
	}
	p := Must[*tttbot.Profile](t)(db.Profile(ctx, alice.WebID))
	if *p != alice {
		t.Errorf("Profile(%q): got %+v, want %+v", alice.WebID, *p, alice)
	}
	for _, id := range []string{"0000000000000000", "not an id", ""} {
		_, err := db.Profile(ctx, id)
		WantCode(t, err, tttbot.ENOTFOUND)
	}

	// SetPublic adds a new player, and records a known name.
	OK(t, db.SetPublic(ctx, tttbot.Player{ID: "carol", Name: "Carol", Avatar: "c1"}, true, t0))
	OK(t, db.SetPublic(ctx, tttbot.Player{ID: "alice", Name: "Alice A.", Avatar: ""}, true, t0))
	OK(t, db.SetPublic(ctx, tttbot.Player{ID: "bob"}, true, t0))
	OK(t, db.SetPublic(ctx, tttbot.Player{ID: "bob"}, false, t0))
	got = Must[map[string]tttbot.Profile](t)(db.Profiles(ctx, []string{"alice", "bob", "carol"}))
	for _, tt := range []struct {
		id, name, avatar string
		public           bool
	}{
		{"alice", "Alice A.", "", true},
		{"bob", "Bob", "", false},
		{"carol", "Carol", "c1", true},
	} {
		p := got[tt.id]
		if p.Name != tt.name || p.Avatar != tt.avatar || p.Public != tt.public || !tttbot.ValidWebID(p.WebID) {
			t.Errorf("%s: got %+v, want name %q, avatar %q, public %v", tt.id, p, tt.name, tt.avatar, tt.public)
		}
	}
	if got["alice"].WebID != alice.WebID {
		t.Errorf("alice's web ID changed from %q to %q", alice.WebID, got["alice"].WebID)
	}
}

func testWebGuild(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	id := tttbot.NewWebID()
	_, err := db.WebGuild(ctx, id)
	WantCode(t, err, tttbot.ENOTFOUND)
	_, err = db.UpdateSettings(ctx, webGuild, func(s *tttbot.Settings) error { s.Web = id; return nil })
	OK(t, err)
	s := Must[*tttbot.Settings](t)(db.WebGuild(ctx, id))
	if s.GuildID != webGuild || s.Web != id {
		t.Errorf("got guild %q page %q, want %q and %q", s.GuildID, s.Web, webGuild, id)
	}
	_, err = db.UpdateSettings(ctx, webGuild, func(s *tttbot.Settings) error { s.Web = "nope"; return nil })
	WantCode(t, err, tttbot.EINVALID)
	_, err = db.UpdateSettings(ctx, webGuild, func(s *tttbot.Settings) error { s.Web = ""; return nil })
	OK(t, err)
	_, err = db.WebGuild(ctx, id)
	WantCode(t, err, tttbot.ENOTFOUND)
}

func testTrends(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	var ids []int64
	for i, cells := range [][]int{xWins, oWins, draw} {
		ids = append(ids, guildGame(t, db, "guild", "c"+string(rune('0'+i)), "alice", "bob", cells).ID)
	}
	// A game against the bot and one on another board change no rating.
	g := Challenge("cb", "alice", "bot")
	g.GuildID, g.Opponent, g.BotLevel, g.XPlayer, g.OPlayer, g.Status = "", "bot", "easy", "alice", "bot", tttbot.StatusActive
	OK(t, db.StartGame(ctx, g, nil))
	PlayCells(t, db, g, xWins...)

	for _, scope := range []string{"", "guild"} {
		h := Must[map[string][]tttbot.RatingPoint](t)(db.Trends(ctx, scope, shape3, []string{"alice", "bob", "carol"}, 10))
		if len(h) != 2 {
			t.Fatalf("scope %q: got the history of %d players, want 2", scope, len(h))
		}
		for _, player := range []string{"alice", "bob"} {
			points := h[player]
			if len(points) != 3 {
				t.Fatalf("scope %q, %s: got %d points, want 3", scope, player, len(points))
			}
			last, want := points[2], standing(t, db, scope, player)
			if last.R != want.R || last.RD != want.RD || !last.At.Equal(want.UpdatedAt) {
				t.Errorf("scope %q, %s: last point %+v, want the rating %v ± %v at %v", scope, player, last, want.R, want.RD, want.UpdatedAt)
			}
		}
		if a, b := h["alice"][0].R, h["bob"][0].R; a <= b {
			t.Errorf("scope %q: after alice's win got %v for alice, %v for bob", scope, a, b)
		}
	}
	h := Must[map[string][]tttbot.RatingPoint](t)(db.Trends(ctx, "", shape3, []string{"alice"}, 2))
	if all := standing(t, db, "", "alice"); len(h["alice"]) != 2 || h["alice"][1].R != all.R {
		t.Errorf("limit 2: got %+v, want the last two games", h["alice"])
	}
	h = Must[map[string][]tttbot.RatingPoint](t)(db.Trends(ctx, "", tttbot.Shape{Rows: 4, Cols: 4, K: 4}, []string{"alice"}, 10))
	if len(h) != 0 {
		t.Errorf("another shape: got %+v, want nothing", h)
	}

	recent := Must[[]tttbot.HistoryEntry](t)(db.RecentGames(ctx, "alice", "", 10))
	if len(recent) != 4 || recent[0].GameID != g.ID {
		t.Errorf("recent games everywhere: got %+v, want 4, the bot's game first", recent)
	}
	recent = Must[[]tttbot.HistoryEntry](t)(db.RecentGames(ctx, "alice", "guild", 2))
	if len(recent) != 2 || recent[0].GameID != ids[2] {
		t.Errorf("recent games in the guild: got %+v, want the last two", recent)
	}
	_, err := db.RecentGames(ctx, "alice", "", 0)
	WantCode(t, err, tttbot.EINVALID)
}

func testForgetWeb(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	g := Challenge("c1", "alice", "bob")
	OK(t, db.StartGame(ctx, g, nil, tttbot.Player{ID: "alice", Name: "Alice", Avatar: "a1"}))
	g = Must[*tttbot.Game](t)(db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: g.Version, XPlayer: "alice", At: t0, Deadline: t0.Add(time.Minute)}))
	PlayCells(t, db, g, xWins...)
	OK(t, db.SetPublic(ctx, tttbot.Player{ID: "alice"}, true, t0))
	alice := Must[map[string]tttbot.Profile](t)(db.Profiles(ctx, []string{"alice"}))["alice"]

	_, err := db.ForgetPlayer(ctx, "alice", t0)
	OK(t, err)
	_, err = db.Profile(ctx, alice.WebID)
	WantCode(t, err, tttbot.ENOTFOUND)
	if got := Must[map[string]tttbot.Profile](t)(db.Profiles(ctx, []string{"alice"})); len(got) != 0 {
		t.Errorf("profiles after forgetting: got %+v", got)
	}
	if h := Must[map[string][]tttbot.RatingPoint](t)(db.Trends(ctx, "", shape3, []string{"alice"}, 10)); len(h) != 0 {
		t.Errorf("trends after forgetting: got %+v", h)
	}
	if r := Must[[]tttbot.HistoryEntry](t)(db.RecentGames(ctx, "alice", "", 10)); len(r) != 0 {
		t.Errorf("recent games after forgetting: got %+v", r)
	}
	// The opponent's history still names the game, against a placeholder.
	r := Must[[]tttbot.HistoryEntry](t)(db.RecentGames(ctx, "bob", "", 10))
	if len(r) != 1 || !tttbot.Forgotten(r[0].Opponent) {
		t.Errorf("bob's games: got %+v, want one against a placeholder", r)
	}
}
