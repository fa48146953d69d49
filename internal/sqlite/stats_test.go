package sqlite

import (
	"testing"

	"github.com/tttbot/tttbot"
)

func TestActiveGames(t *testing.T) {
	db, _ := newDB(t, Options{})
	count := func() int {
		t.Helper()
		n, err := db.ActiveGames(t.Context())
		ok(t, err)
		return n
	}
	if got := count(); got != 0 {
		t.Fatalf("empty database: got %d active games, want 0", got)
	}
	ok(t, db.CreateGame(t.Context(), challenge("c1", "a", "b"))) // pending: not active
	g := startGame(t, db, "c2", "a", "b")
	startGame(t, db, "c3", "a", "b")
	if got := count(); got != 2 {
		t.Fatalf("got %d active games, want 2", got)
	}
	must[*tttbot.Game](t)(db.Resign(t.Context(), g.ID, "a", t0))
	if got := count(); got != 1 {
		t.Errorf("after a resignation: got %d active games, want 1", got)
	}
}
