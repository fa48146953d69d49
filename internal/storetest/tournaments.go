package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot"
)

// NewTournament is a Swiss tournament of channel, signing up until a minute
// after t0.
func NewTournament(channel string) *tttbot.Tournament {
	return &tttbot.Tournament{GuildID: "guild", ChannelID: channel, Organiser: "org", Name: "Cup " + channel,
		Format: tttbot.Swiss, Shape: tttbot.Shape{Rows: 3, Cols: 3, K: 3}, Rounds: 3,
		RoundTime: time.Hour, MoveTimeout: time.Minute, Status: tttbot.TournamentSignup,
		Deadline: t0.Add(time.Minute)}
}

// wantErr fails t unless err is want.
func wantErr(t testing.TB, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("got error %v, want %v", err, want)
	}
}

// testWebTournament: each tournament has its own opaque web ID, by which
// it reads back whole; an unknown or malformed ID is no tournament.
func testWebTournament(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	a, b := NewTournament("c1"), NewTournament("c2")
	OK(t, db.CreateTournament(ctx, a))
	OK(t, db.CreateTournament(ctx, b))
	if !tttbot.ValidWebID(a.WebID) || !tttbot.ValidWebID(b.WebID) || a.WebID == b.WebID {
		t.Fatalf("web IDs %q and %q: want two distinct opaque IDs", a.WebID, b.WebID)
	}
	OK(t, db.Enter(ctx, a.ID, tttbot.Entrant{Player: "ann", Rating: 1500, JoinedAt: t0}))
	got := Must[*tttbot.TournamentState](t)(db.WebTournament(ctx, a.WebID))
	want := Must[*tttbot.TournamentState](t)(db.Tournament(ctx, a.ID))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("by web ID (-by ID +by web ID):\n%s", diff)
	}
	for _, id := range []string{tttbot.NewWebID(), "", "../1", "ABCDEF0123456789"} {
		_, err := db.WebTournament(ctx, id)
		wantErr(t, err, tttbot.ErrNoTournament)
	}
}

