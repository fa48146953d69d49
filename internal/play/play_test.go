package play_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// The players of these tests; the bot plays as bot.
const (
	bot   = "1"
	alice = "10"
	bob   = "20"
	carol = "30"
)

var t0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

const (
	challengeTimeout = 2 * time.Minute
	turnTimeout      = 5 * time.Minute
)

// scripted is the bot's AI in these tests: it plays the first free cell of
// cells, or cells[0] when none is free, which the store then refuses.
type scripted []int

func (s scripted) Move(_ context.Context, p game.Position, _ ai.Level, _ *rand.Rand) (ai.Choice, error) {
	for _, c := range s {
		if p.Empty().Has(c) {
			return ai.Choice{Cell: c, Proven: true}, nil
		}
	}
	return ai.Choice{Cell: s[0]}, nil
}

// clock is the time the service and the store read; tests move it.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// newService returns a Service with engine as the bot's AI, on a new SQLite
// database, at t0.
func newService(t *testing.T, engine play.AI) (*play.Service, *sqlite.DB, *clock) {
	t.Helper()
	c := &clock{now: t0}
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s := play.New(db, engine, bot, play.Options{
		ChallengeTimeout: challengeTimeout, TurnTimeout: turnTimeout, Now: c.Now, Seed: 1,
	})
	return s, db, c
}

func challenge(t *testing.T, s *play.Service, c play.Challenge) *tttbot.Game {
	t.Helper()
	if c.ChannelID == "" {
		c.ChannelID = "c1"
	}
	if c.Rows == 0 {
		c.Rows, c.Cols, c.K = 3, 3, 3
	}
	r, err := s.Challenge(t.Context(), c)
	if err != nil {
		t.Fatalf("challenge: %v", err)
	}
	return r.Game
}

// started is alice's accepted challenge to bob, alice X, after moves.
func started(t *testing.T, s *play.Service, moves ...int) *tttbot.Game {
	t.Helper()
	g := challenge(t, s, play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe})
	g, err := s.Accept(t.Context(), g.ID, bob, nil, g.Version, nil)
	if err != nil {
		t.Fatalf("accept: %v", err)
	}
	return playMoves(t, s, g, moves...)
}

func playMoves(t *testing.T, s *play.Service, g *tttbot.Game, moves ...int) *tttbot.Game {
	t.Helper()
	for _, cell := range moves {
		r, err := s.Move(t.Context(), play.MoveClick{GameID: g.ID, User: g.Turn, Cell: cell, Version: g.Version, Seen: g})
		if err != nil {
			t.Fatalf("move %d: %v", cell, err)
		}
		g = r.Game
	}
	return g
}

func moves(t *testing.T, db *sqlite.DB, id int64) int {
	t.Helper()
	ms, err := db.Moves(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(ms)
}

func TestChallenge(t *testing.T) {
	tests := []struct {
		name         string
		c            play.Challenge
		wantStatus   tttbot.Status
		wantX        string
		wantTurn     string
		wantMoves    int
		wantDeadline time.Time
	}{
		{"a person, challenger first", play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe},
			tttbot.StatusPending, alice, "", 0, t0.Add(challengeTimeout)},
		{"a person, opponent first", play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstThem},
			tttbot.StatusPending, bob, "", 0, t0.Add(challengeTimeout)},
		{"the bot, human first", play.Challenge{Challenger: alice, First: play.FirstMe, Level: ai.Easy},
			tttbot.StatusActive, alice, alice, 0, t0.Add(turnTimeout)},
		{"the bot by its ID", play.Challenge{Challenger: alice, Opponent: bot, First: play.FirstMe, Level: ai.Easy},
			tttbot.StatusActive, alice, alice, 0, t0.Add(turnTimeout)},
		{"the bot, bot first: it moves at once", play.Challenge{Challenger: alice, First: play.FirstThem, Level: ai.Hard},
			tttbot.StatusActive, bot, alice, 1, t0.Add(turnTimeout)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, db, _ := newService(t, scripted{4})
			tt.c.ChannelID, tt.c.Rows, tt.c.Cols, tt.c.K = "c1", 3, 3, 3
			r, err := s.Challenge(t.Context(), tt.c)
			if err != nil {
				t.Fatalf("got %v, want no error", err)
			}
			g := r.Game
			if g.Status != tt.wantStatus || g.XPlayer != tt.wantX || g.Turn != tt.wantTurn || !g.Deadline.Equal(tt.wantDeadline) {
				t.Errorf("got %s X %q turn %q deadline %v, want %s %q %q %v", g.Status, g.XPlayer, g.Turn, g.Deadline, tt.wantStatus, tt.wantX, tt.wantTurn, tt.wantDeadline)
			}
			if n := moves(t, db, g.ID); n != tt.wantMoves {
				t.Errorf("got %d moves, want %d", n, tt.wantMoves)
			}
			if tt.wantMoves > 0 && (r.Last == nil || r.Last.Player != bot || r.Last.Cell != 4) {
				t.Errorf("got last move %+v, want the bot's on 4", r.Last)
			}
			if g.VsBot() != (tt.c.Opponent == "" || tt.c.Opponent == bot) || g.VsBot() && g.BotLevel != string(tt.c.Level) {
				t.Errorf("got bot level %q, want %q", g.BotLevel, tt.c.Level)
			}
		})
	}
}

