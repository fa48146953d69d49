package metrics

import (
	"context"
	"time"

	"github.com/tttbot/tttbot"
)

// Store returns next with every method timed under its name. It implements
// each method itself, not by embedding, so a method added to tttbot.Store
// does not slip by unmeasured.
func (m *Metrics) Store(next tttbot.Store) tttbot.Store {
	return &store{next: next, m: m}
}

type store struct {
	next tttbot.Store
	m    *Metrics
}

func (s *store) done(method string, start time.Time) {
	s.m.storeSeconds.WithLabelValues(method).Observe(time.Since(start).Seconds())
}

func (s *store) Game(ctx context.Context, id int64) (*tttbot.Game, error) {
	defer s.done("Game", time.Now())
	return s.next.Game(ctx, id)
}

func (s *store) OpenGame(ctx context.Context, channelID, user string) (*tttbot.Game, error) {
	defer s.done("OpenGame", time.Now())
	return s.next.OpenGame(ctx, channelID, user)
}

func (s *store) SetMessage(ctx context.Context, id int64, messageID string) error {
	defer s.done("SetMessage", time.Now())
	return s.next.SetMessage(ctx, id, messageID)
}

func (s *store) SetToken(ctx context.Context, id int64, t tttbot.Token) error {
	defer s.done("SetToken", time.Now())
	return s.next.SetToken(ctx, id, t)
}

func (s *store) Accept(ctx context.Context, r tttbot.AcceptRequest) (*tttbot.Game, error) {
	defer s.done("Accept", time.Now())
	return s.next.Accept(ctx, r)
}

func (s *store) Decline(ctx context.Context, id int64, user string, version int, at time.Time) (*tttbot.Game, error) {
	defer s.done("Decline", time.Now())
	return s.next.Decline(ctx, id, user, version, at)
}

func (s *store) Play(ctx context.Context, mr tttbot.MoveRequest, seen *tttbot.Game) (*tttbot.Game, error) {
	defer s.done("Play", time.Now())
	return s.next.Play(ctx, mr, seen)
}

func (s *store) Resign(ctx context.Context, id int64, user string, at time.Time) (*tttbot.Game, error) {
	defer s.done("Resign", time.Now())
	return s.next.Resign(ctx, id, user, at)
}

func (s *store) Expire(ctx context.Context, id int64, version int, at time.Time) (*tttbot.Game, error) {
	defer s.done("Expire", time.Now())
	return s.next.Expire(ctx, id, version, at)
}

func (s *store) Due(ctx context.Context, at time.Time, limit int) ([]*tttbot.Game, error) {
	defer s.done("Due", time.Now())
	return s.next.Due(ctx, at, limit)
}

func (s *store) Moves(ctx context.Context, id int64) ([]tttbot.Move, error) {
	defer s.done("Moves", time.Now())
	return s.next.Moves(ctx, id)
}

func (s *store) Leaderboard(ctx context.Context, scope string, shape tttbot.Shape, offset, limit int) (tttbot.LeaderboardPage, error) {
	defer s.done("Leaderboard", time.Now())
	return s.next.Leaderboard(ctx, scope, shape, offset, limit)
}

func (s *store) Stats(ctx context.Context, scope, player string) (*tttbot.Stats, error) {
	defer s.done("Stats", time.Now())
	return s.next.Stats(ctx, scope, player)
}

func (s *store) History(ctx context.Context, player, guildID string, limit int) ([]tttbot.HistoryEntry, error) {
	defer s.done("History", time.Now())
	return s.next.History(ctx, player, guildID, limit)
}

func (s *store) Remember(ctx context.Context) error {
	defer s.done("Remember", time.Now())
	return s.next.Remember(ctx)
}

func (s *store) PruneInteractions(ctx context.Context, before time.Time, limit int) (int, error) {
	defer s.done("PruneInteractions", time.Now())
	return s.next.PruneInteractions(ctx, before, limit)
}

func (s *store) StartGame(ctx context.Context, g *tttbot.Game, prepare func(*tttbot.Game, tttbot.Admission) error, players ...tttbot.Player) error {
	defer s.done("StartGame", time.Now())
	return s.next.StartGame(ctx, g, prepare, players...)
}

func (s *store) Settings(ctx context.Context, guildID string) (*tttbot.Settings, error) {
	defer s.done("Settings", time.Now())
	return s.next.Settings(ctx, guildID)
}

func (s *store) UpdateSettings(ctx context.Context, guildID string, change func(*tttbot.Settings) error) (*tttbot.Settings, error) {
	defer s.done("UpdateSettings", time.Now())
	return s.next.UpdateSettings(ctx, guildID, change)
}

func (s *store) ResetRatings(ctx context.Context, guildID string) (int, error) {
	defer s.done("ResetRatings", time.Now())
	return s.next.ResetRatings(ctx, guildID)
}

func (s *store) ForgetPlayer(ctx context.Context, user string, at time.Time) (*tttbot.Erasure, error) {
	defer s.done("ForgetPlayer", time.Now())
	return s.next.ForgetPlayer(ctx, user, at)
}
