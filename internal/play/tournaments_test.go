package play_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// tournamentBoards records what the runner shows, internal/commands' side
// of the TournamentBoards boundary.
type tournamentBoards struct {
	mu     sync.Mutex
	rounds []int // the rounds shown started
	games  map[int][]*tttbot.Game
	over   []*tttbot.TournamentState
	late   []*tttbot.Game // games shown started late
}

func (b *tournamentBoards) RoundStarted(_ context.Context, s *tttbot.TournamentState, games []*tttbot.Game) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.games == nil {
		b.games = map[int][]*tttbot.Game{}
	}
	b.rounds = append(b.rounds, s.Round)
	b.games[s.Round] = games
	return nil
}

func (b *tournamentBoards) BoardsStarted(_ context.Context, s *tttbot.TournamentState, games []*tttbot.Game) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.late = append(b.late, games...)
	return nil
}

func (b *tournamentBoards) TournamentOver(_ context.Context, s *tttbot.TournamentState) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.over = append(b.over, s)
	return nil
}

const organiser = "99"

func newTournament(t *testing.T, s *play.Service, format tttbot.TournamentFormat, rounds int, players ...string) *tttbot.Tournament {
	t.Helper()
	tr := &tttbot.Tournament{GuildID: "500", ChannelID: "600", Organiser: organiser, Name: "Cup", Format: format,
		Shape: tttbot.Shape{Rows: 3, Cols: 3, K: 3}, Rounds: rounds, RoundTime: time.Hour, MoveTimeout: 10 * time.Minute,
		Deadline: t0.Add(time.Hour)}
	if err := s.CreateTournament(t.Context(), tr); err != nil {
		t.Fatal(err)
	}
	for i, p := range players {
		if err := s.JoinTournament(t.Context(), tr.ID, p, float64(2000-i)); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// White wins, Black wins and a draw, as moves from the empty board.
var (
	whiteWins = []int{0, 3, 1, 4, 2}
	blackWins = []int{0, 3, 1, 4, 8, 5}
	drawn     = []int{0, 1, 2, 4, 3, 5, 7, 6, 8}
)

// finish plays moves on game id and hands its end to the runner.
func finish(t *testing.T, s *play.Service, db *sqlite.DB, b *tournamentBoards, id int64, moves []int) {
	t.Helper()
	g := playMoves(t, s, mustGame(t, db, id), moves...)
	if g.Status.Open() || !g.OfTournament() {
		t.Fatalf("game %d: got %s, a tournament's %v, after %v; want it over, a tournament's", id, g.Status, g.OfTournament(), moves)
	}
	if err := s.TournamentGameOver(t.Context(), id, b); err != nil {
		t.Fatal(err)
	}
}

func players(n int) []string {
	var ps []string
	for i := range n {
		ps = append(ps, fmt.Sprint(1000+i))
	}
	return ps
}

func TestTournamentRefusals(t *testing.T) {
	s, _, c := newService(t, nil)
	ctx := t.Context()
	b := &tournamentBoards{}
	bad := &tttbot.Tournament{GuildID: "500", ChannelID: "600", Organiser: organiser, Name: "Cup", Format: tttbot.Swiss,
		Shape: tttbot.Shape{Rows: 3, Cols: 3, K: 3}, Rounds: 0, RoundTime: time.Hour, MoveTimeout: time.Minute, Deadline: t0.Add(time.Hour)}
	if err := s.CreateTournament(ctx, bad); tttbot.ErrorCode(err) != tttbot.EINVALID {
		t.Errorf("a Swiss of 0 rounds: %v, want EINVALID", err)
	}
	tr := newTournament(t, s, tttbot.Swiss, 3, "1000")
	for _, tt := range []struct {
		name string
		err  error
		want error
	}{
		{"join twice", s.JoinTournament(ctx, tr.ID, "1000", 1500), tttbot.ErrAlreadyEntered},
		{"start by another", s.StartTournament(ctx, tr.ID, "1000", b), tttbot.ErrNotOrganiser},
		{"start alone", s.StartTournament(ctx, tr.ID, organiser, b), tttbot.ErrTooFewEntrants},
		{"cancel by another", s.CancelTournament(ctx, tr.ID, "1000", b), tttbot.ErrNotOrganiser},
		{"remove by another", second(s.RemoveFromTournament(ctx, tr.ID, "1000", "1000")), tttbot.ErrNotOrganiser},
		{"leave when not in", second(s.LeaveTournament(ctx, tr.ID, "1001")), tttbot.ErrNotEntered},
	} {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, tt.err, tt.want)
		}
	}
	// The sign-up ends with one player: cancelled, shown once.
	c.now = tr.Deadline
	if n, err := s.FireTournaments(ctx, b, &boards{}); err != nil || n != 1 {
		t.Fatalf("fire: %d, %v", n, err)
	}
	if len(b.over) != 1 || b.over[0].Status != tttbot.TournamentCancelled {
		t.Fatalf("over: %+v, want one cancellation", b.over)
	}
	if err := s.JoinTournament(ctx, tr.ID, "1001", 1500); !errors.Is(err, tttbot.ErrSignupClosed) {
		t.Errorf("join after: %v, want ErrSignupClosed", err)
	}
}

