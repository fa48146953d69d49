package play_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
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

// Remembered hands a move the game as its service last stored it while it
// is active: a challenge, or a finished game, is not remembered.
func TestRemembered(t *testing.T) {
	a, _, _ := instances(t)
	c := challenge(t, a, play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe})
	if got := a.Remembered(c.ID); got != nil {
		t.Errorf("a challenge: got %+v remembered, want none", got)
	}
	g, err := a.Accept(t.Context(), c.ID, bob, nil, c.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	g = playMoves(t, a, g, 0, 3)
	if got := a.Remembered(g.ID); got == nil || got.Version != g.Version || got.Board != g.Board {
		t.Errorf("got %+v, want version %d %q", got, g.Version, g.Board)
	}
	g = playMoves(t, a, g, 1, 4, 2) // alice wins
	if got := a.Remembered(g.ID); got != nil || g.Status != tttbot.StatusFinished {
		t.Errorf("game %s: got %+v remembered, want it finished and forgotten", g.Status, got)
	}
}

// A game moved on by another instance is still played right from the
// stale memory of this one, or from none: the store plays the move on the
// game as it is, with the bot's answer chosen for it in the move's
// transaction, and nothing is read before; an old board is refused as
// stale.
func TestMoveStaleMemory(t *testing.T) {
	for _, tt := range []struct {
		vsBot, unseen bool
	}{{false, false}, {true, false}, {false, true}, {true, true}} {
		a, b, reader := instances(t)
		g := newGame(t, a, tt.vsBot)
		seenByA := g
		// Alice's first move goes to instance b.
		r, err := b.Move(t.Context(), play.MoveClick{GameID: g.ID, User: alice, Cell: 0, Version: g.Version, Seen: g})
		if err != nil {
			t.Fatal(err)
		}
		moved := r.Game
		stale := a.Remembered(g.ID)
		if stale == nil || stale.Version != seenByA.Version {
			t.Fatalf("%+v: a remembers %+v, want the stale version %d", tt, stale, seenByA.Version)
		}
		if tt.unseen {
			stale = nil
		}
		// The next click, on the board as it is now, reaches a.
		next := moved.Turn
		if tt.vsBot {
			next = alice
		}
		readsBefore, playsBefore := reader.n.Load(), reader.plays.Load()
		r, err = a.Move(t.Context(), play.MoveClick{GameID: g.ID, User: next, Cell: 8, Version: moved.Version, Seen: stale})
		if err != nil {
			t.Fatalf("%+v: move: %v", tt, err)
		}
		if got, gotPlays := reader.n.Load()-readsBefore, reader.plays.Load()-playsBefore; got != 0 || gotPlays != 1 {
			t.Errorf("%+v: the move read the game %d times and wrote %d times, want no read and 1 write", tt, got, gotPlays)
		}
		want, last := "X../.../..O", tttbot.Move{Player: bob, Cell: 8} // alice 0, bob 8
		if tt.vsBot {
			want, last = "XO./.O./..X", tttbot.Move{Player: bot, Cell: 1} // alice 0 and 8, the bot's answers 4 and 1
		}
		if r.Game.Board != want || r.Last == nil || r.Last.Player != last.Player || r.Last.Cell != last.Cell {
			t.Errorf("%+v: board %q, last %+v; want %q, %s on %d", tt, r.Game.Board, r.Last, want, last.Player, last.Cell)
		}
		// A click on the board a remembered is refused as stale.
		if _, err := a.Move(t.Context(), play.MoveClick{GameID: g.ID, User: alice, Cell: 7, Version: seenByA.Version, Seen: stale}); tttbot.ErrorCode(err) != tttbot.ESTALE {
			t.Errorf("%+v: a click on an old board: got %v, want ESTALE", tt, err)
		}
	}
}

