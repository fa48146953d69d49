package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// A click made before its turn's deadline and held past it by another
// connection's lock on the games is played once the lock is released; the
// timers, looking at the game meanwhile, within tttbot.DeadlineGrace of
// the deadline, find nothing due and end nothing. A click made at the
// deadline or after is refused and changes nothing.
func testMoveHeldPastDeadline(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	g := StartGame(t, db, "c1", "alice", "bob") // alice to move
	deadline := g.Deadline
	held := deadline.Add(tttbot.DeadlineGrace - time.Second) // when the lock lets go

	_, err := db.Expire(ctx, g.ID, g.Version, held)
	WantCode(t, err, tttbot.EINVALID)

	release := db.lock(t)
	m := Click(g, "alice", 4)
	m.At, m.Deadline = deadline.Add(-time.Millisecond), held.Add(2*time.Minute)
	type played struct {
		g   *tttbot.Game
		err error
	}
	move := make(chan played, 1)
	go func() {
		g, err := db.Play(ctx, m, nil)
		move <- played{g, err}
	}()
	due := make(chan []*tttbot.Game, 1)
	go func() {
		gs, err := db.Due(ctx, held, 0)
		if err != nil {
			t.Errorf("due while the lock holds the click: %v", err)
		}
		due <- gs
	}()
	db.awaitLockWaiters(t, 2)
	release()

	if p := <-move; p.err != nil || p.g.Board != ".../.X./..." || p.g.Turn != "bob" {
		t.Errorf("the click made in time: got %+v, %v; want it played, bob to move", p.g, p.err)
	}
	if gs := <-due; len(gs) != 0 {
		t.Errorf("due within the grace: got %d games, want none", len(gs))
	}
	if gs := Must[[]*tttbot.Game](t)(db.Due(ctx, deadline.Add(tttbot.DeadlineGrace), 0)); len(gs) != 0 {
		t.Errorf("due after the grace: got %d games, want none: the move set the next deadline", len(gs))
	}

	// bob clicks at his deadline, and the timers end the game after it.
	g = Must[*tttbot.Game](t)(db.Game(ctx, g.ID))
	late := Click(g, "bob", 0)
	late.At = g.Deadline
	if _, err = db.Play(ctx, late, nil); !errors.Is(err, tttbot.ErrTimeUp) {
		t.Errorf("a click made at the deadline: got %v, want %v", err, tttbot.ErrTimeUp)
	}
	got := Must[*tttbot.Game](t)(db.Expire(ctx, g.ID, g.Version, g.Deadline.Add(tttbot.DeadlineGrace)))
	if got.Status != tttbot.StatusFinished || got.Reason != tttbot.ReasonTimeout || got.Winner != "alice" {
		t.Errorf("after bob's time ran out: got %s %s won by %q, want alice to win on time", got.Status, got.Reason, got.Winner)
	}
}

// lock holds the games from another connection until the returned
// function releases them (see DB.Lock).
func (db *DB) lock(t testing.TB) (release func()) {
	t.Helper()
	conn, err := db.SQL.Conn(t.Context())
	OK(t, err)
	for _, q := range db.Lock {
		if _, err := conn.ExecContext(t.Context(), q); err != nil {
			conn.Close()
			t.Fatalf("%s: %v", q, err)
		}
	}
	return func() {
		_, err := conn.ExecContext(context.WithoutCancel(t.Context()), "ROLLBACK")
		OK(t, err)
		OK(t, conn.Close())
	}
}

// awaitLockWaiters waits until n connections wait for a lock, where the
// engine tells (see DB.LockWaiters).
func (db *DB) awaitLockWaiters(t testing.TB, n int) {
	t.Helper()
	if db.LockWaiters == "" {
		return
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got int
		OK(t, db.SQL.QueryRowContext(t.Context(), db.LockWaiters).Scan(&got))
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections wait for the lock after 10s, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

// A move, or the acceptance of a challenge, that another connection's
// lock held between its click and its write gives the next player a whole
// turn from when it is stored, not from the click: the deadline it asked
// for moves by the wait.
func testMoveHeldKeepsNextTurn(t *testing.T, newDB Opener) {
	for _, tt := range []struct {
		name  string
		write func(db *DB, g *tttbot.Game) (*tttbot.Game, error)
		asked time.Duration // the turn the write asks for
	}{
		{"move", func(db *DB, g *tttbot.Game) (*tttbot.Game, error) {
			return db.Play(t.Context(), Click(g, "alice", 4), g)
		}, 3*time.Minute - time.Second},
		{"accept", func(db *DB, g *tttbot.Game) (*tttbot.Game, error) {
			return db.Accept(t.Context(), tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: g.Version, XPlayer: "alice",
				At: t0.Add(time.Second), Deadline: t0.Add(2 * time.Minute)})
		}, 2*time.Minute - time.Second},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clk := &lockedClock{t: t0}
			db := newDB(t, Options{Now: clk.Now})
			var g *tttbot.Game
			if tt.name == "move" {
				g = StartGame(t, db, "c1", "alice", "bob") // alice to move
			} else {
				g = Challenge("c1", "alice", "bob")
				OK(t, db.StartGame(t.Context(), g, nil))
			}

			release := db.lock(t)
			type written struct {
				g   *tttbot.Game
				err error
			}
			done := make(chan written, 1)
			go func() {
				g, err := tt.write(db, g)
				done <- written{g, err}
			}()
			db.awaitLockWaiters(t, 1)
			stored := t0.Add(9 * time.Second)
			clk.set(stored)
			// The stall lasts longer than a store lets its one-statement
			// write wait before it times the turn again under the game's
			// lock.
			<-time.After(500 * time.Millisecond)
			release()

			w := <-done
			if w.err != nil {
				t.Fatalf("the held click: %v", w.err)
			}
			want := stored.Add(tt.asked)
			if got := Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID)); !w.g.Deadline.Equal(want) || !got.Deadline.Equal(want) {
				t.Errorf("deadline: got %s (stored %s), want %s: a whole turn from when the click was stored", w.g.Deadline, got.Deadline, want)
			}
		})
	}
}

// lockedClock is a settable test clock that a store may read while the
// test sets it.
type lockedClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *lockedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *lockedClock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
