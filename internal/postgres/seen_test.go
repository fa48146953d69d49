package postgres

import (
	"errors"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/settingsrow"
	"github.com/tttbot/tttbot/internal/storetest"
)

// TestPlaySeenPath: a move on a game as seen takes the one-statement path
// while the game and its guild's turn timeout are as read, and nothing
// else; when it stands aside it has written nothing.
func TestPlaySeenPath(t *testing.T) {
	at := time.UnixMilli(1_700_000_000_000).UTC()
	db, _ := newDB(t, Options{Now: func() time.Time { return at }}) // the moves are stored when made
	ctx := t.Context()
	g := guildGame(t, db, at)
	click := func(g *tttbot.Game, cell int) tttbot.MoveRequest {
		return tttbot.MoveRequest{GameID: g.ID, Player: g.Turn, Cell: cell, Version: g.Version, At: at, Deadline: at.Add(time.Minute)}
	}
	moves := func() int {
		var n int
		if err := db.pool.QueryRow(ctx, "SELECT count(*) FROM moves WHERE game_id = $1", g.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	// With the guild's turn timeout forgotten, the locking path reads it.
	db.turnTimeouts = settingsrow.TurnTimeouts{}
	if _, err := db.playSeen(ctx, click(g, 4), g); !errors.Is(err, errMovedOn) {
		t.Fatalf("first move in an unread guild: got %v, want errMovedOn", err)
	}
	g, err := db.Play(ctx, click(g, 4), g)
	if err != nil {
		t.Fatal(err)
	}
	next, err := db.playSeen(ctx, click(g, 0), g)
	if err != nil {
		t.Fatalf("a move on the game as read: %v", err)
	}
	if n := moves(); n != 2 {
		t.Fatalf("got %d moves stored, want 2", n)
	}

	// Each of these would take the short path but for what it names.
	other := click(next, 8)
	other.GameID++
	for _, tt := range []struct {
		name string
		m    tttbot.MoveRequest
		seen *tttbot.Game
	}{
		{"on an old game", click(g, 1), g}, // g is one move behind next
		{"refused", click(next, 4), next},
		{"seen of another game", other, next},
	} {
		if _, err := db.playSeen(ctx, tt.m, tt.seen); !errors.Is(err, errMovedOn) {
			t.Errorf("a move %s: got %v, want errMovedOn", tt.name, err)
		}
	}
	if _, err := db.pool.Exec(ctx, "UPDATE guilds SET turn_timeout = 3600 WHERE id = '903'"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.playSeen(ctx, click(next, 8), next); !errors.Is(err, errMovedOn) {
		t.Errorf("a move after the guild's turn timeout changed: got %v, want errMovedOn", err)
	}
	if n := moves(); n != 2 {
		t.Errorf("got %d moves stored after the moves that stood aside, want 2", n)
	}

	// Play learns the new timeout; the next move takes the short path again.
	next, err = db.Play(ctx, click(next, 8), next)
	if err != nil {
		t.Fatal(err)
	}
	if want := at.Add(time.Hour); !next.Deadline.Equal(want) {
		t.Errorf("deadline %s, want %s", next.Deadline, want)
	}
	next, err = db.playSeen(ctx, click(next, 1), next)
	if err != nil {
		t.Fatalf("a move once the timeout is read again: %v", err)
	}

	// The guild's settings saved here: the next move takes the short path
	// with the timeout they saved.
	if _, err := db.UpdateSettings(ctx, "903", func(s *tttbot.Settings) error { s.TurnTimeout = 2 * time.Hour; return nil }); err != nil {
		t.Fatal(err)
	}
	next, err = db.playSeen(ctx, click(next, 2), next)
	if err != nil {
		t.Fatalf("a move after the settings were saved: %v", err)
	}
	if want := at.Add(2 * time.Hour); !next.Deadline.Equal(want) {
		t.Errorf("deadline %s, want %s", next.Deadline, want)
	}
}

// TestChangeSettingsAfterLock: a change that waited for its game's lock
// applies its guild's settings as they are once it holds it, so that an
// admin's change committed meanwhile counts, as SQLite's one writer has it.
func TestChangeSettingsAfterLock(t *testing.T) {
	at := time.UnixMilli(1_700_000_000_000).UTC()
	db, _ := newDB(t, Options{Now: func() time.Time { return at }})
	ctx := t.Context()
	g := guildGame(t, db, at)
	if _, err := db.pool.Exec(ctx, "UPDATE guilds SET turn_timeout = 60 WHERE id = '903'"); err != nil {
		t.Fatal(err)
	}
	hold, err := db.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Rollback(ctx)
	if _, err := hold.Exec(ctx, "SELECT 1 FROM games WHERE id = $1 FOR UPDATE", g.ID); err != nil {
		t.Fatal(err)
	}
	type result struct {
		g   *tttbot.Game
		err error
	}
	done := make(chan result)
	go func() {
		m := tttbot.MoveRequest{GameID: g.ID, Player: "alice", Cell: 4, Version: g.Version, At: at, Deadline: at.Add(time.Minute)}
		got, err := db.Play(ctx, m, nil)
		done <- result{got, err}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		var waiting int
		err := db.pool.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'").Scan(&waiting)
		if err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the move does not wait for the game's lock after 10s")
		}
	}
	if _, err := db.pool.Exec(ctx, "UPDATE guilds SET turn_timeout = 3600 WHERE id = '903'"); err != nil {
		t.Fatal(err)
	}
	if err := hold.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if want := at.Add(time.Hour); !r.g.Deadline.Equal(want) {
		t.Errorf("got the next turn due %v, want %v: the guild's timeout as committed while the move waited", r.g.Deadline, want)
	}
}

// guildGame is a game of alice's, X, against bob in guild 903, accepted at
// time at.
func guildGame(t *testing.T, db *DB, at time.Time) *tttbot.Game {
	t.Helper()
	g := storetest.Challenge("c1", "alice", "bob")
	g.GuildID = "903"
	if err := db.StartGame(t.Context(), g, nil); err != nil {
		t.Fatal(err)
	}
	g, err := db.Accept(t.Context(), tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: g.Version, XPlayer: "alice", At: at, Deadline: at.Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	return g
}
