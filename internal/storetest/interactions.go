package storetest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// in is ctx serving a fresh Interaction with id: a request as it arrives,
// or a recorded one sent again.
func in(ctx context.Context, id string) context.Context {
	return tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: id})
}

// games counts the games stored.
func games(t *testing.T, db *DB) int {
	t.Helper()
	var n int
	if err := db.SQL.QueryRow("SELECT count(*) FROM games").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestReplayRefused: the first transaction of an interaction records it; a
// replay's transaction is refused and changes nothing, whichever method
// runs it; later transactions of the interaction itself go through.
func testReplayRefused(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	first := in(ctx, "9001")
	if err := db.StartGame(first, Challenge("c1", "alice", "bob"), nil); err != nil {
		t.Fatalf("create game: %v", err)
	}
	if !tttbot.InteractionFrom(first).Recorded() {
		t.Error("got the interaction unrecorded after its commit")
	}
	// The same interaction goes on: accepting is its second transaction.
	g, err := db.Accept(first, tttbot.AcceptRequest{GameID: 1, Player: "bob", Version: 1, XPlayer: "alice", At: t0, Deadline: t0.Add(time.Minute)})
	if err != nil {
		t.Fatalf("accept in the same interaction: %v", err)
	}

	replays := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"create game", func(ctx context.Context) error { return db.StartGame(ctx, Challenge("c2", "carol", "dave"), nil) }},
		{"play", func(ctx context.Context) error { _, err := db.Play(ctx, Click(g, "alice", 0), nil); return err }},
		{"resign", func(ctx context.Context) error { _, err := db.Resign(ctx, g.ID, "alice", t0, nil); return err }},
		{"set message", func(ctx context.Context) error { return db.SetMessage(ctx, g.ID, "m1") }},
		{"settings", func(ctx context.Context) error {
			_, err := db.UpdateSettings(ctx, "900", func(s *tttbot.Settings) error { s.Simultaneous = new(true); return nil })
			return err
		}},
		{"remember", func(ctx context.Context) error { return db.Remember(ctx) }},
	}
	for _, tt := range replays {
		t.Run(tt.name, func(t *testing.T) {
			WantCode(t, tt.run(in(ctx, "9001")), tttbot.EREPLAY)
		})
	}
	after, err := db.Game(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != g.Version || after.MessageID != "" || games(t, db) != 1 {
		t.Errorf("after the replays: got version %d, message %q, %d games; want %d, none, 1",
			after.Version, after.MessageID, games(t, db), g.Version)
	}
}

// TestClickTwice: a click is idempotent. The same interaction's move
// applied a second time — the request sent again, or run again by a store
// that lost the answer to its commit — is refused as a replay, on the game
// as read and under the game's lock alike: one move, the same game.
func testClickTwice(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	for i, seen := range []bool{true, false} {
		g := StartGame(t, db, fmt.Sprint("c", i), "alice", "bob")
		var on *tttbot.Game
		if seen {
			on = g
		}
		id := fmt.Sprint(9100 + i)
		first := Must[*tttbot.Game](t)(db.Play(in(ctx, id), Click(g, "alice", 4), on))
		for _, again := range []*tttbot.Game{g, nil} {
			_, err := db.Play(in(ctx, id), Click(g, "alice", 4), again)
			WantCode(t, err, tttbot.EREPLAY)
		}
		after := Must[*tttbot.Game](t)(db.Game(ctx, g.ID))
		moves := Must[[]tttbot.Move](t)(db.Moves(ctx, g.ID))
		type state struct {
			Version     int
			Board, Turn string
			Deadline    time.Time
		}
		got, want := state{after.Version, after.Board, after.Turn, after.Deadline}, state{first.Version, first.Board, first.Turn, first.Deadline}
		if len(moves) != 1 || got != want {
			t.Errorf("seen %v: got %d moves and %+v, want 1 and %+v", seen, len(moves), got, want)
		}
	}
}

// TestRefusedWriteRecordsNothing: a transaction that fails records no
// interaction, so the interaction may still be remembered.
func testRefusedWriteRecordsNothing(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	StartGame(t, db, "c1", "alice", "bob")
	busy := in(ctx, "9002")
	WantCode(t, db.StartGame(busy, Challenge("c1", "alice", "carol"), nil), tttbot.ECONFLICT)
	if seen, err := db.seen(ctx, "9002"); err != nil || seen {
		t.Fatalf("after a refused write: got seen %v, %v; want unseen", seen, err)
	}
	if err := db.Remember(busy); err != nil {
		t.Fatalf("remember: %v", err)
	}
	if err := db.Remember(busy); err != nil {
		t.Errorf("remember again in the same interaction: got %v, want nil", err)
	}
	if seen, err := db.seen(ctx, "9002"); err != nil || !seen {
		t.Errorf("after remember: got seen %v, %v; want seen", seen, err)
	}
	if err := db.Remember(ctx); err != nil {
		t.Errorf("remember without an interaction: got %v, want nil", err)
	}
}