func TestAnswer(t *testing.T) {
	tests := []struct {
		name       string
		accept     bool
		user       string
		at         time.Time
		want       error
		wantStatus tttbot.Status
	}{
		{"accepted", true, bob, t0, nil, tttbot.StatusActive},
		{"accepted a moment before the deadline", true, bob, t0.Add(challengeTimeout - time.Millisecond), nil, tttbot.StatusActive},
		{"accepted at the exact deadline", true, bob, t0.Add(challengeTimeout), tttbot.ErrExpired, tttbot.StatusPending},
		{"accepted by a stranger", true, carol, t0, tttbot.ErrNotForYou, tttbot.StatusPending},
		{"accepted by the challenger", true, alice, t0, tttbot.ErrNotForYou, tttbot.StatusPending},
		{"declined", false, bob, t0, nil, tttbot.StatusDeclined},
		{"withdrawn", false, alice, t0, nil, tttbot.StatusCancelled},
		{"declined by a stranger", false, carol, t0, tttbot.ErrNotForYou, tttbot.StatusPending},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, db, c := newService(t, scripted{4})
			g := challenge(t, s, play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstThem})
			c.now = tt.at
			var got *tttbot.Game
			var err error
			if tt.accept {
				got, err = s.Accept(t.Context(), g.ID, tt.user, nil, g.Version, nil)
			} else {
				got, err = s.Decline(t.Context(), g.ID, tt.user, g.Version, nil)
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			stored, err := db.Game(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if stored.Status != tt.wantStatus {
				t.Errorf("got %s, want %s", stored.Status, tt.wantStatus)
			}
			if tt.want == nil && tt.accept && (got.Turn != bob || !got.Deadline.Equal(tt.at.Add(turnTimeout))) {
				t.Errorf("got turn %q until %v, want bob (X) until %v", got.Turn, got.Deadline, tt.at.Add(turnTimeout))
			}
		})
	}
}

