package commands

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/puzzle"
)

func TestPuzzleClickRoundTrip(t *testing.T) {
	for _, c := range []puzzleClick{
		{id: "3x3k3-mr2pfm", start: time.Unix(1_800_000_000, 0).UTC(), cell: 4},
		{id: "5x5k4-4duh0e2o", moves: []int{24, 0, 13}, start: time.Unix(1_800_000_001, 0).UTC(), cell: 7},
	} {
		s := c.String()
		if len(s) > 100 {
			t.Errorf("%q: %d characters, more than a custom_id holds", s, len(s))
		}
		got, err := parsePuzzleClick(s)
		if err != nil || got.String() != s {
			t.Errorf("parse %q: got %+v, %v", s, got, err)
		}
	}
	for _, bad := range []string{"", "ttt:z", "ttt:z:id:-:abc", "ttt:m:id:-:abc:4", "ttt:z::-:abc:4", "ttt:z:id:!:abc:4",
		"ttt:z:id:-:abc:25", "ttt:z:id:-:-1:4", "ttt:z:id:p:abc:4", "ttt:z:id:-:abc:x"} {
		if _, err := parsePuzzleClick(bad); err == nil {
			t.Errorf("parse %q: got no error", bad)
		}
	}
}

// FuzzParsePuzzleClick: a puzzle button that parses is written back as it
// was read, up to its moves' letter case, and fits a custom_id.
func FuzzParsePuzzleClick(f *testing.F) {
	for _, s := range []string{"ttt:z:3x3k3-mr2pfm:-:tsq8w0:4", "ttt:z:5x5k4-4duh0e2o:o0d:tsq8w1:7", "ttt:z:x:OO:1:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parsePuzzleClick(s)
		if err != nil {
			return
		}
		again, err := parsePuzzleClick(c.String())
		if err != nil || again.String() != c.String() {
			t.Errorf("%q: written back as %q, which reads as %+v, %v", s, c.String(), again, err)
		}
	})
}

// puzzleButtons are the custom IDs of a puzzle board's enabled cells, by cell.
func puzzleButtons(t *testing.T, r interaction.Reply) map[int]string {
	t.Helper()
	out := map[int]string{}
	walk(r.Response.Data.Components, func(c discordgo.MessageComponent) {
		if b, ok := c.(discordgo.Button); ok && !b.Disabled {
			pc, err := parsePuzzleClick(b.CustomID)
			if err != nil {
				t.Fatalf("button %q: %v", b.CustomID, err)
			}
			out[pc.cell] = b.CustomID
		}
	})
	return out
}

