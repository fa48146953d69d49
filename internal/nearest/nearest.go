// Package nearest finds the word a mistyped one was probably meant to be,
// for the "did you mean" of config keys, variables and subcommands.
package nearest

// Distance is the Levenshtein distance between a and b: the fewest
// single-byte insertions, deletions and substitutions that turn a into b.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Word returns the candidate nearest to word at a distance below limit,
// the first in sort order among equals, or "" when none is that near.
func Word(word string, candidates []string, limit int) string {
	best, bestDist := "", limit
	for _, c := range candidates {
		if d := Distance(word, c); d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	return best
}
