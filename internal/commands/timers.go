package commands

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tttbot/tttbot"
)

// RunTimers fires due deadlines every interval until ctx ends: expired
// challenges, turns that ran out, and bot moves interrupted by a restart.
// Deadlines live in the database, so nothing is lost when the process dies,
// and the store's Due claims each for one caller, so that the timers of
// several instances on one database fire it once. Each tick also prunes the interactions too old to be replayed.
func (h *Handler) RunTimers(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := h.tick(ctx); err != nil && ctx.Err() == nil {
			h.log.Error("timers", "err", err)
		}
		if _, err := h.play.PruneInteractions(ctx); err != nil && ctx.Err() == nil {
			h.log.Error("forget interactions", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// tick handles every game due now and reports how many it handled.
func (h *Handler) tick(ctx context.Context) (int, error) {
	n := 0
	for {
		due, err := h.play.Due(ctx, 100)
		if err != nil {
			return n, err
		}
		handled := h.fireAll(ctx, due)
		n += handled
		// A short batch is the last. The games of a batch of failures stay
		// claimed (see tttbot.GameStore.Due): they come back when their
		// claims run out.
		if len(due) < 100 || handled == 0 || ctx.Err() != nil {
			return n, ctx.Err()
		}
	}
}

// fireConcurrency is how many due games fire at once. Each ends with a REST edit,
// tens of milliseconds against Discord: after a long downtime, one at a
// time would take minutes to clear the boards that ran out meanwhile.
const fireConcurrency = 16

// fireAll fires games, fireConcurrency at a time, and reports how many it handled.
func (h *Handler) fireAll(ctx context.Context, games []*tttbot.Game) int {
	var handled atomic.Int64
	var wg sync.WaitGroup
	slots := make(chan struct{}, fireConcurrency)
	for _, g := range games {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			if err := h.fire(ctx, g); err != nil && ctx.Err() == nil {
				h.log.Error("fire deadline", "game", g.ID, "err", err)
				return
			}
			handled.Add(1)
		})
	}
	wg.Wait()
	return int(handled.Load())
}

// fire fires g's deadline and brings its board up to date.
func (h *Handler) fire(ctx context.Context, g *tttbot.Game) error {
	r, err := h.play.Fire(ctx, g)
	if err != nil || r.Game == nil {
		return err
	}
	g = r.Game
	h.log.Info("deadline fired", "game", g.ID, "status", g.Status, "reason", g.Reason)
	m := h.render(ctx, h.gameLang(g), g, r.Last)
	e := h.boardEdit(g, m)
	if e == nil {
		if g.Webhook {
			// The game has ended or moved on in the database all the
			// same: the next click on its board shows it.
			h.log.Info("board left as it was: its interaction token has expired", "game", g.ID)
		}
		return nil
	}
	if err := h.sendEdit(ctx, e); err != nil || m.rematch == nil {
		return err
	}
	if e.Token != "" {
		return h.msg.Followup(ctx, e.Token, m.rematch.data())
	}
	return h.msg.SendMessage(ctx, g.ChannelID, m.rematch.data())
}

// sendEdit makes edit e outside of an interaction's answer: through the
// webhook of its token, or channel REST.
func (h *Handler) sendEdit(ctx context.Context, e *Edit) error {
	if e.Token != "" {
		return h.msg.EditResponse(ctx, e.Token, e.Data)
	}
	return h.msg.EditMessage(ctx, e.ChannelID, e.MessageID, e.Data)
}
