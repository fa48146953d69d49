package play

import (
	"context"

	"github.com/tttbot/tttbot"
)

// SetWeb turns guildID's web page on, with a new opaque address unless it
// has one, or off, and returns the settings as saved.
func (s *Service) SetWeb(ctx context.Context, guildID string, on bool) (*tttbot.Settings, error) {
	return s.store.UpdateSettings(ctx, guildID, func(st *tttbot.Settings) error {
		switch {
		case !on:
			st.Web = ""
		case st.Web == "":
			st.Web = tttbot.NewWebID()
		}
		return nil
	})
}

// SetProfilePublic makes p's web profile public or not, recording the
// name and avatar p has now.
func (s *Service) SetProfilePublic(ctx context.Context, p tttbot.Player, public bool) error {
	if !tttbot.Snowflake(p.ID) {
		return tttbot.ErrBadID
	}
	return s.store.SetPublic(ctx, p, public, s.opts.Now())
}
