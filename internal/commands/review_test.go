package commands

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

// TestJudge judges moves of 3×3 positions whose values are known by hand,
// with the real solver.
func TestJudge(t *testing.T) {
	e := ai.New(ai.Options{})
	tests := []struct {
		name    string
		board   string
		cell    int
		verdict ai.Verdict
		better  []int
		says    string
	}{
		{"win at once", "XX./OO./...", 2, ai.Best, nil, "wins by force"},
		{"throws away the win", "XX./OO./...", 8, ai.Mistake, []int{2}, "gives away the win (lost now); C1 wins"},
		{"a slower win", "XX./O../O..", 4, ai.Inaccuracy, []int{2}, "still wins, but C1 wins sooner"},
		{"any opening draws", ".../.../...", 1, ai.Best, nil, "✅ best"},
		{"a corner holds the draw", ".../.X./...", 0, ai.Best, nil, "✅ best"},
		{"an edge loses", ".../.X./...", 1, ai.Mistake, []int{0, 2, 6, 8}, "gives away the draw; A1, C1, A3 or 1 more holds it"},
		{"already lost", "XX./OX./..O", 7, ai.Best, nil, "lost already"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := game.Parse(tt.board, 3)
			if err != nil {
				t.Fatal(err)
			}
			a, err := e.Analyze(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			j := judge(a, tt.cell)
			en := mustCatalog().Source()
			if j.verdict != tt.verdict || !slices.Equal(j.better, tt.better) {
				t.Errorf("got verdict %d, better %v; want %d, %v", j.verdict, j.better, tt.verdict, tt.better)
			}
			if got := j.text(en, p.Geometry()); !strings.Contains(got, tt.says) {
				t.Errorf("got %q, want it to say %q", got, tt.says)
			}
		})
	}
	// An analysis cut short judges nothing.
	en := mustCatalog().Source()
	if j := judge(ai.Analysis{Moves: []ai.MoveValue{{Cell: 1}}, Best: []int{1}}, 1); j.verdict != ai.Unsolved || !strings.Contains(j.text(en, nil), "not solved") {
		t.Errorf("unproven analysis: got %+v", j)
	}
}

// TestJudgeMovesUnsolved gives the solver too little time for the opening
// of a 5×5 game: those moves are judged unsolved, and the review says so.
func TestJudgeMovesUnsolved(t *testing.T) {
	h := &Handler{ai: ai.New(ai.Options{TimeBudget: time.Microsecond})}
	geo := game.MustGeometry(5, 5, 4)
	r := &replayed{geo: geo, positions: []game.Position{game.NewPosition(geo)}}
	for n, c := range []int{12, 6, 13, 7, 11, 8, 14} { // X takes C3, D3, B3, E3: four in a row
		next, err := r.positions[n].Play(c)
		if err != nil {
			t.Fatal(err)
		}
		r.positions = append(r.positions, next)
		r.moves = append(r.moves, tttbot.Move{Ply: n + 1, Cell: c})
	}
	js, err := h.judgeMoves(context.Background(), r, 0, len(r.moves))
	if err != nil {
		t.Fatal(err)
	}
	en := mustCatalog().Source()
	for n, j := range js[:2] {
		if j.verdict != ai.Unsolved || j.text(en, geo) != "❔ not solved in time" {
			t.Errorf("move %d: got %+v (%q), want unsolved", n+1, j, j.text(en, geo))
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("line of text\n", 200) + "a 🎉 end"
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"one\ntwo\nthree", 10, "one\n…"},
		{"abcdefghij", 6, "ab\n…"}, // "…" is three bytes
		{"ab🎉cdef", 8, "ab\n…"},    // not inside the emoji
	}
	for _, tt := range tests {
		if got := clip(tt.in, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
	got := clip(long, maxContent)
	if len(got) > maxContent || !utf8.ValidString(got) || !strings.HasSuffix(got, "text\n…") {
		t.Errorf("clip of %d bytes: got %d bytes ending %q", len(long), len(got), got[len(got)-10:])
	}
}

func TestBoardIDRoundTrip(t *testing.T) {
	for _, want := range []leaderboardID{{Global: true, Rows: 3, Cols: 3, K: 3}, {Rows: 5, Cols: 5, K: 4, Page: 9999}} {
		s := want.String()
		got, err := parseLeaderboardID(s)
		if err != nil || got != want {
			t.Errorf("parseLeaderboardID(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	for _, s := range []string{"ttt:l:x:3:3:3:0", "ttt:l:s:3:3:3", "ttt:l:s:3:3:3:-1", "ttt:l:s:3:3:3:01", "ttt:m:s:3:3:3:0", "ttt:l:g:3:3:3:0:0"} {
		if b, err := parseLeaderboardID(s); err == nil {
			t.Errorf("parseLeaderboardID(%q) = %+v, want an error", s, b)
		}
	}
}

func FuzzParseBoardID(f *testing.F) {
	for _, s := range []string{"ttt:l:s:3:3:3:0", "ttt:l:g:5:5:4:12", "ttt:l:::::", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := parseLeaderboardID(s)
		if err != nil {
			return
		}
		if again, err := parseLeaderboardID(b.String()); err != nil || again != b || b.String() != s {
			t.Errorf("%q parsed to %+v, re-encoded %q parsed to %+v, %v", s, b, b.String(), again, err)
		}
	})
}
