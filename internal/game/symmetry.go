package game

// The symmetries of a board are the rotations and reflections that map it
// onto itself and its lines onto lines: 8 for a square, 4 for a rectangle.
// Positions equal up to symmetry are the same position to a player, so
// puzzles are named by their canonical image.

// symmetries builds g's cell permutations, the identity first: perm[s][c] is
// the cell that symmetry s sends c to.
func symmetries(rows, cols int) [][]int {
	fs := []func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return r, cols - 1 - c },
		func(r, c int) (int, int) { return rows - 1 - r, c },
		func(r, c int) (int, int) { return rows - 1 - r, cols - 1 - c },
	}
	if rows == cols {
		fs = append(fs,
			func(r, c int) (int, int) { return c, r },
			func(r, c int) (int, int) { return cols - 1 - c, r },
			func(r, c int) (int, int) { return c, rows - 1 - r },
			func(r, c int) (int, int) { return cols - 1 - c, rows - 1 - r },
		)
	}
	perms := make([][]int, len(fs))
	for s, f := range fs {
		perms[s] = make([]int, rows*cols)
		for r := range rows {
			for c := range cols {
				tr, tc := f(r, c)
				perms[s][r*cols+c] = tr*cols + tc
			}
		}
	}
	return perms
}

// Symmetries returns the board's symmetries as cell permutations, the
// identity first: Symmetries()[s][c] is the cell symmetry s sends c to. The
// slices must not be modified.
func (g *Geometry) Symmetries() [][]int { return g.syms }

// Map returns the cells of m moved by permutation perm.
func (m Mask) Map(perm []int) Mask {
	var out Mask
	for _, c := range m.Cells() {
		out |= 1 << perm[c]
	}
	return out
}

// Map returns p seen through symmetry s of its board.
func (p Position) Map(s int) Position {
	perm := p.geo.syms[s]
	return Position{geo: p.geo, x: p.x.Map(perm), o: p.o.Map(perm)}
}

// Canonical returns the image of p that every position equal to it up to
// symmetry shares (the least by X's then O's cells), and the symmetry s with
// p.Map(s) equal to it.
func (p Position) Canonical() (Position, int) {
	best, sym := p, 0
	for s := 1; s < len(p.geo.syms); s++ {
		q := p.Map(s)
		if q.x < best.x || q.x == best.x && q.o < best.o {
			best, sym = q, s
		}
	}
	return best, sym
}
