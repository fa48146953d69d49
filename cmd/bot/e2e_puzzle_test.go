package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// puzzleCell is the button of cell on a puzzle's board, which must be
// enabled.
func puzzleCell(t *testing.T, board *discordtest.Message, cell int) discordtest.Button {
	t.Helper()
	b, ok := board.FindButton(func(b discordtest.Button) bool {
		return strings.HasPrefix(b.CustomID, "ttt:z:") && strings.HasSuffix(b.CustomID, ":"+strconv.Itoa(cell)) && !b.Disabled
	})
	if !ok {
		t.Fatalf("no enabled cell %d on the puzzle:\n%s", cell, board)
	}
	return b
}

// TestPuzzleEndToEnd, in both modes, in a DM: the bot stores its starter
// set on start; /ttt puzzle shows a puzzle privately; following its line
// solves it, rated, the bot answering each move with the stored defence;
// the next puzzle, answered with a move that does not win, fails with the
// winning moves shown; both attempts are stored with the player's puzzle
// rating.
func TestPuzzleEndToEnd(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice := h.srv.NewUser("alice")
		dm := h.srv.NewDMChannel()
		db, err := sqlite.Open(t.Context(), h.db, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		// The starter set is stored before the bot is ready.
		if _, err := db.NextPuzzle(t.Context(), alice.ID, tttbot.Shape{}, 1500); err != nil {
			t.Fatalf("no starter puzzle stored: %v", err)
		}

		open := func() (*discordtest.Message, *tttbot.Puzzle) {
			t.Helper()
			board := h.srv.Slash(t, alice, dm, "ttt puzzle").Result(t)
			if !board.Ephemeral() || !strings.Contains(board.Text(), "find the forced win") {
				t.Fatalf("got %s, want a private puzzle", board)
			}
			id := strings.Split(board.ButtonWithID(t, "ttt:z:").CustomID, ":")[2]
			p, err := db.Puzzle(t.Context(), id)
			if err != nil {
				t.Fatal(err)
			}
			return board, p
		}

		board, p := open()
		for i := 0; i < len(p.Line); i += 2 {
			board = h.srv.Click(t, alice, board, puzzleCell(t, board, p.Line[i].Cell).CustomID).Result(t)
		}
		if !strings.Contains(board.Text(), "Solved!") || !strings.Contains(board.Text(), "Puzzle rating:") {
			t.Errorf("after the line: %s, want it solved and rated", board)
		}

		board, p = open()
		pos, err := p.Position()
		if err != nil {
			t.Fatal(err)
		}
		wrong := (pos.Empty() &^ p.Line[0].Wins).Cells()[0]
		board = h.srv.Click(t, alice, board, puzzleCell(t, board, wrong).CustomID).Result(t)
		if !strings.Contains(board.Text(), "❌") || !strings.Contains(board.Text(), "The winning moves were") {
			t.Errorf("after a wrong move: %s, want the failure and the winning moves", board)
		}
		st, err := db.PuzzleStanding(t.Context(), alice.ID)
		if err != nil || st.Attempts != 2 || st.Solves != 1 {
			t.Errorf("alice's puzzle standing: %+v, %v; want 2 rated attempts, 1 solved", st, err)
		}
	})
}
