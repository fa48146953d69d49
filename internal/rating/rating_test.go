package rating_test

import (
	"math"
	"testing"

	"github.com/tttbot/tttbot/internal/rating"
)

// TestUpdatePaperExample reproduces the worked example of Glickman's paper, to
// the precision it prints (its σ′ = 0.05999 is 0.059996 truncated).
func TestUpdatePaperExample(t *testing.T) {
	player := rating.Rating{R: 1500, RD: 200, Sigma: 0.06}
	results := []rating.Result{
		{Opponent: rating.Rating{R: 1400, RD: 30, Sigma: 0.06}, Score: rating.Win},
		{Opponent: rating.Rating{R: 1550, RD: 100, Sigma: 0.06}, Score: rating.Loss},
		{Opponent: rating.Rating{R: 1700, RD: 300, Sigma: 0.06}, Score: rating.Loss},
	}
	got := rating.Update(player, results, rating.DefaultTau)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"r′", got.R, 1464.05, 0.005},
		{"RD′", got.RD, 151.52, 0.005},
		{"σ′", got.Sigma, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s: got %.6f, want %v ± %v", c.name, c.got, c.want, c.tol)
		}
	}
}

func TestUpdateNoGames(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    rating.Rating
		want rating.Rating
	}{
		// Step 6: φ* = √(φ² + σ²), i.e. RD* = √(200² + (173.7178·0.06)²).
		{"grows", rating.Rating{R: 1500, RD: 200, Sigma: 0.06}, rating.Rating{R: 1500, RD: 200.271420, Sigma: 0.06}},
		{"capped", rating.Rating{R: 1700, RD: 349.9, Sigma: 0.06}, rating.Rating{R: 1700, RD: 350, Sigma: 0.06}},
		{"newcomer", rating.Default(), rating.Default()},
		{"zero deviation", rating.Rating{R: 1800, RD: 0, Sigma: 0.05}, rating.Rating{R: 1800, RD: 8.68589, Sigma: 0.05}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := rating.Update(tt.r, nil, rating.DefaultTau)
			if got.R != tt.want.R || got.Sigma != tt.want.Sigma || math.Abs(got.RD-tt.want.RD) > 1e-5 {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestIdle(t *testing.T) {
	for _, tt := range []struct {
		name    string
		r       rating.Rating
		periods int
		wantRD  float64
	}{
		{"no period", rating.Rating{R: 1500, RD: 50, Sigma: 0.06}, 0, 50},
		{"one period, as Update without games", rating.Rating{R: 1500, RD: 200, Sigma: 0.06}, 1, 200.271420},
		// √(50² + 52·(173.7178·0.06)²)
		{"a year of weeks", rating.Rating{R: 1500, RD: 50, Sigma: 0.06}, 52, 90.273462},
		{"capped", rating.Rating{R: 1500, RD: 300, Sigma: 0.06}, 1000, rating.MaxRD},
		{"negative", rating.Rating{R: 1500, RD: 50, Sigma: 0.06}, -3, 50},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.r.Idle(tt.periods)
			if got.R != tt.r.R || got.Sigma != tt.r.Sigma || math.Abs(got.RD-tt.wantRD) > 1e-5 {
				t.Errorf("got %+v, want RD %v and the rest unchanged", got, tt.wantRD)
			}
		})
	}
}

func TestUpdatePair(t *testing.T) {
	equal := rating.Rating{R: 1500, RD: 80, Sigma: 0.06}
	strong := rating.Rating{R: 1800, RD: 60, Sigma: 0.06}
	weak := rating.Rating{R: 1300, RD: 120, Sigma: 0.06}
	for _, tt := range []struct {
		name    string
		a, b    rating.Rating
		scoreA  float64
		shrinks bool
		check   func(t *testing.T, scoreA float64, a, b, gotA, gotB rating.Rating)
	}{
		{"draw between equals", equal, equal, rating.Draw, true, func(t *testing.T, s float64, a, b, gotA, gotB rating.Rating) {
			if gotA != gotB {
				t.Errorf("got %+v and %+v, want equal ratings", gotA, gotB)
			}
			if gotA.R != a.R {
				t.Errorf("R: got %v, want %v", gotA.R, a.R)
			}
		}},
		{"draw between newcomers", rating.Default(), rating.Default(), rating.Draw, true, func(t *testing.T, s float64, a, b, gotA, gotB rating.Rating) {
			if gotA != gotB || gotA.R != rating.DefaultR {
				t.Errorf("got %+v and %+v, want equal ratings at %v", gotA, gotB, rating.DefaultR)
			}
		}},
		{"equals, a wins", equal, equal, rating.Win, true, winnerUp},
		{"equals, a loses", equal, equal, rating.Loss, true, winnerUp},
		{"upset", weak, strong, rating.Win, false, winnerUp},
		{"expected win", strong, weak, rating.Win, false, winnerUp},
		{"newcomer wins", rating.Default(), strong, rating.Win, false, winnerUp},
		{"weaker draws", weak, strong, rating.Draw, false, func(t *testing.T, s float64, a, b, gotA, gotB rating.Rating) {
			if gotA.R <= a.R || gotB.R >= b.R {
				t.Errorf("got %v→%v and %v→%v, want the weaker up and the stronger down", a.R, gotA.R, b.R, gotB.R)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			gotA, gotB := rating.UpdatePair(tt.a, tt.b, tt.scoreA, rating.DefaultTau)
			// A game always leaves RD below where a period without one
			// would (step 7); it can still end above the old RD when a
			// well-known player meets a far weaker or unknown opponent.
			idleA, idleB := rating.Update(tt.a, nil, rating.DefaultTau), rating.Update(tt.b, nil, rating.DefaultTau)
			if gotA.RD >= idleA.RD || gotB.RD >= idleB.RD {
				t.Errorf("RD: got %v and %v, want below %v and %v", gotA.RD, gotB.RD, idleA.RD, idleB.RD)
			}
			if tt.shrinks && (gotA.RD >= tt.a.RD || gotB.RD >= tt.b.RD) {
				t.Errorf("RD: got %v→%v and %v→%v, want both to shrink", tt.a.RD, gotA.RD, tt.b.RD, gotB.RD)
			}
			tt.check(t, tt.scoreA, tt.a, tt.b, gotA, gotB)
		})
	}
}

// winnerUp checks that the winner's rating rose and the loser's fell.
func winnerUp(t *testing.T, scoreA float64, a, b, gotA, gotB rating.Rating) {
	t.Helper()
	aWon := scoreA == rating.Win
	if got := gotA.R > a.R; got != aWon {
		t.Errorf("a %v→%v: got up=%v, want %v", a.R, gotA.R, got, aWon)
	}
	if got := gotB.R > b.R; got == aWon {
		t.Errorf("b %v→%v: got up=%v, want %v", b.R, gotB.R, got, !aWon)
	}
}

// TestUpdatePairMirror checks that the order of the players does not matter.
func TestUpdatePairMirror(t *testing.T) {
	players := []rating.Rating{
		rating.Default(),
		{R: 1500, RD: 200, Sigma: 0.06},
		{R: 1850, RD: 45, Sigma: 0.055},
		{R: 1210, RD: 300, Sigma: 0.09},
		{R: 2400, RD: 30, Sigma: 0.04},
	}
	for _, a := range players {
		for _, b := range players {
			for _, s := range []float64{rating.Win, rating.Draw, rating.Loss} {
				gotA, gotB := rating.UpdatePair(a, b, s, rating.DefaultTau)
				mirB, mirA := rating.UpdatePair(b, a, 1-s, rating.DefaultTau)
				if gotA != mirA || gotB != mirB {
					t.Errorf("UpdatePair(%+v, %+v, %v) = %+v, %+v; mirrored: got %+v, %+v", a, b, s, gotA, gotB, mirA, mirB)
				}
			}
		}
	}
}

// TestUpdateBadInput checks that out-of-domain input is read as documented.
func TestUpdateBadInput(t *testing.T) {
	opp := rating.Rating{R: 1600, RD: 100, Sigma: 0.06}
	base := rating.Rating{R: 1500, RD: 200, Sigma: 0.06}
	games := func(s float64) []rating.Result { return []rating.Result{{Opponent: opp, Score: s}} }
	for _, tt := range []struct {
		name    string
		r       rating.Rating
		results []rating.Result
		tau     float64
		want    rating.Rating // the same update with valid input
	}{
		{"zero tau", base, games(rating.Win), 0, rating.Update(base, games(rating.Win), rating.DefaultTau)},
		{"NaN tau", base, games(rating.Win), math.NaN(), rating.Update(base, games(rating.Win), rating.DefaultTau)},
		{"infinite tau", base, games(rating.Win), math.Inf(1), rating.Update(base, games(rating.Win), rating.DefaultTau)},
		{"score above 1", base, games(3), rating.DefaultTau, rating.Update(base, games(rating.Win), rating.DefaultTau)},
		{"score below 0", base, games(-1), rating.DefaultTau, rating.Update(base, games(rating.Loss), rating.DefaultTau)},
		{"NaN score", base, games(math.NaN()), rating.DefaultTau, rating.Update(base, nil, rating.DefaultTau)},
		{"NaN rating", rating.Rating{R: math.NaN(), RD: 200, Sigma: 0.06}, games(rating.Win), rating.DefaultTau, rating.Update(rating.Rating{R: 1500, RD: 200, Sigma: 0.06}, games(rating.Win), rating.DefaultTau)},
		{"RD above cap", rating.Rating{R: 1500, RD: 1e9, Sigma: 0.06}, games(rating.Win), rating.DefaultTau, rating.Update(rating.Rating{R: 1500, RD: 350, Sigma: 0.06}, games(rating.Win), rating.DefaultTau)},
		{"NaN RD", rating.Rating{R: 1500, RD: math.NaN(), Sigma: 0.06}, games(rating.Win), rating.DefaultTau, rating.Update(rating.Rating{R: 1500, RD: 350, Sigma: 0.06}, games(rating.Win), rating.DefaultTau)},
		{"zero sigma", rating.Rating{R: 1500, RD: 200, Sigma: 0}, games(rating.Win), rating.DefaultTau, rating.Update(base, games(rating.Win), rating.DefaultTau)},
		{"NaN opponent", base, []rating.Result{{Opponent: rating.Rating{R: math.NaN(), RD: math.NaN(), Sigma: math.NaN()}, Score: rating.Win}}, rating.DefaultTau, rating.Update(base, []rating.Result{{Opponent: rating.Default(), Score: rating.Win}}, rating.DefaultTau)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := rating.Update(tt.r, tt.results, tt.tau); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestConservative(t *testing.T) {
	for _, tt := range []struct {
		r    rating.Rating
		want float64
	}{
		{rating.Default(), 800},
		{rating.Rating{R: 1700, RD: 50, Sigma: 0.06}, 1600},
	} {
		if got := tt.r.Conservative(); got != tt.want {
			t.Errorf("%+v: got %v, want %v", tt.r, got, tt.want)
		}
	}

	// A newcomer's lucky win must not rank them above an established player.
	lucky, _ := rating.UpdatePair(rating.Default(), rating.Rating{R: 1900, RD: 40, Sigma: 0.06}, rating.Win, rating.DefaultTau)
	established := rating.Rating{R: 1650, RD: 40, Sigma: 0.06}
	if lucky.R <= established.R {
		t.Fatalf("lucky newcomer: got R %v, want above %v for the test to mean anything", lucky.R, established.R)
	}
	if got, want := lucky.Conservative(), established.Conservative(); got >= want {
		t.Errorf("lucky newcomer: got conservative %v, want below %v", got, want)
	}
}