// A move on a game the service does not remember is refused in the move's
// transaction as it would be on the game seen: by a stranger, by the bot's
// own user, by the caller's check; nothing is written.
func TestMoveUnseenRefused(t *testing.T) {
	elsewhere := &tttbot.Error{Code: tttbot.EINVALID, Message: "elsewhere"}
	for _, tt := range []struct {
		name  string
		vsBot bool
		user  string
		check func(*tttbot.Game) error
		want  error
	}{
		{"a stranger", false, carol, nil, play.ErrNotYourGame},
		{"the bot's user", true, bot, nil, play.ErrNotYourGame},
		{"the caller's check", false, alice, func(*tttbot.Game) error { return elsewhere }, elsewhere},
		{"the caller's check against the bot", true, alice, func(*tttbot.Game) error { return elsewhere }, elsewhere},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, b, reader := instances(t)
			g := newGame(t, b, tt.vsBot)
			_, err := a.Move(t.Context(), play.MoveClick{GameID: g.ID, User: tt.user, Cell: 4, Version: g.Version, Check: tt.check})
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			stored, err := reader.DB.Game(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if stored.Version != g.Version || stored.Board != g.Board {
				t.Errorf("got version %d %q stored, want %d %q untouched", stored.Version, stored.Board, g.Version, g.Board)
			}
		})
	}
}

// An answer to a challenge and a resignation on a game the service does
// not remember are decided in the store's transaction, with nothing read
// before: the challenge's planned sides and the turn's deadline come from
// the game it reads, and the caller's check refuses there, writing nothing.
func TestAnswerUnseen(t *testing.T) {
	elsewhere := &tttbot.Error{Code: tttbot.EINVALID, Message: "elsewhere"}
	refuse := func(*tttbot.Game) error { return elsewhere }
	for _, tt := range []struct {
		name    string
		started bool
		click   func(a *play.Service, g *tttbot.Game, check tttbot.Check) (*tttbot.Game, error)
		want    func(t *testing.T, g *tttbot.Game)
	}{
		{
			name: "accept",
			click: func(a *play.Service, g *tttbot.Game, check tttbot.Check) (*tttbot.Game, error) {
				return a.Accept(t.Context(), g.ID, bob, nil, g.Version, check)
			},
			want: func(t *testing.T, g *tttbot.Game) {
				wantStatus(t, g, tttbot.StatusActive)
				if g.XPlayer != bob || g.Turn != bob || !g.Deadline.Equal(t0.Add(turnTimeout)) {
					t.Errorf("got X %s, turn %s until %v; want bob, bob, until %v", g.XPlayer, g.Turn, g.Deadline, t0.Add(turnTimeout))
				}
			},
		},
		{
			name: "decline",
			click: func(a *play.Service, g *tttbot.Game, check tttbot.Check) (*tttbot.Game, error) {
				return a.Decline(t.Context(), g.ID, bob, g.Version, check)
			},
			want: func(t *testing.T, g *tttbot.Game) { wantStatus(t, g, tttbot.StatusDeclined) },
		},
		{
			name:    "resign",
			started: true,
			click: func(a *play.Service, g *tttbot.Game, check tttbot.Check) (*tttbot.Game, error) {
				return a.ResignGame(t.Context(), g.ID, bob, check)
			},
			want: func(t *testing.T, g *tttbot.Game) {
				wantStatus(t, g, tttbot.StatusFinished)
				if g.Winner != alice {
					t.Errorf("got winner %q, want alice", g.Winner)
				}
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, b, reader := instances(t)
			g := opened(t, b, tt.started, play.FirstThem)
			if _, err := tt.click(a, g, refuse); !errors.Is(err, elsewhere) {
				t.Fatalf("refused by the check: got %v, want %v", err, elsewhere)
			}
			if stored, err := reader.DB.Game(t.Context(), g.ID); err != nil || stored.Version != g.Version || stored.Status != g.Status {
				t.Fatalf("after the refusal: got %+v, %v stored; want version %d %s untouched", stored, err, g.Version, g.Status)
			}
			readsBefore := reader.n.Load()
			got, err := tt.click(a, g, nil)
			if err != nil {
				t.Fatal(err)
			}
			tt.want(t, got)
			if n := reader.n.Load() - readsBefore; n != 0 {
				t.Errorf("the click read the game %d times, want none", n)
			}
		})
	}
}

