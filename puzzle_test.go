package tttbot

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/rating"
)

// fork3x3 is a 3×3 puzzle: O to move forks on the centre, X blocks one
// line, O completes the other.
func fork3x3(t *testing.T) Puzzle {
	t.Helper()
	pos, err := game.Parse("XO./X.X/O..", 0)
	if err != nil {
		t.Fatal(err)
	}
	return Puzzle{
		ID: PuzzleID(pos), Shape: Shape{3, 3, 3}, Start: "XO./X.X/O..", Kind: PuzzleMissed,
		Line: []PuzzleMove{{Cell: 4, Wins: 1 << 4}, {Cell: 2}, {Cell: 7, Wins: 1 << 7}},
	}
}

func TestPuzzleValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Puzzle)
		ok     bool
	}{
		{"valid", func(*Puzzle) {}, true},
		{"another winning move listed", func(p *Puzzle) { p.Line[2].Wins |= 1 << 8 }, true},
		{"wrong ID", func(p *Puzzle) { p.ID = "3x3k3-1" }, false},
		{"unknown kind", func(p *Puzzle) { p.Kind = "lucky" }, false},
		{"bad shape", func(p *Puzzle) { p.Shape = Shape{2, 2, 2} }, false},
		{"bad start", func(p *Puzzle) { p.Start = "XX./.../..." }, false},
		{"even line", func(p *Puzzle) { p.Line = p.Line[:2] }, false},
		{"move outside its winning set", func(p *Puzzle) { p.Line[0].Wins = 1 << 8 }, false},
		{"defence with a winning set", func(p *Puzzle) { p.Line[1].Wins = 1 << 2 }, false},
		{"winning set on a taken cell", func(p *Puzzle) { p.Line[0].Wins |= 1 << 0 }, false},
		{"taken cell", func(p *Puzzle) { p.Line[1].Cell = 4 }, false},
		{"no win at the end", func(p *Puzzle) { p.Line[2] = PuzzleMove{Cell: 8, Wins: 1 << 8} }, false},
		{"moves after the win", func(p *Puzzle) {
			p.Line = append(p.Line, PuzzleMove{Cell: 5}, PuzzleMove{Cell: 8, Wins: 1 << 8})
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := fork3x3(t)
			tt.change(&p)
			err := p.Validate()
			if (err == nil) != tt.ok {
				t.Errorf("got %v, want ok %v", err, tt.ok)
			}
			if err != nil && ErrorCode(err) != EINVALID {
				t.Errorf("got code %q, want %q", ErrorCode(err), EINVALID)
			}
		})
	}
}

// A puzzle's ID is the same for every image of its start and differs for
// positions not equal up to symmetry.
func TestPuzzleID(t *testing.T) {
	pos, err := game.Parse("X..../.O.../..X../...../.....", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := PuzzleID(pos)
	if want[:6] != "5x5k4-" {
		t.Errorf("got ID %q, want it to start with the shape", want)
	}
	for s := range pos.Geometry().Symmetries() {
		if got := PuzzleID(pos.Map(s)); got != want {
			t.Errorf("image %d (%s): got %s, want %s", s, pos.Map(s), got, want)
		}
	}
	other, _ := game.Parse(".X.../.O.../..X../...../.....", 0)
	if PuzzleID(other) == want {
		t.Errorf("%s and %s share the ID %s", pos, other, want)
	}
}

func TestLineRoundTrip(t *testing.T) {
	line := []PuzzleMove{{Cell: 12, Wins: 1<<12 | 1<<7 | 1<<17}, {Cell: 3}, {Cell: 24, Wins: 1 << 24}}
	s := FormatLine(line)
	if want := "12+7+17 3 24"; s != want {
		t.Errorf("got %q, want %q", s, want)
	}
	got, err := ParseLine(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(line, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"", "a", "1 2+3 4", "25", "-1", "1+", "3 4 5+x"} {
		if _, err := ParseLine(bad); err == nil {
			t.Errorf("ParseLine(%q): got no error", bad)
		}
	}
}

// FuzzParseLine: a line that parses is written back to text that parses to
// the same line.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"4 2 7", "12+7+17 3 24", "1+1 2", " 0  1 ", "3+x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		line, err := ParseLine(s)
		if err != nil {
			return
		}
		again, err := ParseLine(FormatLine(line))
		if err != nil {
			t.Fatalf("ParseLine(FormatLine(%v)): %v", line, err)
		}
		if diff := cmp.Diff(line, again); diff != "" {
			t.Errorf("%q: round trip (-first +second):\n%s", s, diff)
		}
	})
}

func TestParseShape(t *testing.T) {
	for code, want := range map[string]Shape{"3x3k3": {3, 3, 3}, "5x5k4": {5, 5, 4}, "4x5k4": {4, 5, 4}} {
		got, err := ParseShape(code)
		if err != nil || got != want || got.Code() != code {
			t.Errorf("ParseShape(%q) = %v, %v; want %v", code, got, err, want)
		}
	}
	for _, bad := range []string{"", "5x5", "5x5k6", "2x2k2", "5x5k4x", "axbkc"} {
		if _, err := ParseShape(bad); ErrorCode(err) != EINVALID {
			t.Errorf("ParseShape(%q): got %v, want an EINVALID error", bad, err)
		}
	}
}

