package tournament

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bergerTables reads testdata/berger.txt, FIDE Handbook C.05 Annex 1 "Berger
// Tables for Round-Robin Tournaments", as pairs of pairing numbers, White
// first, by the even player count.
func bergerTables(t *testing.T) map[int][][][2]int {
	t.Helper()
	b, err := os.ReadFile("testdata/berger.txt")
	if err != nil {
		t.Fatal(err)
	}
	tables := map[int][][][2]int{}
	head := regexp.MustCompile(`^\d+ or (\d+) players:$`)
	pair := regexp.MustCompile(`(\d+)-(\d+)`)
	n := 0
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if m := head.FindStringSubmatch(line); m != nil {
			n, _ = strconv.Atoi(m[1])
			continue
		}
		if !strings.HasPrefix(line, "Rd ") {
			continue
		}
		var rd [][2]int
		for _, m := range pair.FindAllStringSubmatch(line[strings.Index(line, ":"):], -1) {
			w, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			rd = append(rd, [2]int{w, b})
		}
		tables[n] = append(tables[n], rd)
	}
	return tables
}

// numbered writes a schedule in the tables' notation: pairing numbers, a bye
// as 0.
func numbered(rounds []Round) [][][2]int {
	var out [][][2]int
	for _, r := range rounds {
		var rd [][2]int
		for _, g := range r {
			rd = append(rd, [2]int{g.White + 1, g.Black + 1})
		}
		out = append(out, rd)
	}
	return out
}

func TestRoundRobinMatchesFIDEBergerTables(t *testing.T) {
	tables := bergerTables(t)
	if len(tables) != 7 {
		t.Fatalf("read %d tables, want 7 (4 to 16 players)", len(tables))
	}
	for even, want := range tables {
		t.Run(fmt.Sprint(even), func(t *testing.T) {
			if diff := cmp.Diff(want, numbered(RoundRobin(even))); diff != "" {
				t.Errorf("RoundRobin(%d) (-FIDE +got):\n%s", even, diff)
			}
			// Odd: the highest number is the bye, listed last here.
			var odd [][][2]int
			for _, rd := range want {
				var r [][2]int
				var bye [2]int
				for _, p := range rd {
					switch even {
					case p[0]:
						bye = [2]int{p[1], 0}
					case p[1]:
						bye = [2]int{p[0], 0}
					default:
						r = append(r, p)
					}
				}
				odd = append(odd, append(r, bye))
			}
			if diff := cmp.Diff(odd, numbered(RoundRobin(even-1))); diff != "" {
				t.Errorf("RoundRobin(%d) (-FIDE +got):\n%s", even-1, diff)
			}
		})
	}
}

func TestRoundRobinEveryPairOnce(t *testing.T) {
	for n := 2; n <= 16; n++ {
		met := map[[2]int]int{}
		byes := make([]int, n)
		for _, r := range RoundRobin(n) {
			seen := make([]bool, n)
			for _, g := range r {
				for _, p := range []int{g.White, g.Black} {
					if p == Bye {
						continue
					}
					if seen[p] {
						t.Fatalf("n=%d: player %d twice in a round", n, p)
					}
					seen[p] = true
				}
				if g.IsBye() {
					byes[g.White]++
					continue
				}
				met[[2]int{min(g.White, g.Black), max(g.White, g.Black)}]++
			}
		}
		if got, want := len(met), n*(n-1)/2; got != want {
			t.Errorf("n=%d: %d pairs met, want %d", n, got, want)
		}
		for pr, k := range met {
			if k != 1 {
				t.Errorf("n=%d: %v met %d times", n, pr, k)
			}
		}
		for p, b := range byes {
			if want := n % 2; b != want {
				t.Errorf("n=%d: player %d had %d byes, want %d", n, p, b, want)
			}
		}
	}
}