// opened is alice's game against bob on s: accepted, alice X, when
// accepted; else her challenge, whose first player is first.
func opened(t *testing.T, s *play.Service, accepted bool, first play.First) *tttbot.Game {
	t.Helper()
	if accepted {
		return started(t, s)
	}
	return challenge(t, s, play.Challenge{Challenger: alice, Opponent: bob, First: first})
}

// newGame starts on s a game of alice's, moving first: against the bot, or
// against bob.
func newGame(t *testing.T, s *play.Service, vsBot bool) *tttbot.Game {
	t.Helper()
	if vsBot {
		return challenge(t, s, play.Challenge{Challenger: alice, First: play.FirstMe})
	}
	return started(t, s)
}

// An answer to a challenge and a resignation, clicked on instance a on a
// board another instance has since made stale, are decided on the game as
// stored, with no read before; so is a move on a's stale memory of an
// active game.
func TestStaleAnswers(t *testing.T) {
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
				_, err := b.Decline(t.Context(), g.ID, alice, g.Version, nil)
				return err
			},
			click: func(a *play.Service, stale *tttbot.Game) error {
				_, err := a.Accept(t.Context(), stale.ID, bob, nil, stale.Version, nil)
				return err
			},
			want:  tttbot.EFINISHED,
			check: func(t *testing.T, g *tttbot.Game) { wantStatus(t, g, tttbot.StatusCancelled) },
		},
		{
			name: "decline after an accept",
			elsewhere: func(b *play.Service, g *tttbot.Game) error {
				_, err := b.Accept(t.Context(), g.ID, bob, nil, g.Version, nil)
				return err
			},
			click: func(a *play.Service, stale *tttbot.Game) error {
				_, err := a.Decline(t.Context(), stale.ID, bob, stale.Version, nil)
				return err
			},
			want:  tttbot.EFINISHED,
			check: func(t *testing.T, g *tttbot.Game) { wantStatus(t, g, tttbot.StatusActive) },
		},
		{
			name:    "move after a resignation",
			started: true,
			elsewhere: func(b *play.Service, g *tttbot.Game) error {
				_, err := b.ResignGame(t.Context(), g.ID, bob, nil)
				return err
			},
			click: func(a *play.Service, stale *tttbot.Game) error {
				_, err := a.Move(t.Context(), play.MoveClick{GameID: stale.ID, User: alice, Cell: 4, Version: stale.Version, Seen: stale})
				return err
			},
			want:  tttbot.EFINISHED,
			check: func(t *testing.T, g *tttbot.Game) { wantStatus(t, g, tttbot.StatusFinished) },
		},
		{
			name:    "resign after a move",
			started: true,
			elsewhere: func(b *play.Service, g *tttbot.Game) error {
				_, err := b.Move(t.Context(), play.MoveClick{GameID: g.ID, User: alice, Cell: 4, Version: g.Version, Seen: g})
				return err
			},
			click: func(a *play.Service, stale *tttbot.Game) error {
				_, err := a.ResignGame(t.Context(), stale.ID, bob, nil)
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
			g := opened(t, a, tt.started, play.FirstMe)
			if err := tt.elsewhere(b, g); err != nil {
				t.Fatal(err)
			}
			stale := g // the board a drew, behind the game now
			if m := a.Remembered(g.ID); tt.started && (m == nil || m.Version != g.Version) {
				t.Fatalf("a remembers %+v, want the stale version %d", m, g.Version)
			}
			readsBefore := reader.n.Load()
			if got := tttbot.ErrorCode(tt.click(a, stale)); got != tt.want {
				t.Errorf("click on a: got code %q, want %q", got, tt.want)
			}
			if n := reader.n.Load() - readsBefore; n != 0 {
				t.Errorf("the click read the game %d times, want none", n)
			}
			stored, err := reader.DB.Game(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, stored)
			// Refused because the game moved on, or ended by the click,
			// the game is no longer remembered: a next move reads it in
			// its transaction.
			if next := a.Remembered(g.ID); next != nil {
				t.Errorf("a still remembers version %d, want it forgotten", next.Version)
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
func TestRememberedKeepsBoard(t *testing.T) {
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
		got := a.Remembered(g.ID)
		if got == nil {
			t.Fatalf("after %s: not remembered", st.name)
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

// failing is a scripted AI that fails its first n moves.
type failing struct {
	scripted
	n atomic.Int64
}

func (f *failing) Move(ctx context.Context, p game.Position, l ai.Level, rng *rand.Rand) (ai.Choice, error) {
	if f.n.Add(-1) >= 0 {
		return ai.Choice{}, errors.New("no move")
	}
	return f.scripted.Move(ctx, p, l, rng)
}

// Against the bot playing X, the bot's first move is stored with the new
// game, in its transaction; when the AI fails there, the bot moves once
// the game is stored, in a write of its own.
func TestBotOpens(t *testing.T) {
	for _, tt := range []struct {
		name      string
		fails     int64
		wantPlays int64
	}{
		{"in the game's transaction", 0, 0},
		{"after it, the AI having failed there", 1, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: (&clock{now: t0}).Now})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			engine := &failing{scripted: scripted{4}}
			engine.n.Store(tt.fails)
			counted := &reads{DB: db}
			s := play.New(counted, engine, bot, play.Options{TurnTimeout: turnTimeout, Now: (&clock{now: t0}).Now, Seed: 1})
			r, err := s.Challenge(t.Context(), play.Challenge{Place: play.Place{ChannelID: "c1"}, Challenger: alice, First: play.FirstThem, Level: ai.Hard, Rows: 3, Cols: 3, K: 3})
			if err != nil {
				t.Fatal(err)
			}
			if g := r.Game; g.Board != ".../.X./..." || g.Turn != alice || !g.Deadline.Equal(t0.Add(turnTimeout)) || r.Last == nil || r.Last.Player != bot || r.Last.Cell != 4 {
				t.Errorf("got %q, %s to move until %v, last %+v; want the bot on 4, alice until %v", g.Board, g.Turn, g.Deadline, r.Last, t0.Add(turnTimeout))
			}
			if n := counted.plays.Load(); n != tt.wantPlays {
				t.Errorf("got %d moves played after the game's transaction, want %d", n, tt.wantPlays)
			}
			if got := s.Remembered(r.Game.ID); got == nil || got.Version != r.Game.Version {
				t.Errorf("remembered %+v, want version %d", got, r.Game.Version)
			}
		})
	}
}

// counted is a scripted AI that counts the moves asked of it.
type counted struct {
	scripted
	n atomic.Int64
}

func (c *counted) Move(ctx context.Context, p game.Position, l ai.Level, rng *rand.Rand) (ai.Choice, error) {
	c.n.Add(1)
	return c.scripted.Move(ctx, p, l, rng)
}

// A move against the bot gets the bot's answer chosen once: before its
// transaction on the game remembered at the click's version, in it for a
// game remembered at another version or not at all.
func TestMoveChoosesAnswerOnce(t *testing.T) {
	for _, tt := range []struct {
		name string
		seen func(now, before *tttbot.Game) *tttbot.Game
	}{
		{"remembered", func(now, _ *tttbot.Game) *tttbot.Game { return now }},
		{"remembered at an older version", func(_, before *tttbot.Game) *tttbot.Game { return before }},
		{"not remembered", func(_, _ *tttbot.Game) *tttbot.Game { return nil }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			engine := &counted{scripted: scripted{4, 0, 1, 2}}
			s, _, _ := newService(t, engine)
			before := newGame(t, s, true)
			r, err := s.Move(t.Context(), play.MoveClick{GameID: before.ID, User: alice, Cell: 8, Version: before.Version, Seen: before})
			if err != nil {
				t.Fatal(err)
			}
			engine.n.Store(0)
			now := r.Game
			r, err = s.Move(t.Context(), play.MoveClick{GameID: now.ID, User: alice, Cell: 6, Version: now.Version, Seen: tt.seen(now, before)})
			if err != nil {
				t.Fatal(err)
			}
			if n := engine.n.Load(); n != 1 || r.Game.Version != now.Version+2 {
				t.Errorf("got %d answers chosen, version +%d; want 1 and +2", n, r.Game.Version-now.Version)
			}
		})
	}
}
