package tournament

import (
	"cmp"
	"slices"
)

// maxSteps bounds the search for one Swiss round: past it the round is
// declared unpairable rather than searched for seconds.
const maxSteps = 2_000_000

// MaxSwissRounds is the most rounds a Swiss event of n players may have:
// ⌈log₂ n⌉ + 2 (n ≥ 7), ⌈log₂ n⌉ for smaller fields, at most n − 1. Past that a
// small field soon has no pairing left without a repeat (six players after
// three rounds can be two triangles of players who have all met); a round
// robin is the format for those.
func MaxSwissRounds(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	if n >= 7 {
		k += 2
	}
	return max(0, min(k, n-1))
}

// Swiss pairs the next round of a Swiss event: the players in seeding order
// (withdrawn ones are left out) and the rounds played so far, every game
// decided. It follows FIDE's Dutch system (Handbook C.04.3) simplified as
// follows; what is kept:
//
//   - absolute: no two players meet twice (C1); a player gets at most one bye
//     until every active player has had one, the bye going to the
//     lowest-ranked player with the fewest byes (C2, C.04.1 c); no player's
//     colour difference goes past ±2 (C3);
//   - players are ranked by score, then pairing number; each score group is
//     split into S1 and S2 and S1[i] meets S2[i], with S2 candidates that
//     satisfy both colour preferences tried first, then the rest of S2 in
//     order (transpositions);
//   - a player left unpaired in a group floats down to the highest-ranked
//     player of the next groups; colours are allocated by C.04.3 E.
//
// What is simplified: no exchanges between S1 and S2 (a player of S1 that
// cannot be paired in S2 meets a later S1 player, or floats); none of the
// float-history criteria (C.04.3 C14–C21, no player floats twice in a row is
// not enforced); the "not three of one colour in a row" rule is dropped before
// a round would otherwise be unpairable; the first search that satisfies the
// absolute criteria is taken, not the best by every quality criterion.
func Swiss(players []Player, played []Round) (Round, error) {
	h := newHistory(len(players), played)
	var active []int
	for p, pl := range players {
		if !pl.Withdrawn {
			active = append(active, p)
		}
	}
	if len(active) < 2 {
		return nil, ErrNoPairing
	}
	// Ranking: score, then pairing number.
	slices.SortStableFunc(active, func(a, b int) int { return cmp.Compare(h.points[b], h.points[a]) })

	byeCandidates := []int{-1}
	if len(active)%2 == 1 {
		byeCandidates = slices.Clone(active)
		// The fewest byes first, then the lowest ranked.
		slices.Reverse(byeCandidates)
		slices.SortStableFunc(byeCandidates, func(a, b int) int { return cmp.Compare(h.byes[a], h.byes[b]) })
	}
	s := &search{h: h, paired: make([]bool, h.n)}
	for _, threeInARow := range []bool{true, false} {
		s.threeInARow = threeInARow
		for _, bye := range byeCandidates {
			if bye >= 0 && h.byes[bye] > h.byes[byeCandidates[0]] {
				break // only players with the fewest byes may take it
			}
			order := active
			if bye >= 0 {
				order = slices.DeleteFunc(slices.Clone(active), func(p int) bool { return p == bye })
			}
			s.order, s.pairs = order, s.pairs[:0]
			if s.pair(0) {
				return s.round(bye), nil
			}
			if s.steps > maxSteps {
				return nil, ErrNoPairing
			}
		}
	}
	return nil, ErrNoPairing
}

// search is a depth-first search for a pairing of order.
type search struct {
	h           *history
	order       []int // players by rank
	paired      []bool
	pairs       [][2]int // higher ranked first
	threeInARow bool
	steps       int
}

// pair pairs order[i:], skipping players already paired.
func (s *search) pair(i int) bool {
	for i < len(s.order) && s.paired[s.order[i]] {
		i++
	}
	if i == len(s.order) {
		return true
	}
	s.steps++
	if s.steps > maxSteps {
		return false
	}
	p := s.order[i]
	s.paired[p] = true
	for _, q := range s.candidates(i) {
		s.paired[q] = true
		s.pairs = append(s.pairs, [2]int{p, q})
		if s.pair(i + 1) {
			return true
		}
		s.pairs = s.pairs[:len(s.pairs)-1]
		s.paired[q] = false
	}
	s.paired[p] = false
	return false
}

// candidates lists order[i]'s possible opponents, preferred first: its score
// group's S2 (colour-satisfying ones first), the rest of S1, then lower
// groups by rank. order[i] is S1[0] of the unpaired part of its group.
func (s *search) candidates(i int) []int {
	h, p := s.h, s.order[i]
	rest := s.order[i+1:]
	size := 1
	for _, q := range rest {
		if !s.paired[q] && h.points[q] == h.points[p] {
			size++
		}
	}
	pp := h.pref(p, true)
	var s2, s2Colour, s1, lower []int
	k := 0 // q's index in the group, p being 0
	for _, q := range rest {
		if s.paired[q] {
			continue
		}
		same := h.points[q] == h.points[p]
		if same {
			k++
		}
		if h.met[p*h.n+q] || !h.compatible(p, q, s.threeInARow) {
			continue
		}
		switch {
		case !same:
			lower = append(lower, q)
		case k < size/2:
			s1 = append(s1, q)
		case pp.colour != 0 && h.pref(q, true).colour == pp.colour:
			s2Colour = append(s2Colour, q)
		default:
			s2 = append(s2, q)
		}
	}
	return slices.Concat(s2, s2Colour, s1, lower)
}

// round turns the pairs into boards: by the higher score, then rank, the bye
// last.
func (s *search) round(bye int) Round {
	r := make(Round, 0, len(s.pairs)+1)
	for b, pr := range s.pairs {
		w, bl := s.h.allocate(pr[0], pr[1], b)
		r = append(r, Game{White: w, Black: bl})
	}
	if bye >= 0 {
		r = append(r, Game{White: bye, Black: Bye, Result: WhiteWins})
	}
	return r
}
