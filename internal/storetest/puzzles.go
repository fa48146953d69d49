package storetest

import (
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/puzzle"
	"github.com/tttbot/tttbot/internal/rating"
)

// puzzles returns n starter puzzles of shape code, rated r, r+step, ….
func puzzles(t testing.TB, code string, n int, r, step float64) []tttbot.Puzzle {
	t.Helper()
	all := Must[[]tttbot.Puzzle](t)(puzzle.Starter())
	var out []tttbot.Puzzle
	for _, p := range all {
		if p.Shape.Code() == code && len(out) < n {
			p.R = r + step*float64(len(out))
			out = append(out, p)
		}
	}
	if len(out) != n {
		t.Fatalf("%d starter puzzles of %s, want %d", len(out), code, n)
	}
	return out
}

// testPuzzles: puzzles are stored once by ID, read back as stored, and
// refused whole when one breaks the rules.
func testPuzzles(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	ps := puzzles(t, "5x5k4", 3, 1500, 100)
	ps[1].GameID = 7
	if n := Must[int](t)(db.AddPuzzles(ctx, ps, t0)); n != 3 {
		t.Errorf("added %d, want 3", n)
	}
	again := append(puzzles(t, "5x5k4", 3, 900, 0), puzzles(t, "3x3k3", 1, 800, 0)...)
	if n := Must[int](t)(db.AddPuzzles(ctx, again, t0)); n != 1 {
		t.Errorf("added %d again, want 1: a stored ID keeps its puzzle", n)
	}
	for _, want := range ps {
		got := Must[*tttbot.Puzzle](t)(db.Puzzle(ctx, want.ID))
		if diff := gocmp.Diff(&want, got); diff != "" {
			t.Errorf("puzzle %s (-want +got):\n%s", want.ID, diff)
		}
	}
	_, err := db.Puzzle(ctx, "5x5k4-none")
	WantCode(t, err, tttbot.ENOTFOUND)

	bad := puzzles(t, "4x4k3", 2, 1000, 0)
	bad[1].Line = bad[1].Line[:len(bad[1].Line)-1]
	_, err = db.AddPuzzles(ctx, bad, t0)
	WantCode(t, err, tttbot.EINVALID)
	if n := countRows(t, db, "puzzles"); n != 4 {
		t.Errorf("%d puzzles stored after a refused batch, want 4", n)
	}
}

// testNextPuzzle: the puzzle offered is the unseen one rated nearest the
// player's rating, of the shape asked for or any.
func testNextPuzzle(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	big := puzzles(t, "5x5k4", 3, 1000, 300)   // 1000, 1300, 1600
	small := puzzles(t, "3x3k3", 2, 1250, 500) // 1250, 1750
	Must[int](t)(db.AddPuzzles(ctx, append(big, small...), t0))
	next := func(player string, shape tttbot.Shape, r float64) string {
		t.Helper()
		p, err := db.NextPuzzle(ctx, player, shape, r)
		if tttbot.ErrorCode(err) == tttbot.ENOTFOUND {
			return ""
		}
		OK(t, err)
		return p.ID
	}
	any, five := tttbot.Shape{}, tttbot.Shape{Rows: 5, Cols: 5, K: 4}
	tests := []struct {
		shape tttbot.Shape
		r     float64
		want  string
	}{
		{any, 1260, small[0].ID},
		{five, 1260, big[1].ID},
		{five, 1100, big[0].ID},
		{five, 9000, big[2].ID},
		{any, 0, big[0].ID},
		{tttbot.Shape{Rows: 4, Cols: 4, K: 4}, 1500, ""},
	}
	for _, tt := range tests {
		if got := next("ann", tt.shape, tt.r); got != tt.want {
			t.Errorf("NextPuzzle(%v, %v) = %q, want %q", tt.shape, tt.r, got, tt.want)
		}
	}
	// Seen puzzles are skipped, until none is left.
	attempt := func(id string) {
		t.Helper()
		Must[tttbot.PuzzleAttempt](t)(first(db.AttemptPuzzle(ctx, tttbot.PuzzleAttempt{Player: "ann", PuzzleID: id, At: t0}, tttbot.Player{})))
	}
	attempt(big[1].ID)
	if got := next("ann", five, 1290); got != big[0].ID {
		t.Errorf("after 1300 seen: got %q, want the 1000 one (nearer 1290 than 1600)", got)
	}
	if got := next("bob", five, 1300); got != big[1].ID {
		t.Errorf("another player: got %q, want %q", got, big[1].ID)
	}
	attempt(big[0].ID)
	attempt(big[2].ID)
	if got := next("ann", five, 1300); got != "" {
		t.Errorf("every 5×5 puzzle seen: got %q, want none", got)
	}
}

