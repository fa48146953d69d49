package rating_test

import (
	"math"
	"testing"

	"github.com/tttbot/tttbot/internal/rating"
)

// FuzzUpdate checks that a game between any two finite ratings yields finite
// ratings with 0 ≤ RD ≤ MaxRD and σ > 0, and that the update does not depend
// on the order of the players.
func FuzzUpdate(f *testing.F) {
	seeds := []struct {
		r, rd, sigma, oppR, oppRD, oppSigma, score, tau float64
	}{
		{1500, 200, 0.06, 1400, 30, 0.06, 1, 0.5},
		{1500, 350, 0.06, 1500, 350, 0.06, 0.5, 0.5},
		{2900, 30, 0.03, 100, 30, 0.03, 0, 0.3},
		{100, 10, 0.2, 3000, 350, 0.09, 1, 1.2},
		{1500, 0, 0.06, 1500, 0, 0.06, 1, 0.5},
		{0, 350, 1e-9, 0, 350, 5, 0.5, 1e-9},
		{1e300, 350, 0.06, -1e300, 350, 0.06, 1, 0.5},
		{1500, 1e300, 1e300, 1500, -5, -1, 7, 1e300},
		{math.MaxFloat64, 350, math.SmallestNonzeroFloat64, -math.MaxFloat64, 1, 0.06, 0, 0.5},
		{1500, 350, 1e150, 1500, 350, 0.06, 1, 300},
	}
	for _, s := range seeds {
		f.Add(s.r, s.rd, s.sigma, s.oppR, s.oppRD, s.oppSigma, s.score, s.tau)
	}
	f.Fuzz(func(t *testing.T, r, rd, sigma, oppR, oppRD, oppSigma, score, tau float64) {
		for _, x := range []float64{r, rd, sigma, oppR, oppRD, oppSigma, score, tau} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Skip()
			}
		}
		a := rating.Rating{R: r, RD: rd, Sigma: sigma}
		b := rating.Rating{R: oppR, RD: oppRD, Sigma: oppSigma}
		check := func(name string, got rating.Rating) {
			t.Helper()
			if !finite(got.R) || !finite(got.RD) || !finite(got.Sigma) || got.RD < 0 || got.RD > rating.MaxRD || got.Sigma <= 0 {
				t.Errorf("%s(%+v, %+v, %v, %v): got %+v, want finite, 0 ≤ RD ≤ %v, σ > 0", name, a, b, score, tau, got, rating.MaxRD)
			}
		}

		gotA, gotB := rating.UpdatePair(a, b, score, tau)
		check("UpdatePair", gotA)
		check("UpdatePair", gotB)
		check("Update", rating.Update(a, nil, tau))
		check("Update", rating.Update(a, []rating.Result{{Opponent: b, Score: score}, {Opponent: a, Score: 1 - score}}, tau))

		if s := min(max(score, 0), 1); 1-(1-s) == s {
			mirB, mirA := rating.UpdatePair(b, a, 1-s, tau)
			if gotA != mirA || gotB != mirB {
				t.Errorf("UpdatePair(%+v, %+v, %v) = %+v, %+v; mirrored: got %+v, %+v", a, b, s, gotA, gotB, mirA, mirB)
			}
		}
	})
}

func finite(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}
