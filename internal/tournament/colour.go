package tournament

// Colour preferences after FIDE's Dutch system (C.04.3, A.6): absolute when
// the colour difference is ±2 or the last two games had the same colour,
// strong at ±1, mild otherwise (the colour not played last), none before a
// first game.
const (
	noPref = iota
	mild
	strong
	absolute        // not three of one colour in a row
	absoluteBalance // colour difference ±2: outranks the above
)

type pref struct {
	colour   int8 // +1 wants White, −1 wants Black, 0 none
	strength int
}

// pref returns p's colour preference; threeInARow false drops the "not three
// of one colour in a row" part of the absolute preference, kept otherwise.
func (h *history) pref(p int, threeInARow bool) pref {
	c := h.colours[p]
	if len(c) == 0 {
		return pref{}
	}
	d, last := h.diff(p), c[len(c)-1]
	switch {
	case d <= -2:
		return pref{1, absoluteBalance}
	case d >= 2:
		return pref{-1, absoluteBalance}
	case threeInARow && len(c) >= 2 && c[len(c)-2] == last:
		return pref{-last, absolute}
	case d == -1:
		return pref{1, strong}
	case d == 1:
		return pref{-1, strong}
	}
	return pref{-last, mild}
}

// compatible reports whether a and b can meet without one of them breaking an
// absolute preference.
func (h *history) compatible(a, b int, threeInARow bool) bool {
	pa, pb := h.pref(a, threeInARow), h.pref(b, threeInARow)
	return pa.strength < absolute || pb.strength < absolute || pa.colour != pb.colour
}

// allocate gives a and b their colours (C.04.3 E, simplified): both
// preferences when they differ, else the stronger one, else the higher
// ranked player's (a is ranked above b); with no preference on either side
// the higher ranked player has White on odd boards (board counts from 0).
func (h *history) allocate(a, b, board int) (white, black int) {
	pa, pb := h.pref(a, true), h.pref(b, true)
	switch {
	case pa.colour == 0 && pb.colour == 0:
		if board%2 == 0 {
			return a, b
		}
		return b, a
	case pa.colour != pb.colour && pa.colour != 0 && pb.colour != 0:
		if pa.colour > 0 {
			return a, b
		}
		return b, a
	case pb.strength > pa.strength:
		if pb.colour > 0 {
			return b, a
		}
		return a, b
	}
	if pa.colour > 0 {
		return a, b
	}
	return b, a
}