// first drops the standing AttemptPuzzle returns.
func first(a tttbot.PuzzleAttempt, _ tttbot.PuzzleStanding, err error) (tttbot.PuzzleAttempt, error) {
	return a, err
}

// testPuzzleAttempts: a first attempt is a rated game between the player
// and the puzzle, both ratings move as the domain says, and streaks count;
// a replay is stored unrated and changes nothing; an attempt at no puzzle
// stores nothing; an erasure deletes the player's puzzle rows.
func testPuzzleAttempts(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	ps := puzzles(t, "4x4k3", 7, 1400, 50)
	Must[int](t)(db.AddPuzzles(ctx, ps, t0))

	var want tttbot.PuzzleStanding
	at := t0
	for i, solved := range []bool{true, true, false, true, true, true} {
		at = at.Add(time.Minute)
		before := Must[*tttbot.Puzzle](t)(db.Puzzle(ctx, ps[i].ID))
		wantPuzzle := rating.Rating{}
		want, wantPuzzle = tttbot.RatePuzzle(want, rating.Rating{R: before.R, RD: before.RD, Sigma: before.Sigma}, solved, at)
		want.Player = "ann"
		a, got, err := db.AttemptPuzzle(ctx, tttbot.PuzzleAttempt{Player: "ann", PuzzleID: ps[i].ID, Solved: solved, Plies: 5, Took: 9 * time.Second, At: at},
			tttbot.Player{Name: "Ann"})
		OK(t, err)
		if !a.Rated {
			t.Errorf("attempt %d: not rated, want a first attempt rated", i)
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("attempt %d: standing (-want +got):\n%s", i, diff)
		}
		after := Must[*tttbot.Puzzle](t)(db.Puzzle(ctx, ps[i].ID))
		if after.R != wantPuzzle.R || after.RD != wantPuzzle.RD || after.Sigma != wantPuzzle.Sigma {
			t.Errorf("attempt %d: puzzle rated %v ± %v, want %v ± %v", i, after.R, after.RD, wantPuzzle.R, wantPuzzle.RD)
		}
	}
	if want.Streak != 3 || want.Best != 3 || want.Solves != 5 || want.Attempts != 6 {
		t.Fatalf("the expected record is off: %+v", want)
	}
	// A replay: stored, unrated, nothing moves.
	puzzleBefore := Must[*tttbot.Puzzle](t)(db.Puzzle(ctx, ps[0].ID))
	a, got, err := db.AttemptPuzzle(ctx, tttbot.PuzzleAttempt{Player: "ann", PuzzleID: ps[0].ID, Solved: false, At: at.Add(time.Minute)}, tttbot.Player{})
	OK(t, err)
	if a.Rated || got != want {
		t.Errorf("replay: rated %v, standing %+v; want unrated and %+v", a.Rated, got, want)
	}
	if p := Must[*tttbot.Puzzle](t)(db.Puzzle(ctx, ps[0].ID)); p.R != puzzleBefore.R || p.RD != puzzleBefore.RD {
		t.Errorf("replay moved the puzzle: %v ± %v, want %v ± %v", p.R, p.RD, puzzleBefore.R, puzzleBefore.RD)
	}
	if n := countRows(t, db, "puzzle_attempts"); n != 7 {
		t.Errorf("%d attempts stored, want 7", n)
	}
	// The standing as read, with its name and rank (ann is the one
	// ranked player).
	s := Must[tttbot.PuzzleStanding](t)(db.PuzzleStanding(ctx, "ann"))
	want.Name, want.Rank = "Ann", 1
	if diff := gocmp.Diff(want, s); diff != "" {
		t.Errorf("PuzzleStanding (-want +got):\n%s", diff)
	}
	// The leaderboard lists ann, the one player with 5 rated attempts;
	// bob, with one, is not ranked.
	Must[tttbot.PuzzleAttempt](t)(first(db.AttemptPuzzle(ctx, tttbot.PuzzleAttempt{Player: "bob", PuzzleID: ps[0].ID, Solved: true, At: at}, tttbot.Player{})))
	page := Must[tttbot.PuzzleLeaderboardPage](t)(db.PuzzleLeaderboard(ctx, 0, 10))
	if diff := gocmp.Diff(tttbot.PuzzleLeaderboardPage{Standings: []tttbot.PuzzleStanding{want}, Total: 1}, page); diff != "" {
		t.Errorf("PuzzleLeaderboard (-want +got):\n%s", diff)
	}
	if page := Must[tttbot.PuzzleLeaderboardPage](t)(db.PuzzleLeaderboard(ctx, 1, 10)); len(page.Standings) != 0 || page.Total != 1 {
		t.Errorf("the second page: %+v, want none of 1", page)
	}
	_, err = db.PuzzleLeaderboard(ctx, -1, 10)
	WantCode(t, err, tttbot.EINVALID)
	if s := Must[tttbot.PuzzleStanding](t)(db.PuzzleStanding(ctx, "nobody")); s != (tttbot.PuzzleStanding{Player: "nobody"}) {
		t.Errorf("a stranger's standing: %+v", s)
	}
	// An attempt at no puzzle, or a bad one, stores nothing.
	_, _, err = db.AttemptPuzzle(ctx, tttbot.PuzzleAttempt{Player: "ann", PuzzleID: "4x4k3-none", At: at}, tttbot.Player{})
	WantCode(t, err, tttbot.ENOTFOUND)
	_, _, err = db.AttemptPuzzle(ctx, tttbot.PuzzleAttempt{Player: "ann", PuzzleID: ps[6].ID, Plies: -1, At: at}, tttbot.Player{})
	WantCode(t, err, tttbot.EINVALID)
	if n := countRows(t, db, "puzzle_attempts"); n != 8 {
		t.Errorf("%d attempts stored after refusals, want 8", n)
	}

	Must[*tttbot.Erasure](t)(db.ForgetPlayer(ctx, "ann", at))
	for _, table := range []string{"puzzle_attempts", "puzzle_ratings"} {
		var n int
		OK(t, db.SQL.QueryRow("SELECT count(*) FROM "+table+" WHERE player_id = 'ann'").Scan(&n))
		if n != 0 {
			t.Errorf("%s: %d rows of ann's left after her erasure", table, n)
		}
	}
}

// testPuzzleAttemptsAtOnce: the same first attempt sent many times at
// once, as several instances may, is rated once.
func testPuzzleAttemptsAtOnce(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	ps := puzzles(t, "4x4k4", 1, 1500, 0)
	Must[int](t)(db.AddPuzzles(ctx, ps, t0))
	var wg sync.WaitGroup
	rated := make([]bool, 8)
	for i := range rated {
		wg.Go(func() {
			a, _, err := db.AttemptPuzzle(ctx, tttbot.PuzzleAttempt{Player: "ann", PuzzleID: ps[0].ID, Solved: true, At: t0.Add(time.Duration(i) * time.Millisecond)}, tttbot.Player{})
			if err != nil {
				t.Error(err)
			}
			rated[i] = a.Rated
		})
	}
	wg.Wait()
	n := 0
	for _, r := range rated {
		if r {
			n++
		}
	}
	s := Must[tttbot.PuzzleStanding](t)(db.PuzzleStanding(ctx, "ann"))
	if n != 1 || s.Attempts != 1 || s.Solves != 1 {
		t.Errorf("%d attempts rated, standing %+v; want one", n, s)
	}
}
