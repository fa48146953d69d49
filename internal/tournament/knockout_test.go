package tournament

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestKnockoutSeedsAndByes(t *testing.T) {
	tests := []struct {
		n    int
		want Round
	}{
		{4, Round{{White: 0, Black: 3}, {White: 2, Black: 1}}},
		// A draw of 8: seeds 1, 2 and 3 have byes (the missing 8, 7, 6).
		{5, Round{{White: 0, Black: Bye, Result: WhiteWins}, {White: 3, Black: 4}, {White: 1, Black: Bye, Result: WhiteWins}, {White: 2, Black: Bye, Result: WhiteWins}}},
		{8, Round{{White: 0, Black: 7}, {White: 4, Black: 3}, {White: 1, Black: 6}, {White: 5, Black: 2}}},
	}
	for _, tt := range tests {
		got, done := Knockout(make([]Player, tt.n), nil)
		if done {
			t.Fatalf("n=%d: done before round 1", tt.n)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("n=%d round 1 (-want +got):\n%s", tt.n, diff)
		}
	}
}

func TestKnockoutToTheFinal(t *testing.T) {
	players := make([]Player, 8)
	var played []Round
	decide := []func(Game) Result{
		// Round 1: White wins 0–7 and 1–6; 4–3 drawn: Black (3) goes
		// through; 5–2 both lose: 1 will advance without playing.
		func(g Game) Result {
			switch g.White {
			case 4:
				return Draw
			case 5:
				return BothLose
			}
			return WhiteWins
		},
		func(Game) Result { return BlackWins },
		func(Game) Result { return WhiteWins },
	}
	for _, d := range decide {
		r, done := Knockout(players, played)
		if done {
			t.Fatalf("done after %d rounds", len(played))
		}
		for i := range r {
			if r[i].Result == Pending {
				r[i].Result = d(r[i])
			}
		}
		played = append(played, r)
	}
	if got, want := played[1], (Round{{White: 3, Black: 0, Result: BlackWins}, {White: 1, Black: Bye, Result: WhiteWins}}); !cmp.Equal(got, want) {
		t.Errorf("round 2 = %v, want %v", got, want)
	}
	if r, done := Knockout(players, played); !done {
		t.Fatalf("round 4 = %v, want done", r)
	}
	var got []Standing
	for _, s := range KnockoutStandings(players, played)[:4] {
		got = append(got, Standing{Player: s.Player, Rank: s.Rank})
	}
	// Final 0–1, White won: 0 (colour difference 0 after White, Black)
	// had White over 1 (+1 after White and a bye): 0 champion, 1 second; 3,
	// out in the semi-final, is third alone, as 1's semi-final was a bye.
	want := []Standing{{Player: 0, Rank: 1}, {Player: 1, Rank: 2}, {Player: 3, Rank: 3}, {Player: 2, Rank: 4}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("standings (-want +got):\n%s", diff)
	}
}

func TestKnockoutWithdrawal(t *testing.T) {
	players := make([]Player, 4)
	r1, _ := Knockout(players, nil)
	r1[0].Result, r1[1].Result = WhiteWins, WhiteWins // 0 and 2 win
	players[2].Withdrawn = true
	got, done := Knockout(players, []Round{r1})
	want := Round{{White: 0, Black: Bye, Result: WhiteWins}}
	if done || !cmp.Equal(got, want) {
		t.Errorf("final = %v, %v; want %v", got, done, want)
	}
}

func TestKnockoutStandingsSharedThird(t *testing.T) {
	players := make([]Player, 4)
	var played []Round
	for {
		r, done := Knockout(players, played)
		if done {
			break
		}
		for i := range r {
			r[i].Result = WhiteWins
		}
		played = append(played, r)
	}
	var ranks []int
	for _, s := range KnockoutStandings(players, played) {
		ranks = append(ranks, s.Rank)
	}
	if want := []int{1, 2, 3, 3}; !cmp.Equal(ranks, want) {
		t.Errorf("ranks = %v, want %v", ranks, want)
	}
}
