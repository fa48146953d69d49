package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// tournamentArgs are a short tournament's, for the tests: no game left to
// the move timeout, which would hold its round for the timeout and
// tttbot.DeadlineGrace.
var tournamentArgs = []string{"-tournament", "8", "-rounds", "3", "-abandon", "0", "-resign", "0.3", "-seed", "1"}

// An 8-player Swiss of 3 rounds on SQLite, through the bot: every round
// starts once, every game is accounted for, and the standings are the
// recomputed ones.
func TestTournamentSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot")
	}
	testTournament(t, nil)
}

// The same on PostgreSQL with two bots sharing it, the clicks alternating
// between them.
func TestTournamentPostgres(t *testing.T) {
	url := pgtest.URL(t)
	if testing.Short() {
		t.Skip("starts the bot twice")
	}
	out := testTournament(t, []string{"-database-url", url, "-instances", "2"})
	if !regexp.MustCompile(`answers by bot: 1: [1-9]\d*, 2: [1-9]\d*`).MatchString(out) {
		t.Errorf("not both bots answered:\n%s", out)
	}
}

func testTournament(t *testing.T, extra []string) string {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, &stdout, &stderr, append(append([]string{"-bot", raceBot(t)}, tournamentArgs...), extra...))
	out := stdout.String()
	if err != nil {
		t.Fatalf("loadtest: %v\n%s\nbots' and driver's logs:\n%s", err, out, stderr.Bytes())
	}
	t.Log("\n" + out)
	for _, re := range []string{
		`finished in [\d.]+m?s`,
		`(?m)^\s+join\s+8\s+0\s`,
		`(?m)^\s+move\s+[1-9]\d*\s+0\s`,
		`rounds: 3, each started once`,
		`games: all 12 accounted for \(4 a round × 3 rounds, 0 byes\)`,
		`the 8 places recomputed from the stored games equal the bot's table; the posted final table shows 8 of them`,
		`database check: ok`,
		`tournament check: ok`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("report does not match %s", re)
		}
	}
	return out
}

func TestTournamentFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-tournament", "1"},
		{"-tournament", "-4"},
		{"-tournament", "8", "-rounds", "0"},
		{"-tournament", "8", "-rounds", "13"},
		{"-tournament", "8", "-resign", "0.9", "-abandon", "0.2"},
		{"-tournament", "8", "-kill"},
		{"-tournament", "8", "-soak", "1m"},
		{"-tournament", "8", "-pages", "10"},
		{"-tournament", "8", "-cpuprofile", "x.prof"},
	} {
		var out bytes.Buffer
		if err := run(t.Context(), &out, &out, args); err == nil {
			t.Errorf("loadtest %q: got no error", args)
		}
	}
}

