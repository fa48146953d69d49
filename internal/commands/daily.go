package commands

import (
	"context"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/palette"
)

// actDaily is the Solve button of a daily puzzle's post: ttt:zd:PUZZLE.
const actDaily = "zd"

// PostDaily posts the day's puzzle p in its guild's channel, in the
// guild's language (see renderDaily), and returns the message's ID.
func (h *Handler) PostDaily(ctx context.Context, post tttbot.DailyPost, p *tttbot.Puzzle) (string, error) {
	return h.msg.SendMessage(ctx, post.Channel, quiet(h.renderDaily(h.guildLang(ctx, post.GuildID), post.Day, p, tttbot.DailyBoard{})))
}

// renderDaily draws day's post of puzzle p in language l: its shape and the
// moves to the win, not the position, so that the channel holds no
// spoiler; its solvers and the fastest of b; and a Solve button that opens
// a private board for whoever clicks it.
func (h *Handler) renderDaily(l *i18n.Language, day time.Time, p *tttbot.Puzzle, b tttbot.DailyBoard) message {
	text := l.T("daily_post", map[string]any{"Date": day.UTC().Format(time.DateOnly), "Shape": gametext.Shape(l, p.Shape),
		"Moves": (p.Plies() + 1) / 2}) + "\n" + l.T("daily_solvers", map[string]any{"Count": b.Solvers})
	if len(b.Fastest) > 0 {
		times := make([]string, len(b.Fastest))
		for i, s := range b.Fastest {
			times[i] = mention(l, s.Player) + " " + duration(l, s.Took.Round(time.Second))
		}
		text += "\n" + l.T("daily_fastest", map[string]any{"Times": strings.Join(times, l.T("cells_separator", nil))})
	}
	m := message{content: text, accent: accent(palette.X)}
	m.controls = []discordgo.MessageComponent{
		discordgo.Button{Label: l.T("button_solve", nil), Style: discordgo.PrimaryButton, CustomID: "ttt:" + actDaily + ":" + p.ID},
	}
	return m
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

// dailyEdit records a solve of puzzle p, begun at start, in a guild: when p
// is the guild's daily puzzle of that day, the edit that brings its post's
// solvers and fastest up to date, merged with the other solvers' in the
// edit queue (the count its version). A failure costs the post an update,
// not the player their solve.
func (h *Handler) dailyEdit(ctx context.Context, i *discordgo.Interaction, p *tttbot.Puzzle, start time.Time, took time.Duration) *interaction.Edit {
	if i.GuildID == "" {
		return nil
	}
	b, ok, err := h.play.DailySolved(ctx, i.GuildID, p.ID, user(i).ID, start, took)
	if err != nil {
		h.logger(ctx).Warn("record daily solve", "puzzle", p.ID, "err", err)
		return nil
	}
	if !ok {
		return nil
	}
	day := start.UTC().Truncate(24 * time.Hour)
	m := h.renderDaily(h.guildLang(ctx, i.GuildID), day, p, b)
	return &interaction.Edit{Version: b.Solvers, ChannelID: b.Channel, MessageID: b.Message, Data: quiet(m)}
}
