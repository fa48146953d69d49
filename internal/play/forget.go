package play

import (
	"context"

	"github.com/tttbot/tttbot"
)

// ForgetPlayer erases user now: it ends their open games as they would,
// then replaces them by placeholders in every stored game and deletes their
// name, ratings and records (see tttbot.ForgetStore). The Erasure's Closed
// games are the boards to bring up to date.
func (s *Service) ForgetPlayer(ctx context.Context, user string) (*tttbot.Erasure, error) {
	return s.store.ForgetPlayer(ctx, user, s.opts.Now())
}