// checkTournament finds each kind of fault in a tournament that is
// otherwise right.
func TestCheckTournament(t *testing.T) {
	tests := []struct {
		name   string
		spoil  func(st *tttbot.TournamentState, games map[int64]*tttbot.Game, posted *tournamentPosts)
		wantIn string // in a problem; "" for none
	}{
		{"right", func(*tttbot.TournamentState, map[int64]*tttbot.Game, *tournamentPosts) {}, ""},
		{"a round posted twice", func(_ *tttbot.TournamentState, _ map[int64]*tttbot.Game, p *tournamentPosts) { p.rounds[2] = 2 },
			"round 2: its pairings posted 2 times"},
		{"a round not posted", func(_ *tttbot.TournamentState, _ map[int64]*tttbot.Game, p *tournamentPosts) { delete(p.rounds, 1) },
			"round 1: its pairings posted 0 times"},
		{"a round too many", func(st *tttbot.TournamentState, games map[int64]*tttbot.Game, p *tournamentPosts) {
			st.Games = append(st.Games, tttbot.TournamentGame{Round: 3, Board: 1, White: "1", Black: "4", Result: tttbot.ResultWhite, GameID: 31})
			games[31] = finished(31, "1", "4", "1", tttbot.ReasonLine)
			p.rounds[3], p.boards[31] = 1, 1
		}, "round 3 of 2"},
		{"a board posted twice", func(_ *tttbot.TournamentState, _ map[int64]*tttbot.Game, p *tournamentPosts) { p.boards[12] = 2 },
			"the board of game 12 posted 2 times"},
		{"a stray board", func(_ *tttbot.TournamentState, _ map[int64]*tttbot.Game, p *tournamentPosts) { p.boards[99] = 1 },
			"game 99: its board posted 1 times, but it is no board's game"},
		{"a result not its game's", func(st *tttbot.TournamentState, _ map[int64]*tttbot.Game, _ *tournamentPosts) {
			st.Games[0].Result = tttbot.ResultBlack
		}, "result black stored, but game 11"},
		{"a game still open", func(_ *tttbot.TournamentState, games map[int64]*tttbot.Game, _ *tournamentPosts) {
			games[21].Status, games[21].Winner = tttbot.StatusActive, ""
		}, "game 21 still active"},
		{"a posted line not the recomputed one", func(_ *tttbot.TournamentState, _ map[int64]*tttbot.Game, p *tournamentPosts) {
			p.tables[0] = strings.Replace(p.tables[0], "Buchholz", "Buchholz 9 ·", 1)
		}, "the posted table's line"},
		{"no final table", func(_ *tttbot.TournamentState, _ map[int64]*tttbot.Game, p *tournamentPosts) { p.tables = nil },
			"the final table posted 0 times"},
		{"the announcement not recorded", func(st *tttbot.TournamentState, _ map[int64]*tttbot.Game, _ *tournamentPosts) {
			st.MessageID = ""
		}, "the announcement stored as message"},
		{"not finished", func(st *tttbot.TournamentState, _ map[int64]*tttbot.Game, _ *tournamentPosts) {
			st.Status = tttbot.TournamentRunning
		}, "tournament running after round 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, games, posted := smallTournament()
			tt.spoil(st, games, &posted)
			summary, problems := checkTournament(st, games, posted, 4, 2)
			if tt.wantIn == "" {
				if len(problems) > 0 || len(summary) != 3 {
					t.Errorf("got problems %q and summary %q; want none and three lines", problems, summary)
				}
				return
			}
			found := false
			for _, p := range problems {
				found = found || strings.Contains(p, tt.wantIn)
			}
			if !found {
				t.Errorf("got problems %q, want one with %q", problems, tt.wantIn)
			}
		})
	}
}

// smallTournament is a finished 4-player Swiss of 2 rounds, stored and
// posted as the bots would: a win for X and a draw, then a win for O and
// a loss of X on time.
func smallTournament() (*tttbot.TournamentState, map[int64]*tttbot.Game, tournamentPosts) {
	st := &tttbot.TournamentState{
		Tournament: tttbot.Tournament{ID: 1, ChannelID: "600", MessageID: "700", Format: tttbot.Swiss, Rounds: 2, Round: 2, MoveTimeout: 10 * time.Second,
			Status: tttbot.TournamentFinished},
		Entrants: []tttbot.Entrant{{Player: "1", Rating: 1500}, {Player: "2", Rating: 1500}, {Player: "3", Rating: 1500}, {Player: "4", Rating: 1500}},
		Games: []tttbot.TournamentGame{
			{Round: 1, Board: 1, White: "1", Black: "3", Result: tttbot.ResultWhite, GameID: 11},
			{Round: 1, Board: 2, White: "4", Black: "2", Result: tttbot.ResultDraw, GameID: 12},
			{Round: 2, Board: 1, White: "2", Black: "1", Result: tttbot.ResultBlack, GameID: 21},
			{Round: 2, Board: 2, White: "3", Black: "4", Result: tttbot.ResultBlack, GameID: 22},
		},
	}
	games := map[int64]*tttbot.Game{
		11: finished(11, "1", "3", "1", tttbot.ReasonLine),
		12: finished(12, "4", "2", "", tttbot.ReasonDraw),
		21: finished(21, "2", "1", "1", tttbot.ReasonResign),
		22: finished(22, "3", "4", "4", tttbot.ReasonTimeout),
	}
	var table []string
	for _, p := range st.Standings() {
		table = append(table, placeText(p.Rank, p.Player, p.Points, p.Buchholz, p.SonnebornBerger))
	}
	posted := tournamentPosts{announcement: "700", rounds: map[int]int{1: 1, 2: 1}, boards: map[int64]int{11: 1, 12: 1, 21: 1, 22: 1},
		tables: []string{"🏆 **Load Swiss** is over!\n" + strings.Join(table, "\n")}}
	return st, games, posted
}

func finished(id int64, x, o, winner string, reason tttbot.Reason) *tttbot.Game {
	return &tttbot.Game{ID: id, ChannelID: "600", XPlayer: x, OPlayer: o, Challenger: x, Opponent: o, Status: tttbot.StatusFinished,
		Winner: winner, Reason: reason, Board: "XOX      ", TurnTimeout: 10 * time.Second}
}
