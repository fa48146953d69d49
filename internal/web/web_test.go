package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/postgres"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/internal/sqlite"
	"github.com/tttbot/tttbot/internal/web"
)

// Players and guilds with realistic snowflakes, so that a test can tell
// that no page shows one.
const (
	alice = "310000000000000001"
	bob   = "320000000000000002"
	carol = "330000000000000003"
	bot   = "390000000000000009"
	guild = "410000000000000004"
	other = "420000000000000005"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// site is a Server on a database, SQLite unless a test asks for each
// engine (onEngines), with the play service that writes it.
type site struct {
	db    tttbot.Store
	play  *play.Service
	srv   *web.Server
	clock *clock
	page  string // the guild's page, "/s/…"
}

func newSite(t testing.TB, opts web.Options) *site {
	t.Helper()
	c := &clock{now: t0}
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return newSiteOn(t, db, c, opts)
}

// onEngines runs test on a site on SQLite and on one on PostgreSQL, the
// latter when TTTBOT_TEST_POSTGRES names a server (else it is skipped):
// each engine reads the pages' data with its own SQL.
func onEngines(t *testing.T, opts web.Options, test func(t *testing.T, s *site)) {
	t.Run("sqlite", func(t *testing.T) { test(t, newSite(t, opts)) })
	t.Run("postgres", func(t *testing.T) {
		c := &clock{now: t0}
		db, err := postgres.Open(t.Context(), pgtest.URL(t), postgres.Options{Now: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		test(t, newSiteOn(t, db, c, opts))
	})
}

// newSiteOn is a site on db, whose clock is c, with the guild's pages on.
func newSiteOn(t testing.TB, db tttbot.Store, c *clock, opts web.Options) *site {
	t.Helper()
	cat, err := commands.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	if opts.PublicURL == "" {
		opts.PublicURL = "https://ttt.example"
	}
	opts.BotID, opts.Now = bot, c.Now
	engine := ai.New(ai.Options{TimeBudget: time.Second})
	srv, err := web.New(db, engine, cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := &site{db: db, play: play.New(db, engine, bot, play.Options{Now: c.Now, Seed: 1}), srv: srv, clock: c}
	st, err := s.play.SetWeb(t.Context(), guild, true)
	if err != nil {
		t.Fatal(err)
	}
	s.page = "/s/" + st.Web
	return s
}

// finish plays a finished 3×3 game of a (X) against b in guildID ("" for
// a DM) with cells, naming both players.
func (s *site) finish(t *testing.T, guildID, a, b string, cells ...int) *tttbot.Game {
	t.Helper()
	ctx := t.Context()
	g := &tttbot.Game{GuildID: guildID, ChannelID: "5" + strconv.Itoa(int(s.clock.now.Unix()%1e9)), Rows: 3, Cols: 3, K: 3,
		Challenger: a, Opponent: b, Status: tttbot.StatusPending, Deadline: s.clock.now.Add(time.Minute)}
	names := map[string]string{alice: "Alice", bob: "Bob", carol: "Carol", dave: "Dave"}
	if err := s.db.StartGame(ctx, g, nil, tttbot.Player{ID: a, Name: names[a], Avatar: "a_" + a}, tttbot.Player{ID: b, Name: names[b]}); err != nil {
		t.Fatal(err)
	}
	g, err := s.db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: b, Version: g.Version, XPlayer: a, At: s.clock.now, Deadline: s.clock.now.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cells {
		if g, err = s.db.Play(ctx, tttbot.MoveRequest{GameID: g.ID, Player: g.Turn, Cell: c, Version: g.Version, At: s.clock.now, Deadline: s.clock.now.Add(time.Minute)}, nil); err != nil {
			t.Fatal(err)
		}
	}
	s.clock.now = s.clock.now.Add(time.Hour)
	return g
}

var xWins = []int{0, 3, 1, 4, 2}

// seed plays six games of alice against bob in the guild, which ranks
// both, and returns the last.
func (s *site) seed(t *testing.T) *tttbot.Game {
	t.Helper()
	var g *tttbot.Game
	for range 6 {
		g = s.finish(t, guild, alice, bob, xWins...)
	}
	return g
}

// get asks for path with headers, as name: value pairs.
func (s *site) get(t *testing.T, path string, headers ...string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.RemoteAddr = "192.0.2.1:1234"
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	s.srv.ServeHTTP(w, r)
	return w.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// profileID is player's profile's opaque ID.
func (s *site) profileID(t *testing.T, player string) string {
	t.Helper()
	p, err := s.db.Profiles(t.Context(), []string{player})
	if err != nil || p[player].WebID == "" {
		t.Fatalf("profile of %s: %+v, %v", player, p, err)
	}
	return p[player].WebID
}

var snowflake = regexp.MustCompile(`\d{17,20}`)

// checkHas fails t for each of want that page b lacks and each of notWant
// it has.
func checkHas(t *testing.T, b string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(b, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	for _, w := range notWant {
		if strings.Contains(b, w) {
			t.Errorf("the page has %q", w)
		}
	}
}

// checkPage fails unless r is an HTML page that shows no Discord ID and
// carries the security headers.
func checkPage(t *testing.T, r *http.Response, b string, status int) {
	t.Helper()
	if r.StatusCode != status {
		t.Fatalf("got status %d, want %d: %.300s", r.StatusCode, status, b)
	}
	if ids := snowflake.FindAllString(b, -1); len(ids) > 0 {
		t.Errorf("the page shows Discord IDs %v", ids)
	}
	for h, want := range map[string]string{
		"Content-Type":           "text/html; charset=utf-8",
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "no-referrer",
	} {
		if got := r.Header.Get(h); got != want {
			t.Errorf("%s: got %q, want %q", h, got, want)
		}
	}
	if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("Content-Security-Policy: got %q, want scripts from the site alone", csp)
	}
	if strings.Contains(b, "<script>") || strings.Contains(b, " style=") || strings.Contains(b, " on") && regexp.MustCompile(` on[a-z]+=`).MatchString(b) {
		t.Errorf("the page has inline script or style")
	}
}

func TestLeaderboard(t *testing.T) {
	s := newSite(t, web.Options{})
	s.seed(t)
	tests := []struct {
		name, path, lang string
		status           int
		want             []string
	}{
		{"the server's page", s.page, "", 200, []string{`<html lang="en-US">`, "Leaderboard · 3×3, 3 in a row", "Alice", "Bob", " ± ", "6–0–0", "0–6–0", `<svg class="trend"`, "Page 1 of 1 · 2 players"}},
		{"in German", s.page, "de-DE,de;q=0.9,en;q=0.5", 200, []string{`<html lang="de">`, "Rangliste", "Seite 1 von 1"}},
		{"in Polish, with its plurals", s.page, "pl", 200, []string{`<html lang="pl">`, "2 graczy"}},
		{"another board, nobody ranked", s.page + "?b=4x4x3", "", 200, []string{"Leaderboard · 4×4, 3 in a row", "Nobody is ranked"}},
		{"a board that does not exist", s.page + "?b=9x9x9", "", 404, nil},
		{"past the last page", s.page + "?p=2", "", 404, nil},
		{"no page number", s.page + "?p=x", "", 404, nil},
		{"a server that did not opt in", "/s/0123456789abcdef", "", 404, []string{"There is nothing here."}},
		{"no such address", "/s/nope", "", 404, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.get(t, tt.path, "Accept-Language", tt.lang)
			b := body(t, r)
			checkPage(t, r, b, tt.status)
			checkHas(t, b, tt.want, nil)
		})
	}
}

// TestOptOut: a server's page that its admins turned off answers as an
// address that never existed, byte for byte.
func TestOptOut(t *testing.T) {
	s := newSite(t, web.Options{})
	s.seed(t)
	if _, err := s.play.SetWeb(t.Context(), guild, false); err != nil {
		t.Fatal(err)
	}
	off, never := s.get(t, s.page), s.get(t, "/s/"+tttbot.NewWebID())
	if off.StatusCode != 404 || never.StatusCode != 404 {
		t.Fatalf("got %d and %d, want 404s", off.StatusCode, never.StatusCode)
	}
	if a, b := body(t, off), body(t, never); a != b {
		t.Errorf("the bodies differ:\n%s\n%s", a, b)
	}
	off.Header.Del("Date")
	never.Header.Del("Date")
	for k := range off.Header {
		if off.Header.Get(k) != never.Header.Get(k) {
			t.Errorf("header %s differs: %q and %q", k, off.Header.Get(k), never.Header.Get(k))
		}
	}
}

func TestProfile(t *testing.T) {
	s := newSite(t, web.Options{})
	s.seed(t)
	s.finish(t, other, alice, carol, xWins...) // a server without a page
	st, err := s.db.WebGuild(t.Context(), strings.TrimPrefix(s.page, "/s/"))
	if err != nil {
		t.Fatal(err)
	}
	a, c := s.profileID(t, alice), s.profileID(t, carol)
	restricted := "/p/" + a + "?s=" + st.Web

	// Private: only restricted to the enabled server, and only there.
	for _, path := range []string{"/p/" + a, "/p/" + c + "?s=" + st.Web, "/p/" + a + "?s=0123456789abcdef", "/p/nope"} {
		r := s.get(t, path)
		checkPage(t, r, body(t, r), 404)
	}
	r := s.get(t, restricted)
	b := body(t, r)
	checkPage(t, r, b, 200)
	for _, w := range []string{"Profile of Alice", "Only the games played on the server", "6–0–0", `src="/p/` + a + `/chart.svg?s=`, "Bob", `datetime="2026-03-01T`, "/embed/avatars/"} {
		if !strings.Contains(b, w) {
			t.Errorf("restricted profile lacks %q", w)
		}
	}
	if strings.Contains(b, "Carol") {
		t.Errorf("the restricted profile shows a game of another server")
	}

	// Public: everything, with the avatar of one's own.
	if err := s.play.SetProfilePublic(t.Context(), tttbot.Player{ID: alice, Name: "Alice", Avatar: "a_1"}, true); err != nil {
		t.Fatal(err)
	}
	r = s.get(t, "/p/"+a, "Accept-Language", "ja")
	b = body(t, r)
	if r.StatusCode != 200 {
		t.Fatalf("public profile: status %d", r.StatusCode)
	}
	for _, w := range []string{"Alice のプロフィール", "Carol", "Bob", "/avatars/" + alice + "/a_1.png", "7–0–0"} {
		if !strings.Contains(b, w) {
			t.Errorf("public profile lacks %q", w)
		}
	}
	chart := s.get(t, "/p/"+a+"/chart.svg")
	if cb := body(t, chart); chart.StatusCode != 200 || chart.Header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(cb, "<svg") {
		t.Errorf("chart: status %d, type %q, %.100s", chart.StatusCode, chart.Header.Get("Content-Type"), cb)
	}
	if chart := s.get(t, "/p/"+c+"/chart.svg"); chart.StatusCode != 404 {
		t.Errorf("a private player's chart: status %d, want 404", chart.StatusCode)
	}
}

func TestGame(t *testing.T) {
	s := newSite(t, web.Options{})
	g := s.seed(t)
	dm := s.finish(t, "", alice, carol, 4, 0, 8, 2, 1, 7, 6, 5, 3)
	elsewhere := s.finish(t, other, bob, carol, xWins...)
	open := &tttbot.Game{GuildID: guild, ChannelID: "77", Rows: 3, Cols: 3, K: 3, Challenger: alice, Opponent: bob,
		Status: tttbot.StatusPending, Deadline: s.clock.now.Add(time.Minute)}
	if err := s.db.StartGame(t.Context(), open, nil); err != nil {
		t.Fatal(err)
	}
	id := "/g/" + strconv.FormatInt(g.ID, 10)
	tests := []struct {
		name, path string
		status     int
		want       []string
	}{
		{"the end", id, 200, []string{"Game #", "X · Alice", "O · Bob", "Alice won with a line.", "Move 5 of 5: X on C1", `class="x last"`,
			`data-step="first"`, `data-step="prev"`, "✅ best", "/static/replay.", `<time datetime="2026-03-01T`}},
		{"the start", id + "?m=0", 200, []string{"Before the first move", `data-step="next"`, `data-step="last"`}},
		{"a move", id + "?m=2", 200, []string{"Move 2 of 5: O on A2", `href="/g/` + strconv.FormatInt(g.ID, 10) + `?m=1" data-step="prev"`}},
		{"past the end", id + "?m=6", 404, nil},
		{"no move number", id + "?m=x", 404, nil},
		{"a DM of private players", "/g/" + strconv.FormatInt(dm.ID, 10), 404, nil},
		{"a server without a page", "/g/" + strconv.FormatInt(elsewhere.ID, 10), 404, nil},
		{"an open game", "/g/" + strconv.FormatInt(open.ID, 10), 404, nil},
		{"no such game", "/g/99999", 404, nil},
		{"not a number", "/g/01", 404, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.get(t, tt.path)
			b := body(t, r)
			checkPage(t, r, b, tt.status)
			checkHas(t, b, tt.want, nil)
		})
	}
	// A public player's games show wherever they were played.
	if err := s.play.SetProfilePublic(t.Context(), tttbot.Player{ID: carol}, true); err != nil {
		t.Fatal(err)
	}
	for _, g := range []*tttbot.Game{dm, elsewhere} {
		r := s.get(t, "/g/"+strconv.FormatInt(g.ID, 10))
		if b := body(t, r); r.StatusCode != 200 || !strings.Contains(b, "Carol") {
			t.Errorf("game %d of a public player: status %d", g.ID, r.StatusCode)
		}
	}
}

// TestForgetMe: once a player is forgotten, no page shows them: their
// profile is gone, the leaderboard lists them no more, and their games
// show a placeholder.
func TestForgetMe(t *testing.T) {
	s := newSite(t, web.Options{})
	g := s.seed(t)
	a := s.profileID(t, alice)
	if err := s.play.SetProfilePublic(t.Context(), tttbot.Player{ID: alice}, true); err != nil {
		t.Fatal(err)
	}
	if r := s.get(t, "/p/"+a); r.StatusCode != 200 {
		t.Fatalf("before: status %d", r.StatusCode)
	}
	if _, err := s.play.ForgetPlayer(t.Context(), alice); err != nil {
		t.Fatal(err)
	}
	if r := s.get(t, "/p/"+a); r.StatusCode != 404 {
		t.Errorf("profile after forget-me: status %d, want 404", r.StatusCode)
	}
	lb := body(t, s.get(t, s.page))
	if strings.Contains(lb, "Alice") || !strings.Contains(lb, "Bob") {
		t.Errorf("leaderboard after forget-me: %s", lb)
	}
	r := s.get(t, "/g/"+strconv.FormatInt(g.ID, 10))
	b := body(t, r)
	if r.StatusCode != 200 || strings.Contains(b, "Alice") || !strings.Contains(b, "a forgotten player") {
		t.Errorf("game after forget-me: status %d, %s", r.StatusCode, b)
	}
}

func TestConditional(t *testing.T) {
	s := newSite(t, web.Options{})
	g := s.seed(t)
	for _, path := range []string{s.page, "/g/" + strconv.FormatInt(g.ID, 10), "/p/" + s.profileID(t, alice) + "?s=" + strings.TrimPrefix(s.page, "/s/")} {
		first := s.get(t, path)
		etag, modified := first.Header.Get("ETag"), first.Header.Get("Last-Modified")
		if first.StatusCode != 200 || etag == "" || modified == "" || first.Header.Get("Cache-Control") == "" {
			t.Fatalf("%s: status %d, ETag %q, Last-Modified %q", path, first.StatusCode, etag, modified)
		}
		tests := []struct {
			name    string
			headers []string
			want    int
		}{
			{"the same ETag", []string{"If-None-Match", etag}, 304},
			{"a weak one", []string{"If-None-Match", "W/" + etag}, 304},
			{"among others", []string{"If-None-Match", `"x", ` + etag}, 304},
			{"another ETag", []string{"If-None-Match", `"x"`}, 200},
			{"not modified since", []string{"If-Modified-Since", modified}, 304},
			{"modified since", []string{"If-Modified-Since", t0.Add(-time.Hour).Format(http.TimeFormat)}, 200},
			{"the ETag decides", []string{"If-None-Match", `"x"`, "If-Modified-Since", modified}, 200},
		}
		for _, tt := range tests {
			r := s.get(t, path, tt.headers...)
			if b := body(t, r); r.StatusCode != tt.want || tt.want == 304 && b != "" {
				t.Errorf("%s, %s: got %d (%d bytes), want %d", path, tt.name, r.StatusCode, len(b), tt.want)
			}
		}
	}
	// A change makes a new ETag.
	first := s.get(t, s.page)
	s.finish(t, guild, bob, alice, xWins...)
	if r := s.get(t, s.page, "If-None-Match", first.Header.Get("ETag")); r.StatusCode != 200 {
		t.Errorf("after a game: got %d, want 200", r.StatusCode)
	}
}

func TestGzip(t *testing.T) {
	s := newSite(t, web.Options{})
	s.seed(t)
	plain := body(t, s.get(t, s.page))
	r := s.get(t, s.page, "Accept-Encoding", "br, gzip")
	if r.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding: got %q", r.Header.Get("Content-Encoding"))
	}
	z, err := gzip.NewReader(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(z)
	if err != nil || string(got) != plain {
		t.Errorf("gunzipped: %v, equal %v", err, string(got) == plain)
	}
	if r := s.get(t, s.page, "Accept-Encoding", "gzip;q=0"); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip refused: got Content-Encoding %q", r.Header.Get("Content-Encoding"))
	}
	if !strings.Contains(r.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("Vary: got %q", r.Header.Get("Vary"))
	}
}

func TestStatic(t *testing.T) {
	s := newSite(t, web.Options{})
	s.seed(t)
	page := body(t, s.get(t, s.page))
	css := regexp.MustCompile(`href="(/static/style\.[0-9a-f]{12}\.css)"`).FindStringSubmatch(page)
	if css == nil {
		t.Fatalf("no fingerprinted stylesheet in %s", page)
	}
	r := s.get(t, css[1])
	if b := body(t, r); r.StatusCode != 200 || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") ||
		!strings.HasPrefix(r.Header.Get("Content-Type"), "text/css") || !strings.Contains(b, "prefers-color-scheme: dark") {
		t.Errorf("stylesheet: status %d, Cache-Control %q, type %q", r.StatusCode, r.Header.Get("Cache-Control"), r.Header.Get("Content-Type"))
	}
	if r := s.get(t, css[1], "If-None-Match", r.Header.Get("ETag")); r.StatusCode != 304 {
		t.Errorf("stylesheet again: status %d, want 304", r.StatusCode)
	}
	if r := s.get(t, "/static/style.css"); r.StatusCode != 404 {
		t.Errorf("unfingerprinted name: status %d, want 404", r.StatusCode)
	}
}

func TestRateLimit(t *testing.T) {
	for _, tt := range []struct {
		name    string
		trust   bool
		headers [2][]string // of the two clients
		limited bool        // whether the second shares the first's bucket
	}{
		{"two addresses", false, [2][]string{nil, nil}, false},
		{"a forged X-Forwarded-For, untrusted", false, [2][]string{{"X-Forwarded-For", "198.51.100.1"}, {"X-Forwarded-For", "198.51.100.2"}}, true},
		{"X-Forwarded-For, trusted", true, [2][]string{{"X-Forwarded-For", "203.0.113.9, 198.51.100.1"}, {"X-Forwarded-For", "198.51.100.2"}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t, web.Options{RateLimit: 1, TrustForwarded: tt.trust})
			ask := func(client int, addr string) *http.Response {
				r := httptest.NewRequest(http.MethodGet, s.page, nil)
				r.RemoteAddr = addr
				for i := 0; i+1 < len(tt.headers[client]); i += 2 {
					r.Header.Set(tt.headers[client][i], tt.headers[client][i+1])
				}
				w := httptest.NewRecorder()
				s.srv.ServeHTTP(w, r)
				return w.Result()
			}
			for i := range 2 { // the burst: twice the rate
				if r := ask(0, "192.0.2.1:1"); r.StatusCode != 200 {
					t.Fatalf("request %d: status %d", i+1, r.StatusCode)
				}
			}
			r := ask(0, "192.0.2.1:2")
			if r.StatusCode != 429 || r.Header.Get("Retry-After") != "1" {
				t.Errorf("past the burst: status %d, Retry-After %q; want 429 and 1", r.StatusCode, r.Header.Get("Retry-After"))
			}
			addr := "192.0.2.2:1"
			if tt.headers[0] != nil {
				addr = "192.0.2.1:3" // the same proxy
			}
			if r := ask(1, addr); (r.StatusCode == 429) != tt.limited {
				t.Errorf("the other client: status %d, want limited %v", r.StatusCode, tt.limited)
			}
			s.clock.now = s.clock.now.Add(time.Second)
			if r := ask(0, "192.0.2.1:4"); r.StatusCode != 200 {
				t.Errorf("a second later: status %d, want 200", r.StatusCode)
			}
		})
	}
}

// TestNoInlineScript is the rule the browser's CSP enforces, checked on
// the one page with a script.
func TestNoInlineScript(t *testing.T) {
	s := newSite(t, web.Options{})
	g := s.seed(t)
	b := body(t, s.get(t, "/g/"+strconv.FormatInt(g.ID, 10)))
	if n := strings.Count(b, "<script"); n != 1 || !bytes.Contains([]byte(b), []byte(`<script src="/static/replay.`)) {
		t.Errorf("got %d scripts, want the one external", n)
	}
}

func TestPrefix(t *testing.T) {
	s := newSite(t, web.Options{PublicURL: "https://example.org/ttt/"})
	s.seed(t)
	if got := web.Routes("https://example.org/ttt/"); got[0] != "GET /ttt/s/" {
		t.Errorf("routes: got %v", got)
	}
	r := s.get(t, "/ttt"+s.page)
	if b := body(t, r); r.StatusCode != 200 || !strings.Contains(b, `href="/ttt/static/style.`) || !strings.Contains(b, `href="/ttt/s/`) {
		t.Errorf("under a prefix: status %d, %s", r.StatusCode, b)
	}
}

// TestGameBothLost: a tournament game with no move at its round's
// deadline says both players lost on time.
func TestGameBothLost(t *testing.T) {
	s := newSite(t, web.Options{})
	g := s.finish(t, guild, alice, bob)
	if _, err := s.db.RoundOver(t.Context(), g.ID, s.clock.now); err != nil {
		t.Fatal(err)
	}
	r := s.get(t, "/g/"+strconv.FormatInt(g.ID, 10))
	b := body(t, r)
	checkPage(t, r, b, 200)
	if want := "Neither Alice nor Bob moved before the round&#39;s deadline: both lost on time."; !strings.Contains(b, want) {
		t.Errorf("the page lacks %q", want)
	}
}
