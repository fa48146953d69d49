// Package rating implements the Glicko-2 rating system as Mark Glickman
// specifies it in "Example of the Glicko-2 system": a rating, its deviation
// and a volatility per player, updated once per rating period.
//
// The functions are pure and never return a non-finite rating: fields outside
// their domain are replaced by the defaults before use, and should the
// arithmetic still fail (only for inputs far beyond any real rating) the games
// are ignored and only the deviation grows, as for a period without games.
package rating

import "math"

// Defaults from the paper: a newcomer is 1500 ± 350 with volatility 0.06, and
// τ, which limits how fast volatility changes, is 0.5.
const (
	DefaultR     = 1500
	DefaultRD    = 350
	DefaultSigma = 0.06
	DefaultTau   = 0.5

	// MaxRD caps the deviation: a player never becomes less known than a
	// newcomer, however long they stay away.
	MaxRD = 350
)

// Scores of a game, from the point of view of the player being rated.
const (
	Loss = 0.0
	Draw = 0.5
	Win  = 1.0
)

const (
	// scale converts the Glicko scale to Glicko-2's (step 2).
	scale = 173.7178
	// epsilon is the convergence tolerance of the volatility iteration (step 5).
	epsilon = 0.000001
	// maxIter bounds the loops of step 5, which converge in a handful of
	// steps for any real rating; it only keeps absurd inputs from spinning.
	maxIter = 100
)

// Rating is a player's Glicko-2 state on the familiar Glicko scale.
type Rating struct {
	R     float64 // rating
	RD    float64 // rating deviation
	Sigma float64 // volatility
}

// Default returns the rating of a player who has not played yet.
func Default() Rating {
	return Rating{R: DefaultR, RD: DefaultRD, Sigma: DefaultSigma}
}

// Conservative returns R − 2·RD, the rating the player is at least with about
// 95% confidence. Leaderboards rank by it so that a newcomer with one lucky
// win (high R, high RD) does not top the board over an established player.
func (r Rating) Conservative() float64 {
	return r.R - 2*r.RD
}

// Result is one game of a rating period against Opponent.
type Result struct {
	Opponent Rating
	Score    float64 // Win, Draw or Loss; clamped to [0, 1], NaN ignores the game
}

// Update returns r after one rating period with the given results, all
// computed against the opponents' ratings from before the period. With no
// games only the deviation grows (step 6). A tau that is not finite and
// positive means DefaultTau.
func Update(r Rating, results []Result, tau float64) Rating {
	r = r.sanitize()
	if !(tau > 0) || math.IsInf(tau, 1) {
		tau = DefaultTau
	}
	mu, phi := (r.R-DefaultR)/scale, r.RD/scale

	// Steps 3 and 4: info is 1/v, and delta is Δ/v.
	var info, delta float64
	for _, res := range results {
		s := res.Score
		if math.IsNaN(s) {
			continue
		}
		s = min(max(s, 0), 1)
		o := res.Opponent.sanitize()
		gj := g(o.RD / scale)
		e := 1 / (1 + math.Exp(-gj*(mu-(o.R-DefaultR)/scale)))
		info += gj * gj * e * (1 - e)
		delta += gj * (s - e)
	}

	// Step 5. With no information (no games, or outcomes so certain that
	// E(1−E) underflows) v is infinite and the volatility stays.
	sigma := r.Sigma
	if info > 0 {
		v := 1 / info
		sigma = volatility(phi, v, v*delta, r.Sigma, tau)
	}

	// Steps 6 to 8.
	phiStar := math.Hypot(phi, sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+info)
	out := Rating{
		R:     scale*(mu+phiNew*phiNew*delta) + DefaultR,
		RD:    min(scale*phiNew, MaxRD),
		Sigma: sigma,
	}
	if !finite(out.R) || !finite(out.RD) || !finite(out.Sigma) || !(out.Sigma > 0) {
		return r.Idle(1)
	}
	return out
}

// UpdatePair rates a single game between a and b as its own rating period for
// each of them, which is how the bot rates every finished game. scoreA is a's
// score; b scores 1 − scoreA.
func UpdatePair(a, b Rating, scoreA, tau float64) (Rating, Rating) {
	return Update(a, []Result{{Opponent: b, Score: scoreA}}, tau),
		Update(b, []Result{{Opponent: a, Score: 1 - scoreA}}, tau)
}

// g dampens an opponent's weight by their deviation (step 3).
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// volatility finds the new σ with the Illinois algorithm (step 5). If the
// root cannot be bracketed or the iteration does not converge, σ stays.
func volatility(phi, v, delta, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	phi2, delta2 := phi*phi, delta*delta
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		// The paper's ex·(…)/(2d²), divided by d first since d² overflows
		// long before ex does.
		return ex/d*(delta2-phi2-v-ex)/(2*d) - (x-a)/(tau*tau)
	}

	A, B := a, 0.0
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			if k++; k > maxIter {
				return sigma
			}
		}
		B = a - k*tau
	}

	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon; i++ {
		if i == maxIter {
			return sigma
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// Idle returns r after n rating periods without games: only the deviation
// grows, by the volatility each period (step 6), up to MaxRD.
func (r Rating) Idle(n int) Rating {
	r = r.sanitize()
	if n > 0 {
		r.RD = min(math.Sqrt(r.RD*r.RD+float64(n)*(scale*r.Sigma)*(scale*r.Sigma)), MaxRD)
	}
	return r
}

// sanitize replaces fields outside their domain: a non-finite R becomes
// DefaultR, RD is clamped to [0, MaxRD] (NaN becomes MaxRD), and a σ that is
// not finite and positive becomes DefaultSigma.
func (r Rating) sanitize() Rating {
	if !finite(r.R) {
		r.R = DefaultR
	}
	if math.IsNaN(r.RD) {
		r.RD = MaxRD
	}
	r.RD = min(max(r.RD, 0), MaxRD)
	if !(r.Sigma > 0) || math.IsInf(r.Sigma, 1) {
		r.Sigma = DefaultSigma
	}
	return r
}

func finite(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}
