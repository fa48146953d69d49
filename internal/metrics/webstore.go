package metrics

import (
	"context"
	"time"

	"github.com/tttbot/tttbot"
)

func (s *store) WebGuild(ctx context.Context, webID string) (_ *tttbot.Settings, err error) {
	defer s.done(ctx, "WebGuild", time.Now(), &err)
	return s.next.WebGuild(ctx, webID)
}

func (s *store) Profile(ctx context.Context, webID string) (_ *tttbot.Profile, err error) {
	defer s.done(ctx, "Profile", time.Now(), &err)
	return s.next.Profile(ctx, webID)
}

func (s *store) Profiles(ctx context.Context, ids []string) (_ map[string]tttbot.Profile, err error) {
	defer s.done(ctx, "Profiles", time.Now(), &err)
	return s.next.Profiles(ctx, ids)
}

func (s *store) SetPublic(ctx context.Context, p tttbot.Player, public bool, at time.Time) (err error) {
	defer s.done(ctx, "SetPublic", time.Now(), &err)
	return s.next.SetPublic(ctx, p, public, at)
}

func (s *store) Trends(ctx context.Context, scope string, shape tttbot.Shape, players []string, limit int) (_ map[string][]tttbot.RatingPoint, err error) {
	defer s.done(ctx, "Trends", time.Now(), &err)
	return s.next.Trends(ctx, scope, shape, players, limit)
}

func (s *store) RecentGames(ctx context.Context, player, guildID string, limit int) (_ []tttbot.HistoryEntry, err error) {
	defer s.done(ctx, "RecentGames", time.Now(), &err)
	return s.next.RecentGames(ctx, player, guildID, limit)
}
