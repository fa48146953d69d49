package tournament

// RoundRobin returns the schedule of an all-play-all event for n players
// (n ≥ 2), one Round per round, by the Berger tables (FIDE Handbook C.05,
// Annex 1): the circle method with the last player fixed. With an odd n the
// player who would meet the missing n+1 has a bye. Results are Pending, byes
// excepted.
func RoundRobin(n int) []Round {
	if n < 2 {
		return nil
	}
	m := n + n%2 // even: the fixed player is m−1 (pairing number m)
	rounds := make([]Round, m-1)
	circle := make([]int, m-1)
	for r := range rounds {
		// The circle starts at pairing number 1 + r·m/2 (mod m−1).
		start := r * m / 2 % (m - 1)
		for k := range circle {
			circle[k] = (start + k) % (m - 1)
		}
		games := make(Round, 0, m/2)
		// The fixed player has Black in odd rounds (counting from 1), White
		// in even ones.
		w, b := circle[0], m-1
		if r%2 == 1 {
			w, b = b, w
		}
		games = append(games, Game{White: w, Black: b})
		for k := 1; k < m/2; k++ {
			games = append(games, Game{White: circle[k], Black: circle[m-1-k]})
		}
		if n%2 == 1 {
			// Pairing number m is missing: its opponent has the bye, listed last.
			games = append(games[1:], Game{White: games[0].Opponent(n), Black: Bye, Result: WhiteWins})
		}
		rounds[r] = games
	}
	return rounds
}