// TestSwissEight plays an 8-player Swiss of 3 rounds from sign-up to the
// final table: games won, drawn, lost on time and at the round's deadline,
// a player leaving, a restart mid-round and two instances at the deadline.
func TestSwissEight(t *testing.T) {
	c := &clock{now: t0}
	path := filepath.Join(t.TempDir(), "t.db")
	open := func() (*play.Service, *sqlite.DB) {
		db, err := sqlite.Open(t.Context(), path, sqlite.Options{Now: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return play.New(db, ai.New(ai.Options{}), bot, play.Options{TurnTimeout: turnTimeout, Now: c.Now, Seed: 1}), db
	}
	s, db := open()
	ctx := t.Context()
	b := &tournamentBoards{}
	ps := players(8)
	tr := newTournament(t, s, tttbot.Swiss, 3, ps...)
	if err := s.StartTournament(ctx, tr.ID, organiser, b); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.rounds, []int{1}) || len(b.games[1]) != 4 {
		t.Fatalf("after the start: rounds %v with %d games, want round 1 with 4", b.rounds, len(b.games[1]))
	}

	// Round 1: a win each way, a draw, and a loss on time (the game's own
	// turn timeout, fired by the game timers).
	r1 := b.games[1]
	finish(t, s, db, b, r1[0].ID, whiteWins)
	finish(t, s, db, b, r1[1].ID, blackWins)
	finish(t, s, db, b, r1[2].ID, drawn)
	c.now = c.now.Add(10*time.Minute + tttbot.DeadlineGrace)
	if _, err := s.FireDue(ctx, &boards{}); err != nil {
		t.Fatal(err)
	}
	if err := s.TournamentGameOver(ctx, r1[3].ID, b); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.rounds, []int{1, 2}) {
		t.Fatalf("after round 1: rounds %v, want 1, 2", b.rounds)
	}

	// Round 2: a player leaves (their game is lost), a restart, the rest
	// left to the round's deadline, where two instances act at once.
	r2 := b.games[2]
	leaver := r2[0].OPlayer
	if ended, err := s.LeaveTournament(ctx, tr.ID, leaver); err != nil || len(ended) != 1 || ended[0].ID != r2[0].ID {
		t.Fatalf("leave: %v, %v; want game %d ended", ended, err, r2[0].ID)
	}
	if err := s.TournamentGameOver(ctx, r2[0].ID, b); err != nil {
		t.Fatal(err)
	}
	finish(t, s, db, b, r2[1].ID, whiteWins)
	s, db = open() // a restart: a new process on the same database
	other, _ := open()
	g := playMoves(t, s, mustGame(t, db, r2[2].ID), 4) // one move: X made it, O to move loses at the deadline
	c.now = c.now.Add(time.Hour)
	var wg sync.WaitGroup
	for _, inst := range []*play.Service{s, other} {
		wg.Go(func() {
			if _, err := inst.FireTournaments(ctx, b, &boards{}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if !slices.Equal(b.rounds, []int{1, 2, 3}) {
		t.Fatalf("after round 2: rounds %v, want 1, 2, 3: each started once", b.rounds)
	}
	st, err := s.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]tttbot.TournamentResult{r2[0].ID: resultFor(r2[0], leaver), r2[2].ID: colourOf(g, g.XPlayer),
		r2[3].ID: tttbot.ResultBothLose}
	for _, tg := range st.Games {
		if w, ok := want[tg.GameID]; ok && tg.Result != w {
			t.Errorf("round 2 board %d: %s, want %s", tg.Board, tg.Result, w)
		}
	}
	if g := mustGame(t, db, r2[2].ID); g.Reason != tttbot.ReasonTimeout || g.Winner != g.XPlayer {
		t.Errorf("the game open at the round's deadline: %s, won by %q; want lost on time by O", g.Reason, g.Winner)
	}
	// Round 3: 7 players, one bye; the leaver is not paired.
	r3 := b.games[3]
	if len(r3) != 3 {
		t.Fatalf("round 3: %d games, want 3 and a bye", len(r3))
	}
	for _, g := range r3 {
		if g.HasPlayer(leaver) {
			t.Errorf("the leaver is paired in round 3")
		}
		finish(t, s, db, b, g.ID, whiteWins)
	}
	if len(b.over) != 1 || b.over[0].Status != tttbot.TournamentFinished {
		t.Fatalf("over: %d shown, want the final table once", len(b.over))
	}
	table := b.over[0].Standings()
	total := 0.0
	for _, p := range table {
		total += p.Points
	}
	// 4 + 4 + 3 games, each worth a point but the one both lost, and the
	// bye's point.
	if want := 11.0 - 1 + 1; total != want {
		t.Errorf("points in the table: %v, want %v", total, want)
	}
	if table[0].Rank != 1 || table[0].Points < table[1].Points {
		t.Errorf("table not in order: %+v", table[:2])
	}
}

func mustGame(t *testing.T, db *sqlite.DB, id int64) *tttbot.Game {
	t.Helper()
	g, err := db.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// resultFor is the result of g when loser loses it.
func resultFor(g *tttbot.Game, loser string) tttbot.TournamentResult {
	if loser == g.XPlayer {
		return tttbot.ResultBlack
	}
	return tttbot.ResultWhite
}

// colourOf is the result of g when winner wins it.
func colourOf(g *tttbot.Game, winner string) tttbot.TournamentResult {
	if winner == g.XPlayer {
		return tttbot.ResultWhite
	}
	return tttbot.ResultBlack
}

// TestKnockoutFour plays a 4-player knockout to its podium.
func TestKnockoutFour(t *testing.T) {
	s, db, _ := newService(t, nil)
	ctx := t.Context()
	b := &tournamentBoards{}
	ps := players(4)
	tr := newTournament(t, s, tttbot.Knockout, 0, ps...)
	if err := s.StartTournament(ctx, tr.ID, organiser, b); err != nil {
		t.Fatal(err)
	}
	// Semi-finals: seeds 1–4 and 2–3. A draw sends Black through.
	semis := b.games[1]
	if len(semis) != 2 {
		t.Fatalf("semi-finals: %d games", len(semis))
	}
	finish(t, s, db, b, semis[0].ID, whiteWins)
	finish(t, s, db, b, semis[1].ID, drawn)
	final := b.games[2]
	if len(final) != 1 || !final[0].HasPlayer(semis[0].XPlayer) || !final[0].HasPlayer(semis[1].OPlayer) {
		t.Fatalf("final: %+v, want %s against %s", final, semis[0].XPlayer, semis[1].OPlayer)
	}
	finish(t, s, db, b, final[0].ID, blackWins)
	if len(b.over) != 1 {
		t.Fatalf("over shown %d times, want once", len(b.over))
	}
	table := b.over[0].Standings()
	var ranks []int
	for _, p := range table {
		ranks = append(ranks, p.Rank)
	}
	if table[0].Player != final[0].OPlayer || table[1].Player != final[0].XPlayer || !slices.Equal(ranks, []int{1, 2, 3, 3}) {
		t.Errorf("podium: %v with ranks %v; want %s, %s, then two thirds", table, ranks, final[0].OPlayer, final[0].XPlayer)
	}
}

// TestSwissSixtyFour plays a 64-player Swiss of 6 rounds on two instances
// sharing one database, each told of half the games' ends: every round
// starts once, every game is accounted for, and the table is the one the
// stored games give.
func TestSwissSixtyFour(t *testing.T) {
	if testing.Short() {
		t.Skip("a 64-player event: not in -short")
	}
	c := &clock{now: t0}
	path := filepath.Join(t.TempDir(), "t.db")
	var dbs []*sqlite.DB
	var inst []*play.Service
	for range 2 {
		db, err := sqlite.Open(t.Context(), path, sqlite.Options{Now: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs = append(dbs, db)
		inst = append(inst, play.New(db, nil, bot, play.Options{TurnTimeout: turnTimeout, Now: c.Now, Seed: 1}))
	}
	ctx := t.Context()
	b := &tournamentBoards{}
	tr := newTournament(t, inst[0], tttbot.Swiss, 6, players(64)...)
	if err := inst[1].StartTournament(ctx, tr.ID, organiser, b); err != nil {
		t.Fatal(err)
	}
	outcomes := [][]int{whiteWins, blackWins, drawn}
	for round := 1; round <= 6; round++ {
		games := b.games[round]
		if len(games) != 32 {
			t.Fatalf("round %d: %d games, want 32", round, len(games))
		}
		var wg sync.WaitGroup
		for i, g := range games {
			s, db := inst[i%2], dbs[i%2]
			playMoves(t, s, mustGame(t, db, g.ID), outcomes[(i+round)%3]...)
			wg.Go(func() {
				if err := s.TournamentGameOver(ctx, g.ID, b); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	if want := []int{1, 2, 3, 4, 5, 6}; !slices.Equal(b.rounds, want) || len(b.over) != 1 {
		t.Fatalf("rounds shown %v and over %d times; want %v and once", b.rounds, len(b.over), want)
	}
	st, err := inst[0].Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Games) != 6*32 {
		t.Fatalf("%d boards stored, want %d", len(st.Games), 6*32)
	}
	for _, tg := range st.Games {
		g := mustGame(t, dbs[0], tg.GameID)
		if want := tttbot.TournamentResultOf(tg, g); tg.Result != want || !g.HasPlayer(tg.White) || !g.HasPlayer(tg.Black) {
			t.Errorf("round %d board %d: %s, but its game %d gives %s", tg.Round, tg.Board, tg.Result, g.ID, want)
		}
	}
	table := st.Standings()
	total := 0.0
	for _, p := range table {
		total += p.Points
	}
	if total != 6*32 {
		t.Errorf("points in the table: %v, want %d, a point a game", total, 6*32)
	}
}

func second[T any](_ T, err error) error { return err }

// TestTournamentBoardRefused: a player with a game of their own open in the
// tournament's channel cannot have their board's game started; the other
// boards are played, and at the round's deadline both players of the
// refused board lose.
func TestTournamentBoardRefused(t *testing.T) {
	s, db, c := newService(t, nil)
	ctx := t.Context()
	b := &tournamentBoards{}
	tr := newTournament(t, s, tttbot.Swiss, 1, players(4)...)
	// The top seed's own challenge in the channel, open.
	if _, err := s.Challenge(ctx, play.Challenge{Place: play.Place{GuildID: "500", ChannelID: "600"}, Challenger: "1000", Opponent: carol,
		Rows: 3, Cols: 3, K: 3}); err != nil {
		t.Fatal(err)
	}
	if err := s.StartTournament(ctx, tr.ID, organiser, b); err != nil {
		t.Fatal(err)
	}
	if len(b.games[1]) != 1 {
		t.Fatalf("round 1: %d games started, want the one without the busy player", len(b.games[1]))
	}
	finish(t, s, db, b, b.games[1][0].ID, whiteWins)
	c.now = c.now.Add(time.Hour)
	if _, err := s.FireTournaments(ctx, b, &boards{}); err != nil {
		t.Fatal(err)
	}
	st, err := s.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range st.Games {
		if tg.GameID == 0 && tg.Result != tttbot.ResultBothLose {
			t.Errorf("the refused board: %s, want both lose", tg.Result)
		}
	}
	if st.Status != tttbot.TournamentFinished || len(b.over) != 1 {
		t.Errorf("after the round's deadline: %s, shown over %d times; want finished once", st.Status, len(b.over))
	}
}

// TestTournamentUnrated: the games of a tournament made unrated are
// unrated.
func TestTournamentUnrated(t *testing.T) {
	s, db, _ := newService(t, nil)
	ctx := t.Context()
	b := &tournamentBoards{}
	tr := &tttbot.Tournament{GuildID: "500", ChannelID: "600", Organiser: organiser, Name: "Friendly", Format: tttbot.RoundRobin,
		Shape: tttbot.Shape{Rows: 3, Cols: 3, K: 3}, RoundTime: time.Hour, MoveTimeout: time.Minute, Deadline: t0.Add(time.Hour), Unrated: true}
	if err := s.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	for _, p := range players(2) {
		if err := s.JoinTournament(ctx, tr.ID, p, 1500); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.StartTournament(ctx, tr.ID, organiser, b); err != nil {
		t.Fatal(err)
	}
	if g := mustGame(t, db, b.games[1][0].ID); !g.Unrated {
		t.Errorf("game of an unrated tournament: unrated %v", g.Unrated)
	}
}

// TestTournamentLanguage: a tournament's games speak the language the
// guild chose for its public messages, as the tournament's posts do.
func TestTournamentLanguage(t *testing.T) {
	tests := []struct {
		name, locale string
	}{
		{"chosen", "de"},
		{"Discord's server language", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, db, _ := newService(t, nil)
			if tt.locale != "" {
				if _, err := s.ChangeSettings(t.Context(), "500", func(st *tttbot.Settings) error {
					st.Locale = tt.locale
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
			b := &tournamentBoards{}
			tr := newTournament(t, s, tttbot.RoundRobin, 0, players(2)...)
			if err := s.StartTournament(t.Context(), tr.ID, organiser, b); err != nil {
				t.Fatal(err)
			}
			if got := mustGame(t, db, b.games[1][0].ID).Language; got != tt.locale {
				t.Errorf("game's language: got %q, want %q", got, tt.locale)
			}
		})
	}
}

// TestTournamentMessageRace: many players joining at once from an
// announcement whose message is not recorded yet each record it, and none
// fails for the others' joins.
func TestTournamentMessageRace(t *testing.T) {
	s, _, _ := newService(t, nil)
	tr := newTournament(t, s, tttbot.RoundRobin, 0)
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i, p := range players(len(errs)) {
		wg.Go(func() {
			if err := s.JoinTournament(t.Context(), tr.ID, p, 1500); err != nil {
				errs[i] = err
				return
			}
			errs[i] = s.SetTournamentMessage(t.Context(), tr.ID, "700")
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("player %d: %v", i, err)
		}
	}
	st, err := s.Tournament(t.Context(), tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.MessageID != "700" || len(st.Entrants) != len(errs) {
		t.Errorf("got %d entrants, message %q; want %d, 700", len(st.Entrants), st.MessageID, len(errs))
	}
	// A later message changes nothing: the announcement has one.
	if err := s.SetTournamentMessage(t.Context(), tr.ID, "701"); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Tournament(t.Context(), tr.ID); err != nil || st.MessageID != "700" {
		t.Errorf("after a second message: got %v (%v), want 700", st, err)
	}
}

// TestTournamentGamesStartedLate: a round saved without its games (the
// process died between the two) has them started at the next tick, before
// the round's deadline, and shown.
func TestTournamentGamesStartedLate(t *testing.T) {
	s, db, c := newService(t, nil)
	ctx := t.Context()
	b := &tournamentBoards{}
	tr := newTournament(t, s, tttbot.Swiss, 1, players(4)...)
	st, err := s.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	games, rounds, _ := st.NextRound()
	st.Status, st.Round, st.Rounds, st.Deadline = tttbot.TournamentRunning, 1, rounds, c.now.Add(time.Hour)
	if err := db.Advance(ctx, &st.Tournament, games); err != nil {
		t.Fatal(err)
	}
	// The instance that advanced it died before it started the games: its
	// claim holds the boards until it ends.
	if _, err := s.FireTournaments(ctx, b, &boards{}); err != nil || len(b.late) != 0 {
		t.Fatalf("within the claim: %d games started late (%v), want none", len(b.late), err)
	}
	c.now = c.now.Add(tttbot.ClaimLease)
	if _, err := s.FireTournaments(ctx, b, &boards{}); err != nil {
		t.Fatal(err)
	}
	if len(b.late) != 2 || len(b.rounds) != 0 {
		t.Fatalf("started late: %d games shown, %d rounds reposted; want 2 and none", len(b.late), len(b.rounds))
	}
	st, err = s.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range st.Games {
		if tg.GameID == 0 {
			t.Errorf("board %d has no game after the tick", tg.Board)
		}
	}
	for _, g := range b.late {
		finish(t, s, db, b, g.ID, whiteWins)
	}
	if len(b.over) != 1 {
		t.Errorf("the round's games over: shown over %d times, want once", len(b.over))
	}
}

// TestTournamentAbsentBothLose: a board whose game saw no move by the
// round's deadline is lost by both, and so says the game itself — both
// lost on time, no one rated —, not only the tournament's table.
func TestTournamentAbsentBothLose(t *testing.T) {
	s, db, c := newService(t, nil)
	ctx := t.Context()
	b := &tournamentBoards{}
	tr := newTournament(t, s, tttbot.Swiss, 1, players(4)...)
	if err := s.StartTournament(ctx, tr.ID, organiser, b); err != nil {
		t.Fatal(err)
	}
	if len(b.games[1]) != 2 {
		t.Fatalf("round 1: %d games started, want 2", len(b.games[1]))
	}
	finish(t, s, db, b, b.games[1][0].ID, whiteWins)
	absent := b.games[1][1].ID
	c.now = c.now.Add(time.Hour)
	fired := &boards{}
	if _, err := s.FireTournaments(ctx, b, fired); err != nil {
		t.Fatal(err)
	}
	g := mustGame(t, db, absent)
	if !g.BothLost() || g.Winner != "" {
		t.Errorf("the game with no move: %s by %s, won by %q; want lost on time by both", g.Status, g.Reason, g.Winner)
	}
	if fired.count() != 1 {
		t.Errorf("%d boards shown at the deadline, want the game's 1", fired.count())
	}
	st, err := s.Tournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range st.Games {
		if tg.GameID == absent && (tg.Result != tttbot.ResultBothLose || tttbot.TournamentResultOf(tg, g) != tttbot.ResultBothLose) {
			t.Errorf("the board: %s, its game's result %s; want both lose", tg.Result, tttbot.TournamentResultOf(tg, g))
		}
	}
	for _, p := range []string{g.XPlayer, g.OPlayer} {
		stats, err := db.Stats(ctx, "500", p)
		if err != nil {
			t.Fatal(err)
		}
		if len(stats.Ratings) != 0 {
			t.Errorf("%s: rated by a game no one played: %+v", p, stats.Ratings)
		}
	}
}