func TestMove(t *testing.T) {
	tests := []struct {
		name string
		ai   scripted
		// the game: against the bot (alice X, easy) or alice X against bob,
		// after before; then user plays cell
		vsBot     bool
		before    []int
		user      string
		cell      int
		stale     bool
		want      error
		wantBoard string
		wantTurn  string
		wantLast  tttbot.Move // Player and Cell
		wantMoves int
	}{
		{"between people", nil, false, nil, alice, 4, false, nil, ".../.X./...", bob, tttbot.Move{Player: alice, Cell: 4}, 1},
		{"the bot answers in the same change", scripted{0}, true, nil, alice, 4, false, nil, "O../.X./...", alice, tttbot.Move{Player: bot, Cell: 0}, 2},
		// alice has 0 and 1, the bot 3 and 4; alice's 2 wins, and the
		// bot's answer, which would take 5, is never played.
		{"the human's move ends the game: no answer", scripted{5}, true, []int{0, 1}, alice, 2, false, nil, "XXX/OO./...", "", tttbot.Move{Player: alice, Cell: 2}, 5},
		// The AI insists on a taken cell: the store refuses the answer
		// and the human's move stands, the bot still to move.
		{"a refused answer leaves the human's move standing", scripted{0}, true, nil, alice, 0, false, nil, "X../.../...", bot, tttbot.Move{Player: alice, Cell: 0}, 1},
		{"by a stranger", nil, false, nil, carol, 4, false, play.ErrNotYourGame, ".../.../...", alice, tttbot.Move{}, 0},
		{"by the bot's user", scripted{0}, true, nil, bot, 4, false, play.ErrNotYourGame, ".../.../...", alice, tttbot.Move{}, 0},
		{"out of turn", nil, false, nil, bob, 4, false, tttbot.ErrNotYourTurn, ".../.../...", alice, tttbot.Move{}, 0},
		{"on a stale board", nil, false, []int{0}, bob, 4, true, tttbot.ErrStale, "X../.../...", bob, tttbot.Move{}, 1},
		{"on a taken cell", nil, false, []int{0}, bob, 0, false, tttbot.ErrCellTaken, "X../.../...", bob, tttbot.Move{}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, db, _ := newService(t, tt.ai)
			var g *tttbot.Game
			if tt.vsBot {
				g = challenge(t, s, play.Challenge{Challenger: alice, First: play.FirstMe, Level: ai.Easy})
				if len(tt.before) > 0 {
					// The bot answers each of alice's moves with 3, then 4.
					s2 := play.New(db, scripted{3, 4}, bot, play.Options{Now: func() time.Time { return t0 }, Seed: 1})
					g = playMoves(t, s2, g, tt.before...)
				}
			} else {
				g = started(t, s, tt.before...)
			}
			version := g.Version
			if tt.stale {
				version--
			}
			r, err := s.Move(t.Context(), play.MoveClick{GameID: g.ID, User: tt.user, Cell: tt.cell, Version: version, Seen: g})
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			stored, err := db.Game(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if stored.Board != tt.wantBoard || stored.Turn != tt.wantTurn {
				t.Errorf("got board %s turn %q, want %s %q", stored.Board, stored.Turn, tt.wantBoard, tt.wantTurn)
			}
			if n := moves(t, db, g.ID); n != tt.wantMoves {
				t.Errorf("got %d moves, want %d", n, tt.wantMoves)
			}
			if tt.want != nil {
				return
			}
			if r.Game.Version != stored.Version || r.Last == nil || r.Last.Player != tt.wantLast.Player || r.Last.Cell != tt.wantLast.Cell {
				t.Errorf("got version %d last %+v, want %d and %+v", r.Game.Version, r.Last, stored.Version, tt.wantLast)
			}
		})
	}
}

func TestRematch(t *testing.T) {
	tests := []struct {
		name       string
		vsBot      bool
		user       string
		finish     bool
		want       error
		wantStatus tttbot.Status
		wantX      string
		wantMoves  int
	}{
		// alice was X; sides swap whoever asks.
		{"between people, asked by the loser", false, bob, true, nil, tttbot.StatusPending, bob, 0},
		{"between people, asked by the winner", false, alice, true, nil, tttbot.StatusPending, bob, 0},
		{"against the bot, which is X now and moves at once", true, alice, true, nil, tttbot.StatusActive, bot, 1},
		{"by a stranger", false, carol, true, play.ErrNotInGame, "", "", 0},
		{"of a game not over", false, alice, false, play.ErrNotOver, "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, db, _ := newService(t, scripted{4, 5, 6, 7, 8})
			c := play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe, Rows: 4, Cols: 4, K: 3, Language: "fr"}
			if tt.vsBot {
				c.Opponent, c.Level = "", ai.Medium
			}
			old := challenge(t, s, c)
			if !tt.vsBot {
				var err error
				if old, err = s.Accept(t.Context(), old.ID, bob, nil, old.Version, nil); err != nil {
					t.Fatal(err)
				}
			}
			if tt.finish {
				var err error
				if old, err = s.Resign(t.Context(), "c1", alice); err != nil {
					t.Fatal(err)
				}
			}
			r, err := s.Rematch(t.Context(), old.ID, tt.user, nil, play.Place{GuildID: "g1", ChannelID: "c2"}, nil)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if tt.want != nil {
				return
			}
			g := r.Game
			if g.Status != tt.wantStatus || g.XPlayer != tt.wantX || g.OPlayer != old.XPlayer || g.Challenger != tt.user || g.ChannelID != "c2" || g.BotLevel != old.BotLevel {
				t.Errorf("got %+v, want %s with X %q, O %q, challenger %q in c2", *g, tt.wantStatus, tt.wantX, old.XPlayer, tt.user)
			}
			if g.Shape() != old.Shape() || g.Language != "fr" {
				t.Errorf("got %v in %q, want the ended game's %v in fr", g.Shape(), g.Language, old.Shape())
			}
			if n := moves(t, db, g.ID); n != tt.wantMoves {
				t.Errorf("got %d moves, want %d", n, tt.wantMoves)
			}
		})
	}
}

