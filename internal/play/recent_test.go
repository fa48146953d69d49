package play_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// reads counts the games read from a real store, and the moves' writes.
type reads struct {
	*sqlite.DB
	n     atomic.Int64
	plays atomic.Int64
}

func (r *reads) Game(ctx context.Context, id int64) (*tttbot.Game, error) {
	r.n.Add(1)
	return r.DB.Game(ctx, id)
}

func (r *reads) Play(ctx context.Context, m tttbot.MoveRequest, seen *tttbot.Game) (*tttbot.Game, error) {
	r.plays.Add(1)
	return r.DB.Play(ctx, m, seen)
}

// instances is two services on one database, as two bot processes would
// be, each with its own memory of the games it stored.
func instances(t *testing.T) (a, b *play.Service, reader *reads) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	open := func() *sqlite.DB {
		db, err := sqlite.Open(t.Context(), path, sqlite.Options{Now: (&clock{now: t0}).Now})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	reader = &reads{DB: open()}
	o := play.Options{ChallengeTimeout: challengeTimeout, TurnTimeout: turnTimeout, Now: (&clock{now: t0}).Now, Seed: 1}
	return play.New(reader, scripted{4, 0, 1, 2}, bot, o), play.New(open(), scripted{4, 0, 1, 2}, bot, o), reader
}

