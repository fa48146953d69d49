package play

import (
	"context"
	"time"
)

// Remember records the interaction ctx carries, when none of its
// transactions has: for one that changes nothing but is followed by REST
// calls, which its replay must not make again. EREPLAY when it was recorded
// before.
func (s *Service) Remember(ctx context.Context) error {
	return s.store.Remember(ctx)
}

// replayMemory is how long the store keeps an interaction's ID. A signed
// request verifies while its timestamp is within 5 minutes of the clock
// (internal/discord), so its replay comes at most 10 minutes after the
// original was seen; the rest is margin for the clocks of several
// instances sharing the database.
const replayMemory = 15 * time.Minute

// pruneBatch bounds one deletion, so that it holds the writer briefly.
const pruneBatch = 1000

// PruneInteractions deletes the interactions recorded more than
// replayMemory ago, too old to be replayed, pruneBatch at a time, and
// reports how many it deleted.
func (s *Service) PruneInteractions(ctx context.Context) (int, error) {
	before := s.opts.Now().Add(-replayMemory)
	n := 0
	for {
		k, err := s.store.PruneInteractions(ctx, before, pruneBatch)
		n += k
		if err != nil || k < pruneBatch {
			return n, err
		}
	}
}