// TestRematchRefused: the click's check sees the ended game first and may
// refuse the rematch, as the store does one of a game it does not have;
// either stores nothing.
func TestRematchRefused(t *testing.T) {
	s, db, _ := newService(t, scripted{})
	old, err := s.Resign(t.Context(), "c1", started(t, s).XPlayer)
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := errors.New("from another channel")
	tests := []struct {
		name  string
		id    int64
		check tttbot.Check
		want  error
	}{
		{"by the check, before the game's own refusal", old.ID, func(g *tttbot.Game) error {
			if g.ID != old.ID || g.Status != tttbot.StatusFinished {
				t.Errorf("check on %+v, want the ended game", g)
			}
			return elsewhere
		}, elsewhere},
		{"of an unknown game", old.ID + 1, nil, tttbot.ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// carol, who did not play, would be refused by the game too.
			if _, err := s.Rematch(t.Context(), tt.id, carol, nil, play.Place{GuildID: "g1", ChannelID: "c2"}, tt.check); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if g, err := db.OpenGame(t.Context(), "c2", carol); tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
				t.Errorf("a refused rematch stored %+v, %v", g, err)
			}
		})
	}
}

func TestResign(t *testing.T) {
	tests := []struct {
		name       string
		started    bool
		user       string
		want       error
		wantStatus tttbot.Status
		wantWinner string
	}{
		{"a game", true, alice, nil, tttbot.StatusFinished, bob},
		{"a pending challenge, by the challenger", false, alice, nil, tttbot.StatusCancelled, ""},
		{"a pending challenge, by the challenged", false, bob, nil, tttbot.StatusDeclined, ""},
		{"nothing to resign", true, carol, play.ErrNoOpenGame, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, _ := newService(t, nil)
			if tt.started {
				started(t, s, 4)
			} else {
				challenge(t, s, play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe})
			}
			g, err := s.Resign(t.Context(), "c1", tt.user)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if tt.want != nil {
				return
			}
			if g.Status != tt.wantStatus || g.Winner != tt.wantWinner {
				t.Errorf("got %s won by %q, want %s won by %q", g.Status, g.Winner, tt.wantStatus, tt.wantWinner)
			}
		})
	}
}

