package tournament

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// play decides every game of r at random: a bye stays a win.
func play(rng *rand.Rand, r Round) {
	for i := range r {
		if !r[i].IsBye() {
			r[i].Result = []Result{WhiteWins, BlackWins, Draw, BothLose}[rng.IntN(4)]
		}
	}
}

// checkRound fails t unless r pairs every active player once (at most one
// bye, and only for an odd field), repeats no pair of played, gives the bye
// to a player with the fewest byes so far, and leaves every colour
// difference within ±2.
func checkRound(t *testing.T, players []Player, played []Round, r Round) {
	t.Helper()
	h := newHistory(len(players), played)
	active, seen, byes := 0, make([]bool, len(players)), 0
	minByes := len(played) + 1
	for p, pl := range players {
		if !pl.Withdrawn {
			active++
			minByes = min(minByes, h.byes[p])
		}
	}
	for _, g := range r {
		for _, p := range []int{g.White, g.Black} {
			if p == Bye {
				continue
			}
			if players[p].Withdrawn {
				t.Fatalf("withdrawn player %d paired", p)
			}
			if seen[p] {
				t.Fatalf("player %d twice in a round: %v", p, r)
			}
			seen[p] = true
		}
		if g.IsBye() {
			byes++
			if h.byes[g.White] != minByes {
				t.Errorf("bye to %d, who had %d byes; someone had %d", g.White, h.byes[g.White], minByes)
			}
			continue
		}
		if h.met[g.White*h.n+g.Black] {
			t.Errorf("%d and %d meet twice", g.White, g.Black)
		}
	}
	if paired := 2*len(r) - byes; paired != active || byes != active%2 {
		t.Fatalf("%d of %d active players placed with %d byes", paired, active, byes)
	}
	after := newHistory(len(players), append(played[:len(played):len(played)], r))
	for p := range players {
		if d := after.diff(p); d < -2 || d > 2 {
			t.Errorf("player %d colour difference %d", p, d)
		}
	}
}

// swissEvent pairs and plays rounds of a Swiss event of n, withdrawing a
// player now and then, checking every round; it returns how many rounds
// were paired before ErrNoPairing, if any.
func swissEvent(t *testing.T, rng *rand.Rand, n, rounds int, withdraw bool) int {
	players := make([]Player, n)
	for p := range players {
		players[p].Rating = float64(2000 - p)
	}
	var played []Round
	for range rounds {
		if withdraw && rng.IntN(4) == 0 {
			players[rng.IntN(n)].Withdrawn = true
		}
		r, err := Swiss(players, played)
		if errors.Is(err, ErrNoPairing) {
			return len(played)
		}
		if err != nil {
			t.Fatal(err)
		}
		checkRound(t, players, played, r)
		play(rng, r)
		played = append(played, r)
	}
	return len(played)
}

// TestSwissProperties plays many events to the end, as many rounds as a
// Swiss of that size may have (MaxSwissRounds).
func TestSwissProperties(t *testing.T) {
	short := 0
	for n := 2; n <= 40; n++ {
		rounds := MaxSwissRounds(n)
		for seed := range uint64(200) {
			rng := rand.New(rand.NewPCG(seed, uint64(n)))
			if got := swissEvent(t, rng, n, rounds, seed%2 == 1); got < rounds && seed%2 == 0 {
				short++
				t.Logf("n=%d seed=%d: unpairable after %d of %d rounds", n, seed, got, rounds)
			}
		}
	}
	if short > 0 {
		t.Errorf("%d events without withdrawals stopped early", short)
	}
}

// TestSwissByesRotate: in an odd field, no one has a second bye before
// everyone has had one.
func TestSwissByesRotate(t *testing.T) {
	for _, n := range []int{3, 5, 7, 9} {
		players := make([]Player, n)
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		var played []Round
		got := map[int]int{}
		for range n {
			r, err := Swiss(players, played)
			if err != nil {
				break // a small field runs out of new opponents
			}
			checkRound(t, players, played, r)
			for _, g := range r {
				if g.IsBye() {
					got[g.White]++
				}
			}
			play(rng, r)
			played = append(played, r)
		}
		for p, k := range got {
			if k > 1 {
				t.Errorf("n=%d: player %d had %d byes", n, p, k)
			}
		}
	}
}

func TestSwissFirstRound(t *testing.T) {
	// Round 1 of 8: S1 = 1–4 meets S2 = 5–8 in order, the top seed White on
	// board 1 and colours alternating down the boards (C.04.3 A.2, E.5).
	got, err := Swiss(make([]Player, 8), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Round{{White: 0, Black: 4}, {White: 5, Black: 1}, {White: 2, Black: 6}, {White: 7, Black: 3}}
	if !equalRounds(got, want) {
		t.Errorf("round 1 = %v, want %v", got, want)
	}
	// Round 1 of 5: the bye to the lowest ranked.
	got, err = Swiss(make([]Player, 5), nil)
	if err != nil {
		t.Fatal(err)
	}
	want = Round{{White: 0, Black: 2}, {White: 3, Black: 1}, {White: 4, Black: Bye, Result: WhiteWins}}
	if !equalRounds(got, want) {
		t.Errorf("round 1 of 5 = %v, want %v", got, want)
	}
}

func TestSwissSecondRoundByScoreGroups(t *testing.T) {
	// Round 1 of 8 won by White everywhere: winners 0, 5, 2, 7 (each had
	// White) form the top group, paired S1 against S2 by rank: 0–5 and 2–7,
	// colours by preference with the higher ranked served first.
	players := make([]Player, 8)
	r1, _ := Swiss(players, nil)
	for i := range r1 {
		r1[i].Result = WhiteWins
	}
	got, err := Swiss(players, []Round{r1})
	if err != nil {
		t.Fatal(err)
	}
	want := Round{{White: 5, Black: 0}, {White: 7, Black: 2}, {White: 1, Black: 4}, {White: 3, Black: 6}}
	if !equalRounds(got, want) {
		t.Errorf("round 2 = %v, want %v", got, want)
	}
}

func TestSwissTooFew(t *testing.T) {
	if _, err := Swiss([]Player{{}, {Withdrawn: true}}, nil); !errors.Is(err, ErrNoPairing) {
		t.Errorf("one active player: err = %v, want ErrNoPairing", err)
	}
}

func equalRounds(a, b Round) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzSwiss checks the properties on events the fuzzer draws.
func FuzzSwiss(f *testing.F) {
	f.Add(uint64(1), uint8(9), uint8(4), true)
	f.Add(uint64(7), uint8(32), uint8(6), false)
	f.Fuzz(func(t *testing.T, seed uint64, n, rounds uint8, withdraw bool) {
		size := int(n%64) + 2
		swissEvent(t, rand.New(rand.NewPCG(seed, 0)), size, min(int(rounds%10), MaxSwissRounds(size)), withdraw)
	})
}
