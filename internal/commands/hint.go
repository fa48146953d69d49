package commands

import (
	"context"
	"errors"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/play"
)

// hintBudget bounds the solver's work for a hint, as reviewBudget does a
// review page's, so that the answer beats Discord's deadline.
const hintBudget = 2 * time.Second

// hint answers /ttt hint, privately: the best move of the user's game
// against the bot in the channel, and what it leads to. The game is marked
// as played with a hint only once the solver has an answer to give.
func (h *Handler) hint(ctx context.Context, i *discordgo.Interaction) (interaction.Reply, error) {
	who := user(i).ID
	g, err := h.store.OpenGame(ctx, i.ChannelID, who)
	if tttbot.ErrorCode(err) == tttbot.ENOTFOUND {
		return interaction.Reply{}, play.ErrNoOpenGame
	} else if err != nil {
		return interaction.Reply{}, err
	}
	check := *g // refused early on a copy: the store marks the game
	if err := check.Assist(who, g.Version); err != nil {
		return interaction.Reply{}, err
	}
	pos, err := g.Position()
	if err != nil {
		return interaction.Reply{}, err
	}
	actx, cancel := context.WithTimeout(ctx, hintBudget)
	a, err := h.ai.Analyze(actx, pos)
	cancel()
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return interaction.Reply{}, err
	}
	if err != nil || !a.Proven || len(a.Best) == 0 {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "hint_unsolved", nil)
	}
	if _, err := h.play.Assist(ctx, g.ID, who, g.Version); err != nil {
		return interaction.Reply{}, err
	}
	l := h.userLang(i)
	return ephemeral(hintText(l, pos.Geometry(), a) + "\n" + l.T("hint_assisted", nil)), nil
}

// hintText says in language l what the best moves of analysis a, of a
// position on geo, lead to: a win or a loss counted in the moves of
// the side that ends the game, or a draw.
func hintText(l *i18n.Language, geo *game.Geometry, a ai.Analysis) string {
	data := map[string]any{"Cells": gametext.Cells(l, geo, a.Best)}
	switch {
	case a.Value > 0:
		return l.N("hint_win", (a.Plies+1)/2, data)
	case a.Value < 0:
		return l.N("hint_loss", a.Plies/2, data)
	case len(a.Best) == len(a.Moves):
		return l.T("hint_draw_any", nil)
	}
	return l.T("hint_draw", data)
}
