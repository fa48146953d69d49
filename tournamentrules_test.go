package tttbot

import (
	"slices"
	"testing"
	"time"
)

func TestTournamentValidate(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	ok := Tournament{Name: "Cup", Format: Swiss, Shape: Shape{Rows: 3, Cols: 3, K: 3}, Rounds: 3,
		RoundTime: time.Hour, MoveTimeout: time.Minute, Deadline: now.Add(time.Hour)}
	tests := []struct {
		name   string
		change func(*Tournament)
		ok     bool
	}{
		{"fine", func(*Tournament) {}, true},
		{"no name", func(t *Tournament) { t.Name = " " }, false},
		{"unknown format", func(t *Tournament) { t.Format = "ladder" }, false},
		{"Swiss without rounds", func(t *Tournament) { t.Rounds = 0 }, false},
		{"Swiss of 13", func(t *Tournament) { t.Rounds = 13 }, false},
		{"knockout without rounds", func(t *Tournament) { t.Format, t.Rounds = Knockout, 0 }, true},
		{"round of 30s", func(t *Tournament) { t.RoundTime = 30 * time.Second }, false},
		{"move longer than the round", func(t *Tournament) { t.MoveTimeout = 2 * time.Hour }, false},
		{"sign-up in the past", func(t *Tournament) { t.Deadline = now }, false},
		{"a minute's sign-up, reached a moment later", func(t *Tournament) { t.Deadline = now.Add(time.Minute - time.Millisecond) }, true},
		{"sign-up of 8 days", func(t *Tournament) { t.Deadline = now.Add(8 * 24 * time.Hour) }, false},
		{"bad shape", func(t *Tournament) { t.Shape.K = 6 }, false},
	}
	for _, tt := range tests {
		tr := ok
		tt.change(&tr)
		if err := tr.Validate(now); (err == nil) != tt.ok {
			t.Errorf("%s: Validate = %v, want ok %v", tt.name, err, tt.ok)
		}
	}
}

func TestTournamentResults(t *testing.T) {
	tg := TournamentGame{White: "w", Black: "b"}
	tests := []struct {
		name           string
		g              Game
		over, deadline TournamentResult
	}{
		{"White won", Game{Status: StatusFinished, Winner: "w", Reason: ReasonLine}, ResultWhite, ResultWhite},
		{"Black won on time", Game{Status: StatusFinished, Winner: "b", Reason: ReasonTimeout}, ResultBlack, ResultBlack},
		{"drawn", Game{Status: StatusFinished, Reason: ReasonDraw}, ResultDraw, ResultDraw},
		{"no move made", Game{Status: StatusActive, Board: ".../.../...", Turn: "w"}, ResultPending, ResultBothLose},
		{"White to move", Game{Status: StatusActive, Board: "XO./.../...", Turn: "w"}, ResultPending, ResultBlack},
		{"Black to move", Game{Status: StatusActive, Board: "X../.../...", Turn: "b"}, ResultPending, ResultWhite},
	}
	for _, tt := range tests {
		if got := TournamentResultOf(tg, &tt.g); got != tt.over {
			t.Errorf("%s: result %s, want %s", tt.name, got, tt.over)
		}
		if got := AtRoundDeadline(tg, &tt.g); got != tt.deadline {
			t.Errorf("%s: at the deadline %s, want %s", tt.name, got, tt.deadline)
		}
	}
}

func TestNextRoundRoundRobinForfeits(t *testing.T) {
	s := &TournamentState{Tournament: Tournament{Format: RoundRobin, Status: TournamentRunning},
		Entrants: []Entrant{{Player: "a", Rating: 1600}, {Player: "b", Rating: 1500, Withdrawn: true},
			{Player: "c", Rating: 1400}, {Player: "d", Rating: 1300}}}
	games, rounds, over := s.NextRound()
	if over || rounds != 3 {
		t.Fatalf("round 1 of a round robin of 4: over %v, rounds %d", over, rounds)
	}
	// Berger round 1: 1–4, 2–3; b (seed 2) has withdrawn: c wins it.
	want := []TournamentGame{{Round: 1, Board: 1, White: "a", Black: "d", Result: ResultPending},
		{Round: 1, Board: 2, White: "b", Black: "c", Result: ResultBlack}}
	if len(games) != 2 || games[0] != want[0] || games[1] != want[1] {
		t.Errorf("round 1 = %+v, want %+v", games, want)
	}
	s.Round, s.Games = 3, nil
	if _, _, over := s.NextRound(); !over {
		t.Errorf("after round 3 of 3: not over")
	}
}

// TestKnockoutReached: a knockout's table says the round each player is
// in, or went out in, not tie-breaks.
func TestKnockoutReached(t *testing.T) {
	entrants := []Entrant{{Player: "a", Rating: 1900}, {Player: "b", Rating: 1800}, {Player: "c", Rating: 1700},
		{Player: "d", Rating: 1600}, {Player: "e", Rating: 1500}, {Player: "f", Rating: 1400, Withdrawn: true}}
	round12 := []TournamentGame{
		{Round: 1, Board: 1, White: "a", Result: ResultWhite},
		{Round: 1, Board: 2, White: "b", Result: ResultWhite},
		{Round: 1, Board: 3, White: "c", Black: "f", Result: ResultWhite}, // f resigned as they left
		{Round: 1, Board: 4, White: "d", Black: "e", Result: ResultWhite},
		{Round: 2, Board: 1, White: "a", Black: "d", Result: ResultWhite},
		{Round: 2, Board: 2, White: "b", Black: "c", Result: ResultDraw}, // a draw sends Black through
	}
	type where struct {
		reached int
		out     bool
	}
	tests := []struct {
		name   string
		status TournamentStatus
		final  TournamentResult
		want   map[string]where
		winner string
	}{
		{"the final being played", TournamentRunning, ResultPending,
			map[string]where{"a": {3, false}, "c": {3, false}, "b": {2, true}, "d": {2, true}, "e": {1, true}, "f": {1, true}}, ""},
		{"the final won by Black", TournamentFinished, ResultBlack,
			map[string]where{"a": {3, true}, "c": {3, false}, "b": {2, true}, "d": {2, true}, "e": {1, true}, "f": {1, true}}, "c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &TournamentState{Tournament: Tournament{Format: Knockout, Status: tt.status, Round: 3, Rounds: 3}, Entrants: entrants,
				Games: append(slices.Clone(round12), TournamentGame{Round: 3, Board: 1, White: "a", Black: "c", Result: tt.final})}
			for _, p := range s.Standings() {
				if got := (where{p.Reached, p.Out}); got != tt.want[p.Player] {
					t.Errorf("%s: got %+v, want %+v", p.Player, got, tt.want[p.Player])
				}
				if got := p.Won(s.Rounds); got != (p.Player == tt.winner) {
					t.Errorf("%s: won %v", p.Player, got)
				}
			}
		})
	}
	// Through to round 2, then withdrawn before its pairing: out in round 2.
	s := &TournamentState{Tournament: Tournament{Format: Knockout, Status: TournamentRunning, Round: 2, Rounds: 2},
		Entrants: []Entrant{{Player: "x", Rating: 1600, Withdrawn: true}, {Player: "y", Rating: 1500}},
		Games:    []TournamentGame{{Round: 1, Board: 1, White: "x", Black: "y", Result: ResultWhite}}}
	for _, p := range s.Standings() {
		if p.Player == "x" && (p.Reached != 2 || !p.Out) {
			t.Errorf("withdrawn after going through: reached %d, out %v; want out in round 2", p.Reached, p.Out)
		}
	}
}
