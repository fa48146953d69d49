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
	// PostDaily posts puzzle p, the day's, in post's channel and returns
	// the message's ID.
	PostDaily(ctx context.Context, post tttbot.DailyPost, p *tttbot.Puzzle) (string, error)
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
		id, err := boards.PostDaily(ctx, post, &p)
		if err != nil {
			// The claim moved the post to the next day: a channel the bot
			// may not write to costs that server today's post alone.
			s.log.Log(ctx, health.Level(err), "post daily puzzle", "guild", post.GuildID, "channel", post.Channel, "err", err)
			continue
		}
		n++
		// The post's count of solvers is brought up to date through this
		// record: without it, the post stays as posted.
		if err := s.store.DailyPosted(ctx, post, p.ID, id); err != nil {
			s.log.Log(ctx, health.Level(err), "record daily post", "guild", post.GuildID, "err", err)
		}
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
		if p.Shape == tttbot.DailyShape() {
			set = append(set, p)
		}
	}
	p, ok := tttbot.DailyPuzzle(day, set)
	if !ok {
		return p, fmt.Errorf("daily puzzle: no starter puzzle of %v", tttbot.DailyShape())
	}
	return p, nil
}

// DailySolved records user's solve of puzzle id, begun at start and taking
// took, when it is the guild's daily puzzle of start's day, and returns
// the post's solvers and fastest (false: it is not the daily puzzle).
func (s *Service) DailySolved(ctx context.Context, guildID, id, user string, start time.Time, took time.Duration) (tttbot.DailyBoard, bool, error) {
	b, ok, err := s.store.DailySolved(ctx, guildID, id, start, tttbot.DailySolve{Player: user, Took: max(took, 0)})
	if err == nil && ok {
		s.log.Info("daily puzzle solved", "guild", guildID, "puzzle", id, "user", user, "solvers", b.Solvers)
	}
	return b, ok, err
}
