package play

import (
	"context"
	"errors"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/health"
	"github.com/tttbot/tttbot/internal/puzzle"
)

// mineQueue is how many finished games wait for the miner; past it a
// game goes unmined, which costs a few puzzles and no player anything.
const mineQueue = 256

// mine hands g to the miner (see RunMiner) when it has just finished,
// without waiting: the interaction that finished it is answered first. A
// game of a shape whose every puzzle the starter set holds (see
// puzzle.Complete), which AddStarterPuzzles stores, could add none.
func (s *Service) mine(g *tttbot.Game) {
	if g == nil || g.Status != tttbot.StatusFinished || puzzle.Complete(g.Shape()) {
		return
	}
	done := *g // the caller's may still change (see recent)
	select {
	case s.finished <- &done:
	default:
		s.log.Debug("puzzle mining skipped: queue full", "game", g.ID)
	}
}

// AddStarterPuzzles stores the starter set's puzzles not stored yet. The
// bot calls it before it is ready, so that a fresh install has puzzles from
// its first interaction; a failure is logged and leaves the puzzles stored.
func (s *Service) AddStarterPuzzles(ctx context.Context) {
	if starter, err := puzzle.Starter(); err != nil {
		s.log.Error("read starter puzzles", "err", err)
	} else if n, err := s.store.AddPuzzles(ctx, starter, s.opts.Now()); err != nil {
		s.log.Log(ctx, health.Level(err), "store starter puzzles", "err", err)
	} else if n > 0 {
		s.log.Info("starter puzzles stored", "new", n, "shipped", len(starter))
	}
}

// minerShare is the most of one core the miner takes: each game's work is
// followed by rests of 1/minerShare − 1 times as long, its searches' as
// they go (see minerPace), then the miner's for what remains. Mining a
// 5×5 game takes milliseconds, more than the interaction that finished
// it; under load the queue fills and games go unmined rather than take
// the players' CPU.
const minerShare = 0.05

// minerPace paces the miner's searches (see ai.Pacer): once they have
// worked a millisecond, it rests them for that time, times
// 1/minerShare − 1. The search of one position of a 5×5 game can take a
// tenth of a second or more, which would otherwise hold a core while the
// players' requests queue. One goroutine uses it.
type minerPace struct {
	worked, rested time.Duration
}

func (p *minerPace) Pace(done <-chan struct{}, worked time.Duration) {
	if p.worked += worked; p.worked < time.Millisecond {
		return
	}
	start := time.Now()
	t := time.NewTimer(restFor(p.worked))
	select {
	case <-t.C:
	case <-done:
		t.Stop()
	}
	p.worked = 0
	p.rested += time.Since(start)
}

// owed is the rest still owed after a game that took elapsed: its work's
// rest, less what its searches rested already.
func (p *minerPace) owed(elapsed time.Duration) time.Duration {
	return restFor(elapsed-p.rested) - p.rested
}

// restFor is the miner's rest after work: 1/minerShare − 1 times as long.
func restFor(work time.Duration) time.Duration {
	return time.Duration(float64(work) * (1/minerShare - 1))
}

// RunMiner mines each finished game handed to it (see puzzle.MineGame)
// with the solver e, its searches paced, and stores the puzzles found,
// until ctx ends, taking at most minerShare of a core. It is the one
// goroutine that mines: whoever starts it awaits it.
func (s *Service) RunMiner(ctx context.Context, e *ai.Engine) {
	pace := &minerPace{}
	paced := e.Paced(pace)
	rest := time.NewTimer(0)
	defer rest.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-rest.C:
		}
		select {
		case <-ctx.Done():
			return
		case g := <-s.finished:
			start := time.Now()
			*pace = minerPace{}
			err := s.mineGame(ctx, g, paced)
			rest.Reset(pace.owed(time.Since(start)))
			switch {
			case err == nil || ctx.Err() != nil:
			case errors.Is(err, puzzle.ErrUnproven):
				// A position the solver could not settle within the
				// bot's budget: the game's puzzles are forgone.
				s.log.Debug("mine game", "game", g.ID, "err", err)
			default:
				s.log.Log(ctx, health.Level(err), "mine game", "game", g.ID, "err", err)
			}
		}
	}
}

// MineGame mines finished game id for puzzles with the solver e and
// stores those not stored yet.
func (s *Service) MineGame(ctx context.Context, id int64, e puzzle.Analyzer) error {
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return err
	}
	return s.mineGame(ctx, g, e)
}

// mineGame is MineGame on g, as stored when it finished.
func (s *Service) mineGame(ctx context.Context, g *tttbot.Game, e puzzle.Analyzer) error {
	moves, err := s.store.Moves(ctx, g.ID)
	if err != nil {
		return err
	}
	start := time.Now()
	ps, err := puzzle.MineGame(ctx, e, g, moves)
	if err != nil || len(ps) == 0 {
		return err
	}
	n, err := s.store.AddPuzzles(ctx, ps, s.opts.Now())
	if err != nil {
		return err
	}
	s.log.Info("puzzles mined", "game", g.ID, "found", len(ps), "new", n, "took", time.Since(start).Round(time.Microsecond))
	return nil
}

// AttemptPuzzle records user's attempt at puzzle id, solved or not, with
// its plies and time: a first attempt is rated (see
// tttbot.PuzzleStore.AttemptPuzzle). name is the user's display name.
func (s *Service) AttemptPuzzle(ctx context.Context, user, name, id string, solved bool, plies int, took time.Duration) (tttbot.PuzzleAttempt, tttbot.PuzzleStanding, error) {
	a := tttbot.PuzzleAttempt{Player: user, PuzzleID: id, Solved: solved, Plies: plies, Took: max(took, 0), At: s.opts.Now()}
	a, st, err := s.store.AttemptPuzzle(ctx, a, tttbot.Player{ID: user, Name: name})
	if err == nil {
		s.log.Info("puzzle attempt", "puzzle", id, "user", user, "solved", solved, "rated", a.Rated, "rating", int(st.R))
	}
	return a, st, err
}
