package tournament

import (
	"cmp"
	"slices"
)

// Standing is a player's place in the table.
type Standing struct {
	Player int
	Rank   int // 1-based; shared only in a knockout (both losing semi-finalists are third)
	Points float64
	// Buchholz is the sum of the opponents' points, Sonneborn-Berger the sum
	// of the points of the opponents beaten and half those of the opponents
	// drawn (FIDE Handbook C.07). A bye adds nothing to either: this is the
	// simplification of counting it as no game, not FIDE's virtual opponent,
	// and forfeits count as games.
	Buchholz, SonnebornBerger float64
	Wins, Draws, Losses, Byes int
}

// Standings ranks a Swiss or round-robin event by points, then Buchholz,
// then Sonneborn-Berger, then the points scored in the games between the
// players still tied, then rating, then pairing number. Undecided games
// count for nothing.
func Standings(players []Player, rounds []Round) []Standing {
	h := newHistory(len(players), rounds)
	st := make([]Standing, len(players))
	for p := range st {
		st[p].Player = p
		st[p].Points = float64(h.points[p]) / 2
	}
	for _, r := range rounds {
		for _, g := range r {
			if g.Result == Pending {
				continue
			}
			if g.IsBye() {
				st[g.White].Byes++
				continue
			}
			for _, p := range []int{g.White, g.Black} {
				o := g.Opponent(p)
				s := &st[p]
				s.Buchholz += st[o].Points
				switch g.Points(p) {
				case 2:
					s.Wins++
					s.SonnebornBerger += st[o].Points
				case 1:
					s.Draws++
					s.SonnebornBerger += st[o].Points / 2
				default:
					s.Losses++
				}
			}
		}
	}
	key := func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Buchholz, a.Buchholz), cmp.Compare(b.SonnebornBerger, a.SonnebornBerger))
	}
	slices.SortStableFunc(st, key)
	// Head to head inside each group still tied, then rating, then pairing
	// number.
	for i := 0; i < len(st); {
		j := i + 1
		for j < len(st) && key(st[i], st[j]) == 0 {
			j++
		}
		tied := st[i:j]
		h2h := headToHead(tied, rounds)
		slices.SortStableFunc(tied, func(a, b Standing) int {
			return cmp.Or(cmp.Compare(h2h[b.Player], h2h[a.Player]),
				cmp.Compare(players[b.Player].Rating, players[a.Player].Rating),
				cmp.Compare(a.Player, b.Player))
		})
		i = j
	}
	for i := range st {
		st[i].Rank = i + 1
	}
	return st
}

// headToHead returns the half points each of the tied players scored in the
// games among them.
func headToHead(tied []Standing, rounds []Round) map[int]int {
	in := make(map[int]int, len(tied))
	for _, s := range tied {
		in[s.Player] = 0
	}
	if len(tied) < 2 {
		return in
	}
	for _, r := range rounds {
		for _, g := range r {
			_, w := in[g.White]
			_, b := in[g.Black]
			if w && b {
				in[g.White] += g.Points(g.White)
				in[g.Black] += g.Points(g.Black)
			}
		}
	}
	return in
}

// KnockoutStandings ranks a single-elimination event by how far each player
// went (the rounds they came through, byes included), then rating, then
// pairing number; players out in the same round share a rank, so both
// losing semi-finalists are third.
func KnockoutStandings(players []Player, rounds []Round) []Standing {
	through := make([]int, len(players))
	st := make([]Standing, len(players))
	for p := range st {
		st[p].Player = p
	}
	for _, r := range rounds {
		for _, g := range r {
			for _, p := range []int{g.White, g.Black} {
				if p == Bye {
					continue
				}
				s := &st[p]
				switch pts := g.Points(p); {
				case g.IsBye():
					s.Byes++
				case pts == 2:
					s.Wins++
				case pts == 1:
					s.Draws++
				case g.Result != Pending:
					s.Losses++
				}
				if g.Points(p) == 2 || g.Result == Draw && p == g.Black {
					through[p]++ // a draw sends Black through
				}
				s.Points = float64(through[p])
			}
		}
	}
	slices.SortStableFunc(st, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points),
			cmp.Compare(players[b.Player].Rating, players[a.Player].Rating),
			cmp.Compare(a.Player, b.Player))
	})
	for i := range st {
		st[i].Rank = i + 1
		if i > 0 && st[i].Points == st[i-1].Points {
			st[i].Rank = st[i-1].Rank
		}
	}
	return st
}
