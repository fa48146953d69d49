package play

import (
	"context"

	"github.com/tttbot/tttbot"
)

// ChangeSettings applies change to guildID's settings and returns them as
// saved: change refuses with an *tttbot.Error, and the domain refuses
// settings out of bounds (tttbot.Settings.Validate), changing nothing.
func (s *Service) ChangeSettings(ctx context.Context, guildID string, change func(*tttbot.Settings) error) (*tttbot.Settings, error) {
	return s.store.UpdateSettings(ctx, guildID, change)
}

// ResetRatings empties guildID's leaderboards and reports how many ratings
// it deleted; the global ones and the games' results stay.
func (s *Service) ResetRatings(ctx context.Context, guildID string) (int, error) {
	return s.store.ResetRatings(ctx, guildID)
}
