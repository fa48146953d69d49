package web_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/web"
)

const dave = "340000000000000004"

// tournament stores a tournament of format in guildID among alice, bob,
// carol and dave, with rounds of games, each game with a GameID of -1
// linked to a finished game of its players; finished once every game is
// decided, else running at its last round.
func (s *site) tournament(t *testing.T, guildID string, format tttbot.TournamentFormat, rounds ...[]tttbot.TournamentGame) *tttbot.Tournament {
	t.Helper()
	ctx := t.Context()
	tr := &tttbot.Tournament{GuildID: guildID, ChannelID: "600", Organiser: alice, Name: "Friday <Cup>", Format: format,
		Shape: tttbot.Shape{Rows: 3, Cols: 3, K: 3}, Rounds: len(rounds), RoundTime: time.Hour, MoveTimeout: time.Minute,
		Status: tttbot.TournamentSignup, Deadline: s.clock.now.Add(time.Hour)}
	if err := s.db.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	for i, p := range []string{alice, bob, carol, dave} {
		if err := s.db.Enter(ctx, tr.ID, tttbot.Entrant{Player: p, Rating: float64(1900 - 100*i), JoinedAt: s.clock.now}); err != nil {
			t.Fatal(err)
		}
	}
	over := true
	for n, games := range rounds {
		undecided := make([]tttbot.TournamentGame, len(games))
		for i, g := range games {
			g.Round, g.Board = n+1, i+1
			if g.Black != "" {
				g.Result = tttbot.ResultPending
			}
			undecided[i] = g
		}
		tr.Status, tr.Round, tr.Deadline = tttbot.TournamentRunning, n+1, s.clock.now.Add(time.Hour)
		if err := s.db.Advance(ctx, tr, undecided); err != nil {
			t.Fatal(err)
		}
		for i, g := range games {
			if g.Black == "" {
				continue
			}
			if g.GameID == -1 {
				cells := xWins
				if g.Result == tttbot.ResultBlack {
					cells = []int{4, 0, 8, 1, 6, 2}
				}
				played := s.finish(t, guildID, g.White, g.Black, cells...)
				if err := s.db.LinkGame(ctx, tr.ID, n+1, i+1, played.ID); err != nil {
					t.Fatal(err)
				}
			}
			if g.Result == tttbot.ResultPending {
				over = false
				continue
			}
			if err := s.db.Decide(ctx, tr.ID, n+1, i+1, g.Result); err != nil {
				t.Fatal(err)
			}
		}
	}
	if over && len(rounds) > 0 {
		tr.Status, tr.Deadline = tttbot.TournamentFinished, time.Time{}
		if err := s.db.Advance(ctx, tr, nil); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func TestTournamentPage(t *testing.T) { onEngines(t, web.Options{}, testTournamentPage) }

func testTournamentPage(t *testing.T, s *site) {
	s.finish(t, guild, carol, dave) // names carol and dave
	swiss := s.tournament(t, guild, tttbot.Swiss,
		[]tttbot.TournamentGame{{White: alice, Black: dave, Result: tttbot.ResultWhite, GameID: -1}, {White: bob, Black: carol, Result: tttbot.ResultDraw}},
		[]tttbot.TournamentGame{{White: carol, Black: alice, Result: tttbot.ResultBlack, GameID: -1}, {White: dave, Black: bob, Result: tttbot.ResultBothLose}})
	robin := s.tournament(t, guild, tttbot.RoundRobin,
		[]tttbot.TournamentGame{{White: alice, Black: dave, Result: tttbot.ResultWhite, GameID: -1}, {White: bob, Black: carol, Result: tttbot.ResultPending, GameID: -1}})
	knockout := s.tournament(t, guild, tttbot.Knockout,
		[]tttbot.TournamentGame{{White: alice, Black: dave, Result: tttbot.ResultWhite, GameID: -1}, {White: bob, Black: carol, Result: tttbot.ResultBlack, GameID: -1}},
		[]tttbot.TournamentGame{{White: alice, Black: carol, Result: tttbot.ResultWhite, GameID: -1}})
	bye := s.tournament(t, guild, tttbot.Knockout,
		[]tttbot.TournamentGame{{White: alice, Result: tttbot.ResultWhite}, {White: bob, Black: carol, Result: tttbot.ResultPending}})
	halfway := s.tournament(t, guild, tttbot.Knockout,
		[]tttbot.TournamentGame{{White: alice, Black: dave, Result: tttbot.ResultWhite, GameID: -1}, {White: bob, Black: carol, Result: tttbot.ResultPending}})
	halfway.Rounds = 2 // the final, not yet drawn
	if err := s.db.Advance(t.Context(), halfway, nil); err != nil {
		t.Fatal(err)
	}
	signup := s.tournament(t, guild, tttbot.Swiss)
	elsewhere := s.tournament(t, other, tttbot.Swiss,
		[]tttbot.TournamentGame{{White: alice, Black: dave, Result: tttbot.ResultWhite}})
	gameURL := func(tr *tttbot.Tournament, round, board int) string {
		st, err := s.db.Tournament(t.Context(), tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range st.Games {
			if g.Round == round && g.Board == board {
				return `href="/g/` + strconv.FormatInt(g.GameID, 10) + `"`
			}
		}
		t.Fatalf("no board %d of round %d", board, round)
		return ""
	}
	tests := []struct {
		name    string
		path    string
		status  int
		want    []string
		notWant []string
	}{
		{"a finished Swiss", "/t/" + swiss.WebID, 200, []string{"<title>Friday &lt;Cup&gt; · tttbot</title>", "Swiss · 3×3, 3 in a row · entrants: 4", "Finished.",
			`class="medal gold">1<`, ">Alice</a>", ">Dave</a>", "Standings", "Buchholz", "Round 1", "Round 2", "1–0", "½–½", "0–1", "0–0", gameURL(swiss, 1, 1), gameURL(swiss, 2, 1),
			`title="Both lost"`, `href="/p/`, "Games", "Won–lost–drawn", `<td class="num">2–0–0</td>`, `<td class="num">0–1–1</td>`},
			[]string{"Bracket", `aria-current="step"`}},
		{"a round robin in its round", "/t/" + robin.WebID, 200, []string{"Round 1 of 1 is being played.", "Standings", "playing", gameURL(robin, 1, 1),
			`aria-current="step"`}, []string{gameURL(robin, 1, 2), "medal"}},
		{"a finished knockout", "/t/" + knockout.WebID, 200, []string{"Bracket", `class="bracket"`, "Round 1", "Round 2", `class="side won"`, `class="medal gold"`, `class="medal silver"`, `class="medal bronze"`,
			gameURL(knockout, 2, 1)}, []string{"Buchholz", "Standings", "to-come"}},
		{"a knockout with a bye", "/t/" + bye.WebID, 200, []string{`class="side bye">bye<`, "playing"}, []string{"Buchholz"}},
		{"a knockout before its final", "/t/" + halfway.WebID, 200, []string{"Round 1 of 2 is being played.", "Round 2",
			`<li class="match to-come"><div class="side">to be decided</div><div class="side">to be decided</div></li>`},
			[]string{"Buchholz", "medal"}},
		{"a sign-up", "/t/" + signup.WebID, 200, []string{"Sign-up is open.", "No round has started yet."}, []string{"Standings", "Bracket"}},
		{"a server whose pages are off", "/t/" + elsewhere.WebID, 404, nil, nil},
		{"no such tournament", "/t/" + tttbot.NewWebID(), 404, nil, nil},
		{"not an ID", "/t/" + strconv.FormatInt(swiss.ID, 10), 404, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.get(t, tt.path)
			b := body(t, r)
			checkPage(t, r, b, tt.status)
			checkHas(t, b, tt.want, tt.notWant)
		})
	}
	// A page in another language; a finished tournament's page revalidates
	// to a 304.
	r := s.get(t, "/t/"+swiss.WebID, "Accept-Language", "de")
	if b := body(t, r); r.StatusCode != http.StatusOK || !strings.Contains(b, "Beendet.") || !strings.Contains(b, `lang="de"`) {
		t.Errorf("in German: status %d", r.StatusCode)
	}
	if r := s.get(t, "/t/"+swiss.WebID, "Accept-Language", "de", "If-None-Match", r.Header.Get("ETag")); r.StatusCode != http.StatusNotModified {
		t.Errorf("revalidated: status %d, want 304", r.StatusCode)
	}
	// Turning the server's pages off hides its tournaments.
	if _, err := s.play.SetWeb(t.Context(), guild, false); err != nil {
		t.Fatal(err)
	}
	if r := s.get(t, "/t/"+swiss.WebID); r.StatusCode != http.StatusNotFound {
		t.Errorf("with the server's pages off: status %d, want 404", r.StatusCode)
	}
}

// BenchmarkTournamentPage is the server's time for the page of a finished
// 64-player Swiss of 6 rounds, on SQLite.
func BenchmarkTournamentPage(b *testing.B) {
	s := newSite(b, web.Options{})
	ctx := b.Context()
	tr := &tttbot.Tournament{GuildID: guild, ChannelID: "600", Organiser: alice, Name: "Big Swiss", Format: tttbot.Swiss,
		Shape: tttbot.Shape{Rows: 3, Cols: 3, K: 3}, Rounds: 6, RoundTime: time.Hour, MoveTimeout: time.Minute,
		Status: tttbot.TournamentSignup, Deadline: t0.Add(time.Hour)}
	if err := s.db.CreateTournament(ctx, tr); err != nil {
		b.Fatal(err)
	}
	const n = 64
	for i := range n {
		if err := s.db.Enter(ctx, tr.ID, tttbot.Entrant{Player: strconv.Itoa(5000 + i), Rating: float64(2000 - i), JoinedAt: t0}); err != nil {
			b.Fatal(err)
		}
	}
	results := []tttbot.TournamentResult{tttbot.ResultWhite, tttbot.ResultBlack, tttbot.ResultDraw}
	for r := 1; r <= 6; r++ {
		var games []tttbot.TournamentGame
		for i := range n / 2 {
			// Rotations of the field: no pair twice in 6 rounds.
			games = append(games, tttbot.TournamentGame{Round: r, Board: i + 1, White: strconv.Itoa(5000 + i),
				Black: strconv.Itoa(5000 + n/2 + (i+r)%(n/2)), Result: results[(i+r)%3]})
		}
		tr.Status, tr.Round = tttbot.TournamentRunning, r
		if r == 6 {
			tr.Status, tr.Deadline = tttbot.TournamentFinished, time.Time{}
		}
		if err := s.db.Advance(ctx, tr, games); err != nil {
			b.Fatal(err)
		}
	}
	path := "/t/" + tr.WebID
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.RemoteAddr = "192.0.2.1:1234"
		w := httptest.NewRecorder()
		s.srv.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}