// testTournament: a tournament's life in the store, with every refusal
// leaving it as it was.
func testTournament(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()

	bad := NewTournament("c")
	bad.Format = "ladder"
	WantCode(t, db.CreateTournament(ctx, bad), tttbot.EINVALID)
	_, err := db.Tournament(ctx, 404)
	wantErr(t, err, tttbot.ErrNoTournament)

	tr := NewTournament("c")
	OK(t, db.CreateTournament(ctx, tr))
	if tr.ID == 0 || tr.Version != 1 {
		t.Fatalf("created: ID %d, version %d", tr.ID, tr.Version)
	}
	got := Must[*tttbot.TournamentState](t)(db.Tournament(ctx, tr.ID))
	if diff := cmp.Diff(*tr, got.Tournament); diff != "" {
		t.Errorf("read back (-created +read):\n%s", diff)
	}

	// Sign-up: in joining order; twice refused; leaving takes off the list.
	for i, p := range []string{"ann", "bob", "cat", "dan"} {
		OK(t, db.Enter(ctx, tr.ID, tttbot.Entrant{Player: p, Rating: float64(1500 + i), JoinedAt: t0.Add(time.Duration(i) * time.Second)}))
	}
	wantErr(t, db.Enter(ctx, tr.ID, tttbot.Entrant{Player: "bob", Rating: 1}), tttbot.ErrAlreadyEntered)
	wantErr(t, db.Enter(ctx, 404, tttbot.Entrant{Player: "bob"}), tttbot.ErrNoTournament)
	OK(t, db.Leave(ctx, tr.ID, "dan"))
	wantErr(t, db.Leave(ctx, tr.ID, "dan"), tttbot.ErrNotEntered)
	wantErr(t, db.Leave(ctx, 404, "dan"), tttbot.ErrNoTournament)
	got = Must[*tttbot.TournamentState](t)(db.Tournament(ctx, tr.ID))
	want := []tttbot.Entrant{{Player: "ann", Rating: 1500, JoinedAt: t0},
		{Player: "bob", Rating: 1501, JoinedAt: t0.Add(time.Second)}, {Player: "cat", Rating: 1502, JoinedAt: t0.Add(2 * time.Second)}}
	if diff := cmp.Diff(want, got.Entrants); diff != "" {
		t.Errorf("entrants (-want +got):\n%s", diff)
	}

	// The start: round 1 with its games; a second start from the version
	// read before is refused and writes nothing.
	start := *tr
	tr.Status, tr.Round, tr.Deadline, tr.MessageID = tttbot.TournamentRunning, 1, t0.Add(time.Hour), "announce"
	games := []tttbot.TournamentGame{{Round: 1, Board: 1, White: "ann", Black: "cat"},
		{Round: 1, Board: 2, White: "bob", Result: tttbot.ResultWhite}}
	OK(t, db.Advance(ctx, tr, games))
	if tr.Version != 2 {
		t.Errorf("version after advance = %d, want 2", tr.Version)
	}
	start.Round = 1
	wantErr(t, db.Advance(ctx, &start, games), tttbot.ErrTournamentMoved)
	wantErr(t, db.Enter(ctx, tr.ID, tttbot.Entrant{Player: "eve"}), tttbot.ErrSignupClosed)
	WantCode(t, db.Advance(ctx, tr, []tttbot.TournamentGame{{Round: 2, Board: 1, White: "ann", Black: "ann"}}), tttbot.EINVALID)

	// Boards: a game linked once, a result decided once.
	OK(t, db.LinkGame(ctx, tr.ID, 1, 1, 77))
	wantErr(t, db.LinkGame(ctx, tr.ID, 1, 1, 78), tttbot.ErrGameDecided)
	wantErr(t, db.LinkGame(ctx, tr.ID, 1, 2, 79), tttbot.ErrGameDecided) // a bye has its result
	if got := Must[int64](t)(db.TournamentOfGame(ctx, 77)); got != tr.ID {
		t.Errorf("tournament of game 77 = %d, want %d", got, tr.ID)
	}
	if got := Must[int64](t)(db.TournamentOfGame(ctx, 78)); got != 0 {
		t.Errorf("tournament of game 78 = %d, want none", got)
	}
	OK(t, db.Decide(ctx, tr.ID, 1, 1, tttbot.ResultDraw))
	wantErr(t, db.Decide(ctx, tr.ID, 1, 1, tttbot.ResultBlack), tttbot.ErrGameDecided)
	wantErr(t, db.Decide(ctx, tr.ID, 1, 9, tttbot.ResultBlack), tttbot.ErrGameDecided)

	// Leaving once it runs withdraws.
	OK(t, db.Leave(ctx, tr.ID, "cat"))
	wantErr(t, db.Leave(ctx, tr.ID, "cat"), tttbot.ErrNotEntered)

	got = Must[*tttbot.TournamentState](t)(db.Tournament(ctx, tr.ID))
	wantGames := []tttbot.TournamentGame{{Round: 1, Board: 1, White: "ann", Black: "cat", Result: tttbot.ResultDraw, GameID: 77},
		{Round: 1, Board: 2, White: "bob", Result: tttbot.ResultWhite}}
	if diff := cmp.Diff(wantGames, got.Games); diff != "" {
		t.Errorf("games (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(*tr, got.Tournament); diff != "" {
		t.Errorf("tournament (-saved +read):\n%s", diff)
	}
	if !got.Entrants[2].Withdrawn || got.Entrants[0].Withdrawn {
		t.Errorf("entrants after cat left: %+v", got.Entrants)
	}

	// Over: no one leaves any more.
	tr.Status, tr.Deadline = tttbot.TournamentFinished, time.Time{}
	OK(t, db.Advance(ctx, tr, nil))
	wantErr(t, db.Leave(ctx, tr.ID, "ann"), tttbot.ErrSignupClosed)
	// The finished tournaments of its entrants, withdrawn or not; not of one
	// who left during the sign-up, nor of another guild.
	for player, want := range map[string][]int64{"ann": {tr.ID}, "cat": {tr.ID}, "dan": nil} {
		if got := Must[[]int64](t)(db.PlayerTournaments(ctx, "guild", player, 5)); !slices.Equal(got, want) {
			t.Errorf("%s's tournaments: %v, want %v", player, got, want)
		}
	}
	if got := Must[[]int64](t)(db.PlayerTournaments(ctx, "other", "ann", 5)); len(got) != 0 {
		t.Errorf("ann's tournaments in another guild: %v", got)
	}
	if due := Must[[]*tttbot.Tournament](t)(db.DueTournaments(ctx, t0.Add(24*time.Hour), 0)); len(due) != 0 {
		t.Errorf("a finished tournament is due: %v", due)
	}
}

// testTournamentStartsOnce: instances racing to start the same round from
// the same version: one does, once.
func testTournamentStartsOnce(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	tr := NewTournament("c")
	OK(t, db.CreateTournament(ctx, tr))
	const racers = 8
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i := range racers {
		wg.Go(func() {
			mine := *tr
			mine.Status, mine.Round = tttbot.TournamentRunning, 1
			errs[i] = db.Advance(ctx, &mine, []tttbot.TournamentGame{{Round: 1, Board: 1, White: "ann", Black: fmt.Sprint("p", i)}})
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, tttbot.ErrTournamentMoved):
			t.Errorf("advance: %v", err)
		}
	}
	got := Must[*tttbot.TournamentState](t)(db.Tournament(ctx, tr.ID))
	if won != 1 || len(got.Games) != 1 || got.Version != 2 {
		t.Errorf("%d advances won, %d games stored, version %d; want 1, 1, 2", won, len(got.Games), got.Version)
	}
}

// testDueTournaments: DueTournaments hands each due tournament to one caller
// among many; a claim runs out after ClaimLease; an Advance ends it.
func testDueTournaments(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	const n = 12
	var all []int64
	for i := range n {
		tr := NewTournament(fmt.Sprint("c", i))
		tr.Deadline = t0.Add(time.Duration(i) * time.Second)
		OK(t, db.CreateTournament(ctx, tr))
		all = append(all, tr.ID)
	}
	notYet := NewTournament("later")
	notYet.Deadline = t0.Add(time.Hour)
	OK(t, db.CreateTournament(ctx, notYet))
	at := t0.Add(time.Minute)

	got := claimRace(t, 4, func() (ids []int64, err error) {
		due, err := db.DueTournaments(ctx, at, 2)
		for _, tr := range due {
			ids = append(ids, tr.ID)
		}
		return ids, err
	})
	if !slices.Equal(got, all) {
		t.Fatalf("racing callers claimed %v, want each of %v once", got, all)
	}
	if due := Must[[]*tttbot.Tournament](t)(db.DueTournaments(ctx, at.Add(tttbot.ClaimLease-time.Millisecond), 0)); len(due) != 0 {
		t.Errorf("before the claims run out: %d due, want none", len(due))
	}
	due := Must[[]*tttbot.Tournament](t)(db.DueTournaments(ctx, at.Add(tttbot.ClaimLease), 0))
	if len(due) != n || due[0].ID != all[0] {
		t.Fatalf("once the claims ran out: %d due, want %d, oldest deadline first", len(due), n)
	}
	// An Advance ends the claim: due again at once.
	tr := due[0]
	tr.Status, tr.Round = tttbot.TournamentRunning, 1
	OK(t, db.Advance(ctx, tr, nil))
	again := Must[[]*tttbot.Tournament](t)(db.DueTournaments(ctx, at.Add(tttbot.ClaimLease), 0))
	if len(again) != 1 || again[0].ID != tr.ID || again[0].Status != tttbot.TournamentRunning {
		t.Errorf("after an advance: %v due, want tournament %d", again, tr.ID)
	}

	// A running tournament is due before its deadline while a board of its
	// round has no game; once linked, it is not.
	run := NewTournament("run")
	OK(t, db.CreateTournament(ctx, run))
	run.Status, run.Round, run.Deadline = tttbot.TournamentRunning, 1, t0.Add(24*time.Hour)
	OK(t, db.Advance(ctx, run, []tttbot.TournamentGame{{Round: 1, Board: 1, White: "ann", Black: "bob"},
		{Round: 1, Board: 2, White: "cat", Result: tttbot.ResultWhite}}))
	late := at.Add(2 * tttbot.ClaimLease)
	if due := Must[[]*tttbot.Tournament](t)(db.DueTournaments(ctx, late, 0)); !slices.ContainsFunc(due, func(d *tttbot.Tournament) bool { return d.ID == run.ID }) {
		t.Errorf("a round with a board without its game is not due")
	}
	OK(t, db.LinkGame(ctx, run.ID, 1, 1, 501))
	if due := Must[[]*tttbot.Tournament](t)(db.DueTournaments(ctx, late.Add(tttbot.ClaimLease), 0)); slices.ContainsFunc(due, func(d *tttbot.Tournament) bool { return d.ID == run.ID }) {
		t.Errorf("a round whose boards all have games is due before its deadline")
	}
}

// testForgetInTournaments: an erasure takes the player out of every
// tournament under a placeholder, withdrawn, the same in its entrants and
// games; two players forgotten from one tournament stay two.
func testForgetInTournaments(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	tr := NewTournament("c")
	OK(t, db.CreateTournament(ctx, tr))
	for _, p := range []string{"alice", "bob", "carol"} {
		OK(t, db.Enter(ctx, tr.ID, tttbot.Entrant{Player: p, Rating: 1500}))
	}
	tr.Status, tr.Round = tttbot.TournamentRunning, 1
	OK(t, db.Advance(ctx, tr, []tttbot.TournamentGame{{Round: 1, Board: 1, White: "alice", Black: "bob"},
		{Round: 1, Board: 2, White: "carol", Result: tttbot.ResultWhite}}))
	Must[*tttbot.Erasure](t)(db.ForgetPlayer(ctx, "alice", t0))
	Must[*tttbot.Erasure](t)(db.ForgetPlayer(ctx, "bob", t0))

	got := Must[*tttbot.TournamentState](t)(db.Tournament(ctx, tr.ID))
	forgotten := map[string]bool{}
	for _, e := range got.Entrants {
		switch {
		case e.Player == "carol":
		case tttbot.Forgotten(e.Player) && e.Withdrawn:
			forgotten[e.Player] = true
		default:
			t.Errorf("entrant %+v after the erasures", e)
		}
	}
	if len(forgotten) != 2 {
		t.Fatalf("forgotten entrants %v, want two placeholders", forgotten)
	}
	if g := got.Games[0]; !forgotten[g.White] || !forgotten[g.Black] || g.White == g.Black {
		t.Errorf("board 1 after the erasures: %+v, want the two placeholders", g)
	}
}

// testUnratedGame: an unrated game (a tournament's its organiser made
// unrated) keeps its result and history and changes no rating; the
// consistency check agrees.
func testUnratedGame(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	g := &tttbot.Game{GuildID: "guild", ChannelID: "c1", Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bob",
		XPlayer: "alice", OPlayer: "bob", Status: tttbot.StatusActive, Unrated: true, TurnTimeout: 45 * time.Second}
	OK(t, db.StartGame(ctx, g, nil))
	// Its own turn timeout clocks every turn (a tournament's move timeout).
	g = PlayCells(t, db, g, xWins[0])
	if got := Must[*tttbot.Game](t)(db.Game(ctx, g.ID)); got.TurnTimeout != 45*time.Second || !got.Deadline.Equal(t0.Add(time.Second+45*time.Second)) {
		t.Errorf("after a move: turn timeout %v, deadline %v; want 45s and %v", got.TurnTimeout, got.Deadline, t0.Add(46*time.Second))
	}
	g = PlayCells(t, db, g, xWins[1:]...)
	if got := Must[*tttbot.Game](t)(db.Game(ctx, g.ID)); !got.Unrated || got.Winner != "alice" {
		t.Fatalf("unrated game read back: unrated %v, winner %q", got.Unrated, got.Winner)
	}
	if n := countRows(t, db, "ratings"); n != 0 {
		t.Errorf("an unrated game left %d ratings", n)
	}
	if n := countRows(t, db, "results"); n != 2 {
		t.Errorf("an unrated game left %d results, want its 2", n)
	}
	problems, err := db.Check(ctx, nil)
	if err != nil || len(problems) != 0 {
		t.Errorf("check: %v, %v; want a sound database", problems, err)
	}
}

// testRoundOverUnplayed: a tournament's round running out before either
// player moved ends the game lost by both on time: each has a loss in the
// results, no one a rating, and the check agrees.
func testRoundOverUnplayed(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	g := StartGame(t, db, "c1", "alice", "bob")
	ended := Must[*tttbot.Game](t)(db.RoundOver(ctx, g.ID, t0.Add(time.Hour)))
	if !ended.BothLost() || ended.Winner != "" || ended.Version != g.Version+1 {
		t.Errorf("round over with no move: %s by %s, winner %q, version %d; want both lost on time, version %d",
			ended.Status, ended.Reason, ended.Winner, ended.Version, g.Version+1)
	}
	if got := Must[*tttbot.Game](t)(db.Game(ctx, g.ID)); !got.BothLost() {
		t.Errorf("read back: %s by %s, winner %q; want both lost on time", got.Status, got.Reason, got.Winner)
	}
	if n := countRows(t, db, "ratings"); n != 0 {
		t.Errorf("a game no one played left %d ratings", n)
	}
	for _, p := range []string{"alice", "bob"} {
		h := Must[[]tttbot.HistoryEntry](t)(db.History(ctx, p, "guild", 10))
		if len(h) != 1 || h[0].Outcome != tttbot.Loss || h[0].Reason != tttbot.ReasonTimeout {
			t.Errorf("%s's history: %+v; want one loss on time", p, h)
		}
	}
	problems, err := db.Check(ctx, nil)
	if err != nil || len(problems) != 0 {
		t.Errorf("check: %v, %v; want a sound database", problems, err)
	}
}

// testRoundOver: a tournament's round running out ends an active game as
// a loss on time of the player to move, once; the check agrees.
func testRoundOver(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	g := PlayCells(t, db, StartGame(t, db, "c1", "alice", "bob"), 4) // bob to move
	ended := Must[*tttbot.Game](t)(db.RoundOver(ctx, g.ID, t0.Add(time.Hour)))
	if ended.Status != tttbot.StatusFinished || ended.Reason != tttbot.ReasonTimeout || ended.Winner != g.Other(g.Turn) || ended.Version != g.Version+1 {
		t.Errorf("round over: %s by %s, winner %q, version %d; want finished on time, %q winning, version %d",
			ended.Status, ended.Reason, ended.Winner, ended.Version, g.Other(g.Turn), g.Version+1)
	}
	_, err := db.RoundOver(ctx, g.ID, t0.Add(time.Hour))
	WantCode(t, err, tttbot.EFINISHED)
	problems, err := db.Check(ctx, nil)
	if err != nil || len(problems) != 0 {
		t.Errorf("check: %v, %v; want a sound database", problems, err)
	}
}