// TestPuzzle: /ttt puzzle shows the unseen puzzle rated nearest the
// player's rating, privately; a winning move gets the bot's defence, the
// win a rated solve with its plies and time; a move that does not win
// ends the attempt with its value and the winning moves; a replay of a
// seen puzzle is not rated; /ttt stats shows the puzzle rating; and a
// player who has seen them all is told so.
func TestPuzzle(t *testing.T) {
	h, db := newTestHandler(t)
	ctx := context.Background()
	var ps []tttbot.Puzzle
	for _, s := range []string{"3x3k3-mr2pfm XO./X.X/O.. missed 4 2 7", "3x3k3-1nxkbk .O./X../X.. found 0 2 4 5 7+8"} {
		p, err := puzzle.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	ps[0].R, ps[1].R = 1500, 1000
	if _, err := db.AddPuzzles(ctx, ps, testNow); err != nil {
		t.Fatal(err)
	}
	open := func() interaction.Reply {
		t.Helper()
		r := h.Handle(ctx, slash(t, alice, "", "dm1", subcommand("puzzle", "")))
		if r.Code != "" {
			t.Fatalf("/ttt puzzle: code %q, %q", r.Code, r.Response.Data.Content)
		}
		if d := r.Response.Data; d.Flags&discordgo.MessageFlagsEphemeral == 0 || d.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 {
			t.Errorf("got flags %b, want a private components V2 message", d.Flags)
		}
		return r
	}
	press := func(r interaction.Reply, cell int) interaction.Reply {
		t.Helper()
		id, ok := puzzleButtons(t, r)[cell]
		if !ok {
			t.Fatalf("no enabled button on cell %d", cell)
		}
		return h.Handle(ctx, click(alice, "", "dm1", "m1", "dm1", id))
	}
	want := func(r interaction.Reply, parts ...string) {
		t.Helper()
		text := shown(r.Response.Data)
		for _, p := range parts {
			if !strings.Contains(text, p) {
				t.Errorf("got %q, want %q in it", text, p)
			}
		}
	}

	first := open()
	want(first, "Puzzle", "rated 1,500", "your moves to the win: 2", "You play ⭕: find the forced win.")
	r := press(first, 4)
	want(r, "You played **B2**, I answer **C1**.")
	r = press(r, 7)
	want(r, "Solved! Moves played: 3", "Puzzle rating: **")
	if n := len(puzzleButtons(t, r)); n != 0 {
		t.Errorf("a solved board has %d enabled cells, want none", n)
	}
	st, err := db.PuzzleStanding(ctx, alice)
	if err != nil || st.Attempts != 1 || st.Solves != 1 || st.Streak != 1 || st.R <= 1500 {
		t.Errorf("after a solve: %+v, %v; want one rated solve, up from 1500", st, err)
	}

	second := open()
	want(second, "rated 1,000")
	r = press(second, 8)
	want(r, "❌ **C3**", "The winning moves were: **A1**.", "solved in a row: 0")
	if st, _ := db.PuzzleStanding(ctx, alice); st.Attempts != 2 || st.Solves != 1 || st.Streak != 0 {
		t.Errorf("after a failure: %+v; want two rated attempts, one solved", st)
	}

	// The first board's buttons again: a replay, not rated.
	r = press(press(first, 4), 7)
	want(r, "Solved!", "not rated")
	if st, _ := db.PuzzleStanding(ctx, alice); st.Attempts != 2 {
		t.Errorf("a replay counted: %+v", st)
	}

	// /ttt stats shows the puzzle rating, solves and streak.
	want(h.Handle(ctx, slash(t, alice, "", "dm1", subcommand("stats", ""))), "🧩 Puzzles — **", "solved: 1 of 2 · in a row: 0 (best 1)")

	// Two rated attempts do not rank alice on the puzzle leaderboard.
	want(h.Handle(ctx, slash(t, alice, "", "dm1", subcommand("leaderboard", `{"name":"scope","type":3,"value":"puzzles"}`))),
		"Puzzle leaderboard", "Nobody is ranked yet; rated puzzles needed: 5.")

	wantRefused(t, h.Handle(ctx, slash(t, alice, "", "dm1", subcommand("puzzle", ""))), tttbot.ENOTFOUND, "tried every puzzle")
	wantRefused(t, h.Handle(ctx, click(alice, "", "dm1", "m1", "dm1", "ttt:z:3x3k3-mr2pfm:44:1:0")), tttbot.EINVALID, "")
	wantRefused(t, h.Handle(ctx, click(alice, "", "dm1", "m1", "dm1", "ttt:z:3x3k3-none:-:1:0")), tttbot.ENOTFOUND, "")
}

// TestPuzzleLeaderboard: a player with five rated attempts is listed with
// their conservative rating, rating ± deviation and solves of attempts.
func TestPuzzleLeaderboard(t *testing.T) {
	h, db := newTestHandler(t)
	ctx := context.Background()
	all, err := puzzle.Starter()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddPuzzles(ctx, all[:5], testNow); err != nil {
		t.Fatal(err)
	}
	for i, p := range all[:5] {
		a := tttbot.PuzzleAttempt{Player: bob, PuzzleID: p.ID, Solved: i != 2, At: testNow}
		if _, _, err := db.AttemptPuzzle(ctx, a, tttbot.Player{Name: "Bob"}); err != nil {
			t.Fatal(err)
		}
	}
	r := h.Handle(ctx, slash(t, alice, "g1", "c1", subcommand("leaderboard", `{"name":"scope","type":3,"value":"puzzles"}`)))
	text := shown(r.Response.Data)
	for _, w := range []string{"**1.** Bob — **", " · 4/5\n", "Ranked players: 1"} {
		if !strings.Contains(text, w) {
			t.Errorf("got %q, want %q in it", text, w)
		}
	}
}
