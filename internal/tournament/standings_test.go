package tournament

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rr builds decided rounds from (white, black, result) triples, one game a
// round: the order of rounds does not matter to the standings.
func rr(games ...Game) []Round {
	var rounds []Round
	for _, g := range games {
		rounds = append(rounds, Round{g})
	}
	return rounds
}

func TestStandingsSonnebornBergerWorkedExample(t *testing.T) {
	// Sensei's Library, "Sonneborn-Berger" (senseis.xmp.net, snapshot of
	// 2003-08-25; the same table on fiveinline.com/sbps.html): a double round
	// robin of A, B, C, D without draws. Scores 4, 4, 3, 1; Sonneborn-Berger
	// A 4+3+3+1 = 11, B 4+3+1+1 = 9, C 4+1+1 = 6, D 4; "A is the tournament
	// winner" on the tie with B.
	const a, b, c, d = 0, 1, 2, 3
	rounds := rr(
		// First cycle.
		Game{a, b, WhiteWins}, Game{a, c, WhiteWins}, Game{a, d, WhiteWins},
		Game{b, c, WhiteWins}, Game{b, d, WhiteWins}, Game{c, d, WhiteWins},
		// Second cycle.
		Game{b, a, WhiteWins}, Game{c, a, BlackWins}, Game{d, a, WhiteWins},
		Game{c, b, WhiteWins}, Game{d, b, BlackWins}, Game{d, c, BlackWins},
	)
	got := Standings(make([]Player, 4), rounds)
	// Buchholz, each opponent met twice: A and B 2·(4+3+1) = 16, C 2·(4+4+1)
	// = 18, D 2·(4+4+3) = 22.
	want := []Standing{
		{Player: a, Rank: 1, Points: 4, Buchholz: 16, SonnebornBerger: 11, Wins: 4, Losses: 2},
		{Player: b, Rank: 2, Points: 4, Buchholz: 16, SonnebornBerger: 9, Wins: 4, Losses: 2},
		{Player: c, Rank: 3, Points: 3, Buchholz: 18, SonnebornBerger: 6, Wins: 3, Losses: 3},
		{Player: d, Rank: 4, Points: 1, Buchholz: 22, SonnebornBerger: 4, Wins: 1, Losses: 5},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("standings (-want +got):\n%s", diff)
	}
}

func TestStandingsTieBreakOrder(t *testing.T) {
	tests := []struct {
		name    string
		players []Player
		rounds  []Round
		want    []int // players, first place first
	}{{
		// 0 and 1 tie on 1½ points, Buchholz 4½ and Sonneborn-Berger 2;
		// 1 beat 0, so 1 is ahead though 0 is rated higher.
		name:    "head to head before rating",
		players: []Player{{Rating: 1600}, {Rating: 1500}, {Rating: 1500}, {Rating: 1500}},
		rounds: rr(Game{0, 1, BlackWins}, Game{0, 2, WhiteWins}, Game{0, 3, Draw},
			Game{1, 2, Draw}, Game{1, 3, BlackWins}, Game{2, 3, Draw}),
		want: []int{3, 1, 0, 2},
	}, {
		// A cycle: A beat B, B beat C, C beat A, all beat D. Everything
		// ties among A, B and C, head to head too: rating decides.
		name:    "rating last",
		players: []Player{{Rating: 1400}, {Rating: 1600}, {Rating: 1500}, {Rating: 1900}},
		rounds: rr(Game{0, 1, WhiteWins}, Game{1, 2, WhiteWins}, Game{2, 0, WhiteWins},
			Game{0, 3, WhiteWins}, Game{1, 3, WhiteWins}, Game{2, 3, WhiteWins}),
		want: []int{1, 2, 0, 3},
	}, {
		name:    "both lose and a bye",
		players: make([]Player, 3),
		rounds:  rr(Game{0, 1, BothLose}, Game{2, Bye, WhiteWins}),
		want:    []int{2, 0, 1},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			for _, s := range Standings(tt.players, tt.rounds) {
				got = append(got, s.Player)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}
