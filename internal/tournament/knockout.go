package tournament

// Knockout returns the next round of a single-elimination event and whether
// the event is over (then the Round is nil). Players are placed in the
// standard bracket by seed (1 meets the last, the winners of 1–16 and 8–9
// meet, …) in a draw of the next power of two: the missing places are byes,
// so they go to the top seeds. A drawn game sends Black through (Black moved
// second: the draw odds of an Armageddon game); when both lose, or a player
// has withdrawn before the round, the opponent in the next round advances
// without playing. Colours are allocated as in Swiss.
func Knockout(players []Player, played []Round) (Round, bool) {
	slots := bracket(len(players), played)
	if len(slots) <= 1 {
		return nil, true
	}
	h := newHistory(len(players), played)
	var r Round
	games := 0 // boards for colours count games, not byes
	for j := 0; j < len(slots); j += 2 {
		a, b := slots[j], slots[j+1]
		if a >= 0 && players[a].Withdrawn {
			a = Bye
		}
		if b >= 0 && players[b].Withdrawn {
			b = Bye
		}
		switch {
		case a >= 0 && b >= 0:
			w, bl := h.allocate(a, b, games)
			games++
			r = append(r, Game{White: w, Black: bl})
		case a >= 0 || b >= 0:
			r = append(r, Game{White: max(a, b), Black: Bye, Result: WhiteWins})
		}
	}
	if len(r) == 0 {
		return nil, true // everyone left
	}
	return r, false
}

// bracket returns the places still in the draw after played, in bracket
// order, Bye for an empty one.
func bracket(n int, played []Round) []int {
	if n < 2 {
		return nil
	}
	slots := []int{0}
	for len(slots) < n {
		// Each seed s meets 2·len+1−s in the doubled draw (pairing numbers).
		next := make([]int, 0, 2*len(slots))
		for _, s := range slots {
			next = append(next, s, 2*len(slots)-1-s)
		}
		slots = next
	}
	for k, s := range slots {
		if s >= n {
			slots[k] = Bye
		}
	}
	for _, r := range played {
		winner := make(map[int]int, len(r)) // each game's players → its winner
		for _, g := range r {
			w := Bye
			switch g.Result {
			case WhiteWins:
				w = g.White
			case BlackWins, Draw:
				w = g.Black
			}
			winner[g.White] = w
			if !g.IsBye() {
				winner[g.Black] = w
			}
		}
		next := make([]int, len(slots)/2)
		for j := range next {
			next[j] = Bye
			for _, p := range slots[2*j : 2*j+2] {
				if w, ok := winner[p]; ok && p >= 0 {
					next[j] = w
				}
			}
		}
		slots = next
	}
	return slots
}
