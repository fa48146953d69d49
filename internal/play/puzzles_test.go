package play_test

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/puzzle"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// records is a slog handler that hands each record's message to a
// channel, for a test to wait on what a goroutine did.
type records chan slog.Record

func (r records) Enabled(context.Context, slog.Level) bool { return true }
func (r records) Handle(_ context.Context, rec slog.Record) error {
	select {
	case r <- rec:
	default: // a test that stopped reading drops the rest
	}
	return nil
}
func (r records) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r records) WithGroup(string) slog.Handler      { return r }

// next waits for the record with message msg, up to 10 s, and returns its
// attributes, and its time as "time".
func (r records) next(t *testing.T, msg string) map[string]string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case rec := <-r:
			if rec.Message != msg {
				continue
			}
			attrs := map[string]string{"time": rec.Time.Format(time.RFC3339Nano)}
			rec.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
			return attrs
		case <-timeout:
			t.Fatalf("no %q within 10 s", msg)
		}
	}
}

// loggedService is a Service on a new SQLite database whose log records go
// to the records returned, and whose reads of games are counted.
func loggedService(t *testing.T) (*play.Service, records, *reads) {
	t.Helper()
	c := &clock{now: t0}
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	logs := make(records, 100)
	r := &reads{DB: db}
	s := play.New(r, scripted{0}, bot, play.Options{Now: c.Now, Seed: 1, Logger: slog.New(logs)})
	return s, logs, r
}

// fourByFour is a 4×4 game, 3 in a row, that O wins after X misses a
// win: two puzzles, one of them not in the starter set.
func fourByFour(t *testing.T, s *play.Service) *tttbot.Game {
	t.Helper()
	g := challenge(t, s, play.Challenge{Challenger: alice, Opponent: bob, First: play.FirstMe, Rows: 4, Cols: 4, K: 3})
	g, err := s.Accept(t.Context(), g.ID, bob, nil, g.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	return playMoves(t, s, g, 11, 6, 14, 12, 7, 9)
}

// TestMiner: AddStarterPuzzles stores the starter set, then RunMiner mines
// a game that just finished and stores the puzzles not stored yet, without
// reading the game again; a 3×3 game, whose every puzzle the starter set
// holds, it leaves alone. It returns once its context ends.
func TestMiner(t *testing.T) {
	s, logs, reads := loggedService(t)
	starter, err := puzzle.Starter()
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	s.AddStarterPuzzles(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { s.RunMiner(ctx, ai.New(ai.Options{})) })
	defer func() { cancel(); wg.Wait() }()
	if got := logs.next(t, "starter puzzles stored"); got["new"] != strconv.Itoa(len(starter)) {
		t.Errorf("starter set: %v, want %d new", got, len(starter))
	}

	// Alice misses a fork, then bob does: two 3×3 puzzles, both starters.
	if g := started(t, s, 0, 1, 3, 6, 5, 8, 4); g.Status != tttbot.StatusFinished {
		t.Fatalf("3×3 game %s, want it finished", g.Status)
	}
	g := fourByFour(t, s)
	if got := logs.next(t, "puzzles mined"); got["game"] != strconv.FormatInt(g.ID, 10) || got["found"] != "2" || got["new"] != "1" {
		t.Errorf("mined %v, want game %d with 2 found, 1 new", got, g.ID)
	}
	if n := reads.n.Load(); n != 0 {
		t.Errorf("got %d reads of a game, want none: the miner has the game that finished", n)
	}
	cancel()
	wg.Wait()
}

// The miner rests after each game for 1/minerShare − 1 times what the game
// took, so that under load it takes no more than its share of a core.
func TestMinerRests(t *testing.T) {
	s, logs, _ := loggedService(t)
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() { s.RunMiner(ctx, ai.New(ai.Options{})) })
	defer func() { cancel(); wg.Wait() }()

	fourByFour(t, s)
	fourByFour(t, s)
	first, second := logs.next(t, "puzzles mined"), logs.next(t, "puzzles mined")
	took, err := time.ParseDuration(first["took"])
	if err != nil {
		t.Fatal(err)
	}
	at1, err1 := time.Parse(time.RFC3339Nano, first["time"])
	at2, err2 := time.Parse(time.RFC3339Nano, second["time"])
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	// took is rounded to the microsecond; the rest counts the game's reads too.
	if gap, least := at2.Sub(at1), 19*(took-time.Microsecond); gap < least {
		t.Errorf("second game mined %s after the first, which took %s: want at least %s", gap, took, least)
	}
}

// TestMinerPace: the miner's searches rest, once they have worked a
// millisecond, for what they worked times 1/share − 1 (19 for its 5%), not
// at all once their context ends; after the game the miner owes the rest
// of 19 times all its work.
func TestMinerPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := &play.MinerPace{}
		start := time.Now()
		p.Pace(nil, 600*time.Microsecond)
		if d := time.Since(start); d != 0 {
			t.Errorf("rested %s after 0.6 ms of work, want none yet", d)
		}
		p.Pace(nil, 600*time.Microsecond)
		if d, want := time.Since(start), 19*1200*time.Microsecond; d != want || p.Rested() != want {
			t.Errorf("rested %s (counted %s) after 1.2 ms of work, want %s", d, p.Rested(), want)
		}
		done := make(chan struct{})
		close(done)
		start = time.Now()
		p.Pace(done, time.Second)
		if d := time.Since(start); d != 0 {
			t.Errorf("rested %s with the search's context ended, want none", d)
		}
		p.Pace(nil, 600*time.Microsecond)
		if d := time.Since(start); d != 0 {
			t.Errorf("rested %s after 0.6 ms of work since the last rest, want none yet", d)
		}
		// 1.2 ms of work rested for, 1,000.6 ms not, in a game that took
		// all of it and the rest.
		rested := 19 * 1200 * time.Microsecond
		if got, want := p.Owed(rested+1001800*time.Microsecond), 19*1000600*time.Microsecond; got != want {
			t.Errorf("owed %s after the game, want %s", got, want)
		}
	})
}

// MineGame stores a finished game's puzzles once, each remembering the
// game, and refuses a game that does not exist.
func TestMineGame(t *testing.T) {
	s, db, _ := newService(t, scripted{0})
	e := ai.New(ai.Options{})
	g := started(t, s, 0, 1, 3, 6, 5, 8, 4)
	for range 2 {
		if err := s.MineGame(t.Context(), g.ID, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"3x3k3-1nxkb0", "3x3k3-mr2pfm"} {
		if p, err := db.Puzzle(t.Context(), id); err != nil || p.GameID != g.ID {
			t.Errorf("puzzle %s: %+v, %v; want it from game %d", id, p, err, g.ID)
		}
	}
	if err := s.MineGame(t.Context(), 999, e); tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
		t.Errorf("mining no game: got %v, want ENOTFOUND", err)
	}
}
