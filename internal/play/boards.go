package play

import (
	"context"

	"github.com/tttbot/tttbot"
)

// SetMessage records messageID as the board message of game id, which the
// timers then edit through channel REST.
func (s *Service) SetMessage(ctx context.Context, id int64, messageID string) error {
	err := s.store.SetMessage(ctx, id, messageID)
	if err == nil {
		s.recent.setMessage(id, messageID)
	}
	return err
}

// SetToken records t as the token of game id's latest interaction, whose
// response is the game's board, unless the game holds one that expires
// later.
func (s *Service) SetToken(ctx context.Context, id int64, t tttbot.Token) error {
	err := s.store.SetToken(ctx, id, t)
	if err == nil {
		s.recent.setToken(id, t)
	}
	return err
}
