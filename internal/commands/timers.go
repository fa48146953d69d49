package commands

import (
	"context"

	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/play"
)

// Fired brings the board of r's game, whose deadline just fired, up to
// date: it shows play's timers on Discord.
func (h *Handler) Fired(ctx context.Context, r play.Result) error {
	g := r.Game
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
	return h.sendEdit(ctx, e)
}

// sendEdit makes edit e outside of an interaction's answer: through the
// webhook of its token, or channel REST.
func (h *Handler) sendEdit(ctx context.Context, e *interaction.Edit) error {
	if e.Token != "" {
		return h.msg.EditResponse(ctx, e.Token, e.Data)
	}
	return h.msg.EditMessage(ctx, e.ChannelID, e.MessageID, e.Data)
}
