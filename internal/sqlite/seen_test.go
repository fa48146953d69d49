package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/settingsrow"
	"github.com/tttbot/tttbot/internal/storetest"
)

// TestPlaySeenPath: a move on a game as seen is written without a read of
// the game while the game is as read, and stands aside, having written
// nothing, when it is not.
func TestPlaySeenPath(t *testing.T) {
	db, _ := newDB(t, Options{})
	ctx := t.Context()
	g := storetest.PlayCells(t, db, storetest.StartGame(t, db, "c1", "alice", "bob"), 4)
	seen := func(m tttbot.MoveRequest, seen *tttbot.Game) (*tttbot.Game, error) {
		return playAsSeen(ctx, db, m, seen)
	}
	version := func() int {
		return storetest.Must[*tttbot.Game](t)(db.Game(ctx, g.ID)).Version
	}

	other := storetest.Click(g, "bob", 0)
	other.GameID++
	for _, tt := range []struct {
		name string
		m    tttbot.MoveRequest
		seen *tttbot.Game
	}{
		{"without a game seen", storetest.Click(g, "bob", 0), nil},
		{"refused", storetest.Click(g, "alice", 0), g},
		{"seen of another game", other, g},
		{"seen behind the click", func() tttbot.MoveRequest { m := storetest.Click(g, "bob", 0); m.Version++; return m }(), g},
	} {
		if _, err := seen(tt.m, tt.seen); !errors.Is(err, errMovedOn) {
			t.Errorf("a move %s: got %v, want errMovedOn", tt.name, err)
		}
	}
	if v := version(); v != g.Version {
		t.Fatalf("got version %d after the moves that stood aside, want %d", v, g.Version)
	}

	next, err := seen(storetest.Click(g, "bob", 0), g)
	if err != nil {
		t.Fatalf("a move on the game as read: %v", err)
	}
	if v := version(); next.Version != g.Version+1 || v != next.Version {
		t.Fatalf("got version %d returned, %d stored; want %d", next.Version, v, g.Version+1)
	}
	// g is now one move behind: the game has moved on since it was read.
	if _, err := seen(storetest.Click(g, "bob", 0), g); !errors.Is(err, errMovedOn) {
		t.Errorf("a move on a game moved on: got %v, want errMovedOn", err)
	}
	if v := version(); v != next.Version {
		t.Errorf("got version %d after the move on a game moved on, want %d", v, next.Version)
	}

	// The guild's turn timeout, remembered from the reads before, changed
	// by another process: the write stands aside, and the locking path
	// reads the new one.
	if _, err := db.w.ExecContext(ctx, "UPDATE guilds SET turn_timeout = 3600 WHERE id = ?", next.GuildID); err != nil {
		t.Fatal(err)
	}
	if _, err := seen(storetest.Click(next, "alice", 8), next); !errors.Is(err, errMovedOn) {
		t.Errorf("a move after the guild's turn timeout changed: got %v, want errMovedOn", err)
	}
	if v := version(); v != next.Version {
		t.Fatalf("got version %d after the move that stood aside, want %d", v, next.Version)
	}
	m := storetest.Click(next, "alice", 8)
	if next, err = db.Play(ctx, m, next); err != nil {
		t.Fatal(err)
	}
	if want := m.At.Add(time.Hour); !next.Deadline.Equal(want) {
		t.Errorf("got deadline %v after the locking path, want %v: the new turn timeout", next.Deadline, want)
	}

	// Remembered by the locking path, the new one serves the next move as
	// seen; forgotten, it is read in the write.
	for _, tt := range []struct {
		name   string
		forget bool
		cell   int
	}{
		{"remembered", false, 2},
		{"forgotten", true, 6},
	} {
		if tt.forget {
			db.turnTimeouts = settingsrow.TurnTimeouts{}
		}
		m := storetest.Click(next, next.Turn, tt.cell)
		got, err := seen(m, next)
		if err != nil {
			t.Fatalf("a move on the game as read, its guild's turn timeout %s: %v", tt.name, err)
		}
		if want := m.At.Add(time.Hour); !got.Deadline.Equal(want) {
			t.Errorf("turn timeout %s: got deadline %v, want %v", tt.name, got.Deadline, want)
		}
		next = got
	}
}

// TestSettingsRememberTurnTimeout: the turn timeout that a guild's
// settings save is the one the next move on a game as seen assumes, and
// the move's write takes it.
func TestSettingsRememberTurnTimeout(t *testing.T) {
	db, _ := newDB(t, Options{})
	ctx := t.Context()
	g := storetest.Challenge("c1", "alice", "bob")
	g.GuildID = "903"
	if err := db.StartGame(ctx, g, nil); err != nil {
		t.Fatal(err)
	}
	g, err := db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: g.Version, XPlayer: "alice", At: g.CreatedAt})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.UpdateSettings(ctx, g.GuildID, func(s *tttbot.Settings) error { s.TurnTimeout = time.Hour; return nil }); err != nil {
		t.Fatal(err)
	}
	m := storetest.Click(g, "alice", 4)
	got, err := playAsSeen(ctx, db, m, g)
	if err != nil {
		t.Fatalf("a move as seen after the settings changed: %v", err)
	}
	if want := m.At.Add(time.Hour); !got.Deadline.Equal(want) {
		t.Errorf("got deadline %v, want %v", got.Deadline, want)
	}
}

// playAsSeen is Play's path for a game as seen alone: errMovedOn where
// Play would go on to the locking path.
func playAsSeen(ctx context.Context, db *DB, m tttbot.MoveRequest, seen *tttbot.Game) (*tttbot.Game, error) {
	play := func(_ context.Context, _ *sql.Conn, g *tttbot.Game, st *tttbot.Settings) error {
		_, err := st.Play(g, m, m.At)
		return err
	}
	var got *tttbot.Game
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) (err error) {
		got, err = db.playSeen(ctx, tx, m, seen, play)
		return err
	})
	return got, err
}