func TestFire(t *testing.T) {
	tests := []struct {
		name string
		// setup returns the game to fire, as found due, and the clock
		setup      func(t *testing.T, s *play.Service, db *sqlite.DB, c *clock) *tttbot.Game
		wantFired  bool
		wantStatus tttbot.Status
		wantReason tttbot.Reason
		wantWinner string
		wantLast   string // who made the move named last
	}{
		{"a challenge due", func(t *testing.T, s *play.Service, _ *sqlite.DB, c *clock) *tttbot.Game {
			g := challenge(t, s, play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe})
			c.now = g.Deadline.Add(tttbot.DeadlineGrace)
			return g
		}, true, tttbot.StatusExpired, "", "", ""},
		{"a turn due", func(t *testing.T, s *play.Service, _ *sqlite.DB, c *clock) *tttbot.Game {
			g := started(t, s, 4)
			c.now = g.Deadline.Add(tttbot.DeadlineGrace)
			return g
		}, true, tttbot.StatusFinished, tttbot.ReasonTimeout, alice, ""},
		{"a game that moved on", func(t *testing.T, s *play.Service, _ *sqlite.DB, c *clock) *tttbot.Game {
			g := started(t, s, 4)
			c.now = g.Deadline.Add(-time.Millisecond)
			playMoves(t, s, g, 0) // bob moves just in time, before the timer acts
			c.now = g.Deadline.Add(tttbot.DeadlineGrace)
			return g
		}, false, tttbot.StatusActive, "", "", ""},
		{"a game that ended meanwhile", func(t *testing.T, s *play.Service, _ *sqlite.DB, c *clock) *tttbot.Game {
			g := started(t, s, 4)
			c.now = g.Deadline
			if _, err := s.Resign(t.Context(), "c1", bob); err != nil {
				t.Fatal(err)
			}
			return g
		}, false, tttbot.StatusFinished, tttbot.ReasonResign, alice, ""},
		{"the bot's move interrupted by a restart", func(t *testing.T, _ *play.Service, db *sqlite.DB, c *clock) *tttbot.Game {
			g := &tttbot.Game{ChannelID: "c1", Rows: 3, Cols: 3, K: 3, Challenger: alice, Opponent: bot,
				BotLevel: string(ai.Easy), XPlayer: bot, OPlayer: alice, Status: tttbot.StatusActive, Deadline: t0}
			if err := db.StartGame(t.Context(), g, nil); err != nil {
				t.Fatal(err)
			}
			c.now = g.Deadline
			return g
		}, true, tttbot.StatusActive, "", "", bot},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, db, c := newService(t, scripted{4})
			g := tt.setup(t, s, db, c)
			r, err := s.Fire(t.Context(), g)
			if err != nil {
				t.Fatalf("got %v, want no error", err)
			}
			if (r.Game != nil) != tt.wantFired {
				t.Fatalf("got fired %v, want %v", r.Game != nil, tt.wantFired)
			}
			stored, err := db.Game(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if stored.Status != tt.wantStatus || stored.Reason != tt.wantReason || stored.Winner != tt.wantWinner {
				t.Errorf("got %s %q won by %q, want %s %q won by %q", stored.Status, stored.Reason, stored.Winner, tt.wantStatus, tt.wantReason, tt.wantWinner)
			}
			last := ""
			if r.Last != nil {
				last = r.Last.Player
			}
			if last != tt.wantLast {
				t.Errorf("got last move by %q, want %q", last, tt.wantLast)
			}
		})
	}
}

// TestChallengeRefused: a challenge that cannot be is refused, and nothing
// is stored.
func TestChallengeRefused(t *testing.T) {
	tests := []struct {
		name string
		c    play.Challenge
		want error
	}{
		{"first is neither me, them nor random", play.Challenge{Challenger: alice, Opponent: bob, First: "both"}, play.ErrBadFirst},
		{"oneself", play.Challenge{Challenger: alice, Opponent: alice, First: play.FirstMe}, tttbot.ErrSelfChallenge},
		{"a shape no board has", play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe, Rows: 3, Cols: 3, K: 4}, tttbot.ErrBadShape},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, db, _ := newService(t, nil)
			tt.c.ChannelID = "c1"
			if tt.c.Rows == 0 {
				tt.c.Rows, tt.c.Cols, tt.c.K = 3, 3, 3
			}
			if _, err := s.Challenge(t.Context(), tt.c); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if _, err := db.Game(t.Context(), 1); !errors.Is(err, tttbot.ErrNotFound) {
				t.Errorf("got %v, want no game stored", err)
			}
		})
	}
}

// TestDue: a deadline is due tttbot.DeadlineGrace after its instant, not
// a moment before: a click made before the deadline may still be on its
// way to the database until then.
func TestDue(t *testing.T) {
	tests := []struct {
		name  string
		after time.Duration // past the challenge's deadline
		want  int
	}{
		{"at the deadline", 0, 0},
		{"a moment before the grace ends", tttbot.DeadlineGrace - time.Millisecond, 0},
		{"as the grace ends", tttbot.DeadlineGrace, 1},
		{"after", tttbot.DeadlineGrace + time.Second, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, c := newService(t, nil)
			g := challenge(t, s, play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe})
			c.now = g.Deadline.Add(tt.after)
			due, err := s.Due(t.Context(), 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(due) != tt.want {
				t.Errorf("got %d due, want %d", len(due), tt.want)
			}
		})
	}
}