// Playing hands a click the game as its service last stored it, without
// reading it, while it is open; a finished game, or one the service never
// stored, is read.
func TestPlayingRemembers(t *testing.T) {
	a, _, reader := instances(t)
	g := started(t, a, 0, 3)
	got, err := a.Playing(t.Context(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != g.Version || got.Board != g.Board || reader.n.Load() != 0 {
		t.Errorf("got version %d %q after %d reads, want version %d %q and no read", got.Version, got.Board, reader.n.Load(), g.Version, g.Board)
	}
	g = playMoves(t, a, g, 1, 4, 2) // alice wins
	if got, err := a.Playing(t.Context(), g.ID); err != nil || got.Status != tttbot.StatusFinished || reader.n.Load() != 1 {
		t.Errorf("finished game: got %+v, %v after %d reads, want it read once", got, err, reader.n.Load())
	}
}

// A game moved on by another instance is still played right from the
// stale memory of this one: the store plays the move on the game as it is,
// and an old board is refused as stale. Against the bot, the game is read
// first, so that the move and the bot's answer are one write.
func TestPlayingStale(t *testing.T) {
	for _, vsBot := range []bool{false, true} {
		a, b, reader := instances(t)
		var g *tttbot.Game
		if vsBot {
			g = challenge(t, a, play.Challenge{Challenger: alice, First: play.FirstMe})
		} else {
			g = started(t, a)
		}
		seenByA := g
		// Alice's first move goes to instance b.
		r, err := b.Move(t.Context(), g, alice, 0, g.Version)
		if err != nil {
			t.Fatal(err)
		}
		moved := r.Game
		stale, err := a.Playing(t.Context(), g.ID)
		if err != nil || stale.Version != seenByA.Version {
			t.Fatalf("vs bot %t: a remembers version %d (%v), want the stale %d", vsBot, stale.Version, err, seenByA.Version)
		}
		// The next click, on the board as it is now, reaches a.
		next := moved.Turn
		if vsBot {
			next = alice
		}
		readsBefore, playsBefore := reader.n.Load(), reader.plays.Load()
		r, err = a.Move(t.Context(), stale, next, 8, moved.Version)
		if err != nil {
			t.Fatalf("vs bot %t: move on a stale memory: %v", vsBot, err)
		}
		wantReads := 0
		if vsBot {
			wantReads = 1
		}
		if got, gotPlays := reader.n.Load()-readsBefore, reader.plays.Load()-playsBefore; got != int64(wantReads) || gotPlays != 1 {
			t.Errorf("vs bot %t: the move read the game %d times and wrote %d times, want %d and 1", vsBot, got, gotPlays, wantReads)
		}
		want := "X../.../..O" // alice 0, bob 8
		if vsBot {
			want = "XO./.O./..X" // alice 0 and 8, the bot's answers 4 and 1
		}
		if r.Game.Board != want {
			t.Errorf("vs bot %t: board %q, want %q", vsBot, r.Game.Board, want)
		}
		// A click on the board a remembered is refused as stale.
		if _, err := a.Move(t.Context(), stale, alice, 7, seenByA.Version); tttbot.ErrorCode(err) != tttbot.ESTALE {
			t.Errorf("vs bot %t: a click on an old board: got %v, want ESTALE", vsBot, err)
		}
	}
}

// An answer to a challenge and a resignation, clicked on instance a whose
// memory of the game another instance has made stale, are decided on the
// game as stored: the memory serves only what never changes.
func TestPlayingStaleAnswers(t *testing.T) {
	for _, tt := range []struct {
		name      string
		started   bool                                            // the game on a: a challenge, or an accepted one
		elsewhere func(b *play.Service, g *tttbot.Game) error     // on instance b
		click     func(a *play.Service, stale *tttbot.Game) error // then on a
		want      string                                          // the click's refusal, "" for none
		check     func(t *testing.T, g *tttbot.Game)              // the game stored after the click
	}{
		{
			name: "accept after a withdrawal",
			elsewhere: func(b *play.Service, g *tttbot.Game) error {
				_, err := b.Decline(t.Context(), g, alice, g.Version)
				return err
			},
			click: func(a *play.Service, stale *tttbot.Game) error {
				_, err := a.Accept(t.Context(), stale, bob, nil, stale.Version)
				return err
			},
			want:  tttbot.EFINISHED,
			check: func(t *testing.T, g *tttbot.Game) { wantStatus(t, g, tttbot.StatusCancelled) },
		},
		{
			name: "decline after an accept",
			elsewhere: func(b *play.Service, g *tttbot.Game) error {
				_, err := b.Accept(t.Context(), g, bob, nil, g.Version)
				return err
			},
			click: func(a *play.Service, stale *tttbot.Game) error {
				_, err := a.Decline(t.Context(), stale, bob, stale.Version)
				return err
			},
			want:  tttbot.EFINISHED,
			check: func(t *testing.T, g *tttbot.Game) { wantStatus(t, g, tttbot.StatusActive) },
		},
		{
			name:    "move after a resignation",
			started: true,
			elsewhere: func(b *play.Service, g *tttbot.Game) error {
				_, err := b.ResignGame(t.Context(), g, bob)
				return err
			},
			click: func(a *play.Service, stale *tttbot.Game) error {
				_, err := a.Move(t.Context(), stale, alice, 4, stale.Version)
				return err
			},
			want:  tttbot.EFINISHED,
			check: func(t *testing.T, g *tttbot.Game) { wantStatus(t, g, tttbot.StatusFinished) },
		},
		{
			name:    "resign after a move",
			started: true,
			elsewhere: func(b *play.Service, g *tttbot.Game) error {
				_, err := b.Move(t.Context(), g, alice, 4, g.Version)
				return err
			},
			click: func(a *play.Service, stale *tttbot.Game) error {
				_, err := a.ResignGame(t.Context(), stale, bob)
				return err
			},
			check: func(t *testing.T, g *tttbot.Game) {
				wantStatus(t, g, tttbot.StatusFinished)
				if g.Winner != alice || g.Board != ".../.X./..." {
					t.Errorf("got winner %s on %q, want alice on the board moved elsewhere", g.Winner, g.Board)
				}
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, b, reader := instances(t)
			var g *tttbot.Game
			if tt.started {
				g = started(t, a)
			} else {
				g = challenge(t, a, play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe})
			}
			if err := tt.elsewhere(b, g); err != nil {
				t.Fatal(err)
			}
			stale, err := a.Playing(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if stale.Version != g.Version {
				t.Fatalf("a remembers version %d, want the stale %d", stale.Version, g.Version)
			}
			if got := tttbot.ErrorCode(tt.click(a, stale)); got != tt.want {
				t.Errorf("click on a: got code %q, want %q", got, tt.want)
			}
			stored, err := reader.DB.Game(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, stored)
			// Refused because the game moved on, or ended by the click,
			// the game is no longer remembered open: a next click reads it.
			next, err := a.Playing(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if next.Status != stored.Status {
				t.Errorf("the next click's game: got it %s, want %s as stored", next.Status, stored.Status)
			}
		})
	}
}

func wantStatus(t *testing.T, g *tttbot.Game, want tttbot.Status) {
	t.Helper()
	if g.Status != want {
		t.Errorf("got the game %s, want %s", g.Status, want)
	}
}

// A remembered game holds the message and token the store holds after
// SetMessage and SetToken, so that its next move is written on it as
// remembered: SQLite's update checks those columns.
func TestPlayingKeepsBoard(t *testing.T) {
	a, _, reader := instances(t)
	g := started(t, a, 4)
	tok := func(v string, life time.Duration) tttbot.Token {
		return tttbot.Token{Value: v, Expires: t0.Add(life).Add(123 * time.Microsecond)}
	}
	steps := []struct {
		name string
		do   func() error
	}{
		{"a message", func() error { return a.SetMessage(t.Context(), g.ID, "m1") }},
		{"another message", func() error { return a.SetMessage(t.Context(), g.ID, "m2") }},
		{"a token", func() error { return a.SetToken(t.Context(), g.ID, tok("t1", 16*time.Minute)) }},
		{"a token expiring sooner", func() error { return a.SetToken(t.Context(), g.ID, tok("t0", 15*time.Minute)) }},
		{"a token expiring later", func() error { return a.SetToken(t.Context(), g.ID, tok("t2", 17*time.Minute)) }},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		got, err := a.Playing(t.Context(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := reader.DB.Game(t.Context(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.MessageID != stored.MessageID || got.Token != stored.Token {
			t.Errorf("after %s: remembered %q, %+v; stored %q, %+v", st.name, got.MessageID, got.Token, stored.MessageID, stored.Token)
		}
	}
}
