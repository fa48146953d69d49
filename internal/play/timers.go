package play

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/health"
)

// Boards shows the players what a deadline did; internal/commands renders
// the game and brings its board message up to date.
type Boards interface {
	// Fired shows r, the game whose deadline just fired.
	Fired(ctx context.Context, r Result) error
}

// RunTimers fires due deadlines every interval until ctx ends, showing
// each through boards: expired challenges, turns that ran out, and bot
// moves interrupted by a restart. Deadlines live in the database, so
// nothing is lost when the process dies, and the store's Due claims each
// for one caller, so that the timers of several instances on one database
// fire it once. Each tick also prunes the interactions too old to be
// replayed.
func (s *Service) RunTimers(ctx context.Context, interval time.Duration, boards Boards) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.FireDue(ctx, boards); err != nil && ctx.Err() == nil {
			s.log.Log(ctx, health.Level(err), "timers", "err", err)
		}
		if _, err := s.PruneInteractions(ctx); err != nil && ctx.Err() == nil {
			s.log.Log(ctx, health.Level(err), "prune interactions", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// dueBatch is how many due games FireDue claims at a time.
const dueBatch = 100

// FireDue fires every game due now, showing each through boards, and
// reports how many it handled.
func (s *Service) FireDue(ctx context.Context, boards Boards) (int, error) {
	n := 0
	for {
		due, err := s.Due(ctx, dueBatch)
		if err != nil {
			return n, err
		}
		handled := s.fireAll(ctx, due, boards)
		n += handled
		// A short batch is the last. The games of a batch of failures stay
		// claimed (see tttbot.GameStore.Due): they come back when their
		// claims run out.
		if len(due) < dueBatch || handled == 0 || ctx.Err() != nil {
			return n, ctx.Err()
		}
	}
}

// fireConcurrency is how many due games fire at once. Each ends with a REST edit,
// tens of milliseconds against Discord: after a long downtime, one at a
// time would take minutes to clear the boards that ran out meanwhile.
const fireConcurrency = 16

// fireAll fires games, fireConcurrency at a time, and reports how many it handled.
func (s *Service) fireAll(ctx context.Context, games []*tttbot.Game, boards Boards) int {
	var handled atomic.Int64
	var wg sync.WaitGroup
	slots := make(chan struct{}, fireConcurrency)
	for _, g := range games {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			if err := s.fireAndShow(ctx, g, boards); err != nil && ctx.Err() == nil {
				s.log.Log(ctx, health.Level(err), "fire deadline", "game", g.ID, "err", err)
				return
			}
			handled.Add(1)
		})
	}
	wg.Wait()
	return int(handled.Load())
}

// fireAndShow fires g's deadline and shows the game through boards.
func (s *Service) fireAndShow(ctx context.Context, g *tttbot.Game, boards Boards) error {
	r, err := s.Fire(ctx, g)
	if err != nil || r.Game == nil {
		return err
	}
	s.log.Info("deadline fired", "game", r.Game.ID, "status", r.Game.Status, "reason", r.Game.Reason)
	return boards.Fired(ctx, r)
}