// TestWebhookDeadlines: where the bot reaches a board only through the
// token of its latest interaction, no challenge or turn outlasts that
// token; elsewhere the configured timeouts stand.
func TestWebhookDeadlines(t *testing.T) {
	const long = time.Hour
	tests := []struct {
		name    string
		place   play.Place
		want    time.Duration // every deadline's distance from the click that set it
		wantTok string
	}{
		{"channel REST", play.Place{GuildID: "g1", ChannelID: "c1"}, long, ""},
		{"webhook", play.Place{ChannelID: "d1", Webhook: true, Token: tttbot.Token{Value: "tok", Expires: t0.Add(tttbot.TokenLife)}}, tttbot.MaxWebhookWait, "tok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clock{now: t0}
			db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: c.Now})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			s := play.New(db, scripted{4, 0, 8}, bot, play.Options{ChallengeTimeout: long, TurnTimeout: long, Now: c.Now, Seed: 1})

			r, err := s.Challenge(t.Context(), play.Challenge{Place: tt.place, Challenger: alice, Opponent: bob, Rows: 3, Cols: 3, K: 3, First: play.FirstMe})
			if err != nil {
				t.Fatal(err)
			}
			g := r.Game
			if got := g.Deadline.Sub(t0); got != tt.want {
				t.Errorf("challenge runs %v, want %v", got, tt.want)
			}
			if g.Token.Value != tt.wantTok || g.Webhook != tt.place.Webhook {
				t.Errorf("got webhook %v with token %q, want %v with %q", g.Webhook, g.Token.Value, tt.place.Webhook, tt.wantTok)
			}
			c.now = t0.Add(time.Minute)
			if g, err = s.Accept(t.Context(), g.ID, bob, nil, g.Version, nil); err != nil {
				t.Fatal(err)
			}
			if got := g.Deadline.Sub(c.now); got != tt.want {
				t.Errorf("first turn runs %v, want %v", got, tt.want)
			}
			c.now = t0.Add(2 * time.Minute)
			mr, err := s.Move(t.Context(), play.MoveClick{GameID: g.ID, User: alice, Cell: 4, Version: g.Version, Seen: g})
			if err != nil {
				t.Fatal(err)
			}
			if got := mr.Game.Deadline.Sub(c.now); got != tt.want {
				t.Errorf("second turn runs %v, want %v", got, tt.want)
			}
		})
	}
}

// TestMadeInTime: a click counts from when Discord made its interaction.
// Made before its deadline and held by the database past it, a move or an
// acceptance is made, and the timers, looking at the game meanwhile, find
// nothing due; made at the deadline or after, it is refused.
func TestMadeInTime(t *testing.T) {
	tests := []struct {
		name          string
		made, handled time.Duration // from the deadline
		want          error
	}{
		{"made and handled before", -2 * time.Second, -time.Second, nil},
		{"made before, handled after", -time.Millisecond, 25 * time.Second, nil},
		{"made at the deadline", 0, time.Second, tttbot.ErrTimeUp},
		{"made after", time.Second, 2 * time.Second, tttbot.ErrTimeUp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, what := range []string{"move", "accept"} {
				s, db, c := newService(t, nil)
				var g *tttbot.Game
				if what == "move" {
					g = started(t, s, 4)
				} else {
					g = challenge(t, s, play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe})
				}
				c.now = g.Deadline.Add(tt.handled)
				if due, err := s.Due(t.Context(), 10); err != nil || len(due) != 0 {
					t.Fatalf("%s: %d due, %v, while a click made in time may be on its way", what, len(due), err)
				}
				ctx := tttbot.WithInteraction(t.Context(), &tttbot.Interaction{ID: "1", At: g.Deadline.Add(tt.made)})
				var err error
				if what == "move" {
					_, err = s.Move(ctx, play.MoveClick{GameID: g.ID, User: bob, Cell: 0, Version: g.Version, Seen: g})
				} else {
					_, err = s.Accept(ctx, g.ID, bob, nil, g.Version, nil)
				}
				want := tt.want
				if what == "accept" && want != nil {
					want = tttbot.ErrExpired
				}
				if err != want {
					t.Fatalf("%s: got %v, want %v", what, err, want)
				}
				stored, err := db.Game(t.Context(), g.ID)
				if err != nil {
					t.Fatal(err)
				}
				if moved := stored.Version != g.Version; moved != (want == nil) {
					t.Errorf("%s: version %d after %d, want it changed: %v", what, stored.Version, g.Version, want == nil)
				}
			}
		})
	}
}