// A puzzle is estimated harder the more moves the solver must find and
// the fewer of its moves win.
func TestEstimateRating(t *testing.T) {
	p := fork3x3(t)
	base := p.EstimateRating()
	if base.RD != rating.DefaultRD || base.R < 600 || base.R > 2800 {
		t.Errorf("got %+v, want a rating within 600–2800 at the default deviation", base)
	}
	easier := fork3x3(t)
	easier.Line[2].Wins |= 1 << 8 // a second move would have won too
	if got := easier.EstimateRating(); got.R >= base.R {
		t.Errorf("two winning last moves: got %v, want below %v", got.R, base.R)
	}
	longer := Puzzle{Shape: Shape{3, 3, 3}, Start: "X../.O./...", Line: []PuzzleMove{{1, 1}, {2, 0}, {3, 1}, {4, 0}, {5, 1}}}
	if got := longer.EstimateRating(); got.R <= base.R {
		t.Errorf("five plies: got %v, want above %v's three", got.R, base.R)
	}
}

// TestRatePuzzle: an attempt is a Glicko-2 game between the player and the
// puzzle: a solve raises the player and lowers the puzzle, a failure the
// other way round, and the record and streak count it.
func TestRatePuzzle(t *testing.T) {
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	puzzle := rating.Rating{R: 1500, RD: 200, Sigma: 0.06}
	tests := []struct {
		name   string
		before PuzzleStanding
		solved bool
		want   PuzzleStanding // the record; R is checked for direction only
		up     bool
	}{
		{"first solve", PuzzleStanding{}, true, PuzzleStanding{Attempts: 1, Solves: 1, Streak: 1, Best: 1}, true},
		{"first failure", PuzzleStanding{}, false, PuzzleStanding{Attempts: 1}, false},
		{"streak grows", PuzzleStanding{R: 1500, RD: 100, Sigma: 0.06, Attempts: 4, Solves: 3, Streak: 2, Best: 2, UpdatedAt: at}, true,
			PuzzleStanding{Attempts: 5, Solves: 4, Streak: 3, Best: 3}, true},
		{"streak ends, best stays", PuzzleStanding{R: 1500, RD: 100, Sigma: 0.06, Attempts: 9, Solves: 8, Streak: 5, Best: 7, UpdatedAt: at}, false,
			PuzzleStanding{Attempts: 10, Solves: 8, Streak: 0, Best: 7}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, gotPuzzle := RatePuzzle(tt.before, puzzle, tt.solved, at)
			from := tt.before.R
			if tt.before.RD == 0 {
				from = rating.DefaultR
			}
			if (got.R > from) != tt.up || (gotPuzzle.R < puzzle.R) != tt.up {
				t.Errorf("player %v → %v, puzzle %v → %v; want the player up %v and the puzzle the other way", from, got.R, puzzle.R, gotPuzzle.R, tt.up)
			}
			fromRD := tt.before.RD
			if fromRD == 0 {
				fromRD = rating.DefaultRD
			}
			if got.RD >= fromRD || gotPuzzle.RD >= puzzle.RD {
				t.Errorf("deviations %v and %v: want both to shrink", got.RD, gotPuzzle.RD)
			}
			if !got.UpdatedAt.Equal(at) {
				t.Errorf("got UpdatedAt %v, want %v", got.UpdatedAt, at)
			}
			record := PuzzleStanding{Attempts: got.Attempts, Solves: got.Solves, Streak: got.Streak, Best: got.Best}
			if record != tt.want {
				t.Errorf("got record %+v, want %+v", record, tt.want)
			}
		})
	}
}

// TestPuzzleAttemptRate: a first attempt is rated as RatePuzzle rates it,
// a replay changes neither rating; an attempt without a player, a puzzle
// or a time, or with negative plies or duration, is refused.
func TestPuzzleAttemptRate(t *testing.T) {
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	before := PuzzleStanding{Player: "ann", R: 1600, RD: 80, Sigma: 0.06, Attempts: 3, Solves: 2, Streak: 1, Best: 2, UpdatedAt: at}
	puzzle := rating.Rating{R: 1400, RD: 150, Sigma: 0.06}
	a := PuzzleAttempt{Player: "ann", PuzzleID: "3x3k3-x", Solved: true, At: at}

	got, gotStanding, gotPuzzle := a.Rate(before, puzzle, false)
	wantStanding, wantPuzzle := RatePuzzle(before, puzzle, true, at)
	if !got.Rated || gotStanding != wantStanding || gotPuzzle != wantPuzzle {
		t.Errorf("first attempt: rated %v, %+v, %+v; want rated, %+v, %+v", got.Rated, gotStanding, gotPuzzle, wantStanding, wantPuzzle)
	}
	got, gotStanding, gotPuzzle = a.Rate(before, puzzle, true)
	if got.Rated || gotStanding != before || gotPuzzle != puzzle {
		t.Errorf("replay: rated %v, %+v, %+v; want nothing changed", got.Rated, gotStanding, gotPuzzle)
	}

	if err := CheckAttempt(a); err != nil {
		t.Errorf("a good attempt: %v", err)
	}
	for _, bad := range []func(*PuzzleAttempt){
		func(a *PuzzleAttempt) { a.Player = "" },
		func(a *PuzzleAttempt) { a.PuzzleID = "" },
		func(a *PuzzleAttempt) { a.At = time.Time{} },
		func(a *PuzzleAttempt) { a.Plies = -1 },
		func(a *PuzzleAttempt) { a.Took = -time.Second },
	} {
		b := a
		bad(&b)
		if ErrorCode(CheckAttempt(b)) != EINVALID {
			t.Errorf("%+v: got %v, want EINVALID", b, CheckAttempt(b))
		}
	}
}
