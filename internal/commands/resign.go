package commands

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/interaction"
)

// resign answers /ttt resign: it ends the user's open game in the channel
// — a challenge withdrawn or declined, a game lost — and redraws its board.
func (h *Handler) resign(ctx context.Context, i *discordgo.Interaction) (interaction.Reply, error) {
	g, err := h.play.Resign(ctx, i.ChannelID, user(i).ID)
	if tttbot.ErrorCode(err) == tttbot.ESTALE {
		return interaction.Reply{}, refuse(tttbot.ESTALE, "resign_stale", nil)
	} else if err != nil {
		return interaction.Reply{}, err
	}
	l := h.gameLang(g)
	m := h.render(ctx, l, g, nil)
	if e := h.boardEdit(g, m); e != nil {
		// The board is updated in place; the reply tells the channel what happened.
		text := h.outcome(l, g)
		if g.Status != tttbot.StatusFinished {
			text = m.content
		}
		return interaction.Reply{
			Response: &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: message{content: text}.data(),
			},
			Edit: e,
		}, nil
	}
	return newMessage(m), nil
}
