package play

import (
	"context"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/health"
	"github.com/tttbot/tttbot/internal/puzzle"
)

// DailyBoards posts the daily puzzle; internal/commands renders it.
type DailyBoards interface {
	// PostDaily posts puzzle p, day's, in a guild's channel (see post).
	PostDaily(ctx context.Context, post tttbot.DailyPost, p *tttbot.Puzzle) error
}

// RunDaily posts the daily puzzles due every interval until ctx ends (see
// FireDaily). It is the one goroutine that posts them: whoever starts it
// awaits it.
func (s *Service) RunDaily(ctx context.Context, interval time.Duration, boards DailyBoards) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := s.FireDaily(ctx, boards); err != nil && ctx.Err() == nil {
			s.log.Log(ctx, health.Level(err), "daily puzzles", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// FireDaily posts the daily puzzles due now, each claimed for this
// instance alone (see tttbot.SettingsStore.DueDaily), and reports how many
// it posted. The day's puzzle is the starter set's of tttbot.DailyShape
// that tttbot.DailyPuzzle picks, the same in every server.
func (s *Service) FireDaily(ctx context.Context, boards DailyBoards) (int, error) {
	due, err := s.store.DueDaily(ctx, s.opts.Now())
	if err != nil || len(due) == 0 {
		return 0, err
	}
	n := 0
	for _, post := range due {
		p, err := DailyPuzzle(post.Day)
		if err != nil {
			return n, err
		}
		if err := boards.PostDaily(ctx, post, &p); err != nil {
			// The claim moved the post to the next day: a channel the bot
			// may not write to costs that server today's post alone.
			s.log.Log(ctx, health.Level(err), "post daily puzzle", "guild", post.GuildID, "channel", post.Channel, "err", err)
			continue
		}
		n++
		s.log.Info("daily puzzle posted", "guild", post.GuildID, "channel", post.Channel, "puzzle", p.ID)
	}
	return n, nil
}

// DailyPuzzle is day's puzzle (see tttbot.DailyPuzzle) among the starter
// set's of tttbot.DailyShape.
func DailyPuzzle(day time.Time) (tttbot.Puzzle, error) {
	all, err := puzzle.Starter()
	if err != nil {
		return tttbot.Puzzle{}, err
	}
	var set []tttbot.Puzzle
	for _, p := range all {
		if p.Shape == tttbot.DailyShape {
			set = append(set, p)
		}
	}
	p, ok := tttbot.DailyPuzzle(day, set)
	if !ok {
		return p, fmt.Errorf("daily puzzle: no starter puzzle of %v", tttbot.DailyShape)
	}
	return p, nil
}
