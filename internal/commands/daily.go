package commands

import (
	"context"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/palette"
)

// actDaily is the Solve button of a daily puzzle's post: ttt:zd:PUZZLE.
const actDaily = "zd"

// PostDaily posts the day's puzzle p in its guild's channel, in the
// guild's language: its shape and the moves to the win, not the position,
// so that the channel holds no spoiler, and a Solve button that opens a
// private board for whoever clicks it.
func (h *Handler) PostDaily(ctx context.Context, post tttbot.DailyPost, p *tttbot.Puzzle) error {
	l := h.guildLang(ctx, post.GuildID)
	m := card(l.T("daily_post", map[string]any{"Date": post.Day.Format(time.DateOnly), "Shape": gametext.Shape(l, p.Shape),
		"Moves": (p.Plies() + 1) / 2}))
	m.accent = accent(palette.X)
	m.controls = []discordgo.MessageComponent{
		discordgo.Button{Label: l.T("button_solve", nil), Style: discordgo.PrimaryButton, CustomID: "ttt:" + actDaily + ":" + p.ID},
	}
	_, err := h.msg.SendMessage(ctx, post.Channel, quiet(m))
	return err
}

// dailySolve answers a daily post's Solve button with the puzzle's board,
// privately: the clicks on it are those of /ttt puzzle.
func (h *Handler) dailySolve(ctx context.Context, i *discordgo.Interaction, customID string) (interaction.Reply, error) {
	p, err := h.store.Puzzle(ctx, strings.TrimPrefix(customID, "ttt:"+actDaily+":"))
	if tttbot.ErrorCode(err) == tttbot.ENOTFOUND {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_button_start", nil)
	} else if err != nil {
		return interaction.Reply{}, err
	}
	return h.showPuzzle(ctx, i, p)
}
