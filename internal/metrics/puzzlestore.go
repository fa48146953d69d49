package metrics

import (
	"context"
	"time"

	"github.com/tttbot/tttbot"
)

func (s *store) AddPuzzles(ctx context.Context, ps []tttbot.Puzzle, at time.Time) (_ int, err error) {
	defer s.done(ctx, "AddPuzzles", time.Now(), &err)
	return s.next.AddPuzzles(ctx, ps, at)
}

func (s *store) Puzzle(ctx context.Context, id string) (_ *tttbot.Puzzle, err error) {
	defer s.done(ctx, "Puzzle", time.Now(), &err)
	return s.next.Puzzle(ctx, id)
}

func (s *store) NextPuzzle(ctx context.Context, player string, shape tttbot.Shape, r float64) (_ *tttbot.Puzzle, err error) {
	defer s.done(ctx, "NextPuzzle", time.Now(), &err)
	return s.next.NextPuzzle(ctx, player, shape, r)
}

func (s *store) AttemptPuzzle(ctx context.Context, a tttbot.PuzzleAttempt, player tttbot.Player) (_ tttbot.PuzzleAttempt, _ tttbot.PuzzleStanding, err error) {
	defer s.done(ctx, "AttemptPuzzle", time.Now(), &err)
	return s.next.AttemptPuzzle(ctx, a, player)
}

func (s *store) PuzzleStanding(ctx context.Context, player string) (_ tttbot.PuzzleStanding, err error) {
	defer s.done(ctx, "PuzzleStanding", time.Now(), &err)
	return s.next.PuzzleStanding(ctx, player)
}

func (s *store) PuzzleLeaderboard(ctx context.Context, offset, limit int) (_ tttbot.PuzzleLeaderboardPage, err error) {
	defer s.done(ctx, "PuzzleLeaderboard", time.Now(), &err)
	return s.next.PuzzleLeaderboard(ctx, offset, limit)
}