// TestReplayAfterReopen: the record is in the database, so a replay right
// after a restart is still refused.
func testReplayAfterReopen(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	if err := db.StartGame(in(t.Context(), "9003"), Challenge("c1", "alice", "bob"), nil); err != nil {
		t.Fatal(err)
	}
	st := db.Reopen(t)
	WantCode(t, st.StartGame(in(t.Context(), "9003"), Challenge("c2", "alice", "bob"), nil), tttbot.EREPLAY)
	if n := games(t, db); n != 1 {
		t.Errorf("got %d games, want 1", n)
	}
}

// TestPruneInteractions: interactions seen before the cut-off go, oldest
// first, from among the limit lowest IDs at a time; later ones stay, and so
// does one recorded out of order, seen late with a low ID.
func testPruneInteractions(t *testing.T, newDB Opener) {
	c := &clock{t0}
	db := newDB(t, Options{Now: c.Now})
	ctx := t.Context()
	for i := range 5 {
		c.t = t0.Add(time.Duration(i) * time.Minute)
		if err := db.Remember(in(ctx, fmt.Sprint(100+i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Remember(in(ctx, "1")); err != nil { // seen at t0+4m
		t.Fatal(err)
	}
	cut := t0.Add(3 * time.Minute) // 100, 101 and 102 are older
	tests := []struct {
		limit, want int
		gone        string
	}{
		{2, 1, "100"},
		{2, 1, "101"},
		{2, 1, "102"},
		{2, 0, ""},
	}
	for _, tt := range tests {
		n, err := db.PruneInteractions(ctx, cut, tt.limit)
		if err != nil || n != tt.want {
			t.Fatalf("forget: got %d, %v; want %d", n, err, tt.want)
		}
		if seen, _ := db.seen(ctx, tt.gone); tt.gone != "" && seen {
			t.Errorf("got %s remembered, want it forgotten", tt.gone)
		}
	}
	for _, id := range []string{"1", "103", "104"} {
		if seen, _ := db.seen(ctx, id); !seen {
			t.Errorf("got %s forgotten, want it remembered", id)
		}
	}
}

// TestInteractionIDNotASnowflake: an ID that is no snowflake is never
// seen, and a write that would record it is refused.
func testInteractionIDNotASnowflake(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	for _, id := range []string{"abc", "-5", "0", "99999999999999999999"} {
		WantCode(t, db.StartGame(in(t.Context(), id), Challenge("c1", "alice", "bob"), nil), tttbot.EINVALID)
		if seen, err := db.seen(t.Context(), id); err != nil || seen {
			t.Errorf("%q: got seen %v, %v; want unseen", id, seen, err)
		}
	}
	if n := games(t, db); n != 0 {
		t.Errorf("got %d games, want none", n)
	}
}

// seen reports whether interaction id is recorded; an ID that is no
// snowflake cannot be.
func (db *DB) seen(ctx context.Context, id string) (bool, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return false, nil
	}
	var seen bool
	err = db.SQL.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM interactions WHERE id = $1)", n).Scan(&seen)
	if err != nil {
		return false, fmt.Errorf("find interaction: %w", err)
	}
	return seen, nil
}

// testMessageAgainRecorded: SetMessage for an interaction, finding the
// board message already stored, writes no message but records the
// interaction all the same, so that the interaction's later change, in a
// transaction that does not record it again, is refused when replayed.
func testMessageAgainRecorded(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	g := StartGame(t, db, "c1", "alice", "bob")
	OK(t, db.SetMessage(ctx, g.ID, "m1"))
	click := in(ctx, "9301")
	OK(t, db.SetMessage(click, g.ID, "m1"))
	if !tttbot.InteractionFrom(click).Recorded() {
		t.Fatal("got the click unrecorded after learning the message again")
	}
	moved := Must[*tttbot.Game](t)(db.Play(click, Click(g, "alice", 4), g))
	WantCode(t, db.SetMessage(in(ctx, "9301"), g.ID, "m1"), tttbot.EREPLAY)
	_, err := db.Play(in(ctx, "9301"), Click(g, "alice", 4), g)
	WantCode(t, err, tttbot.EREPLAY)
	if got := Must[*tttbot.Game](t)(db.Game(ctx, g.ID)); got.Version != moved.Version || got.MessageID != "m1" {
		t.Errorf("after the replays: got version %d, message %q; want %d, m1", got.Version, got.MessageID, moved.Version)
	}
}
