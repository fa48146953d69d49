package commands

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
)

// forgetMe answers /ttt forget-me: it erases what the bot keeps about the
// user, ends their open games first, and says what it erased.
func (h *Handler) forgetMe(ctx context.Context, i *discordgo.Interaction, opts options) (interaction.Reply, error) {
	if !opts.flag("confirm") {
		return ephemeral(h.userLang(i).T("forget_unconfirmed", nil)), nil
	}
	me := user(i).ID
	e, err := h.play.ForgetPlayer(ctx, me)
	if err != nil {
		return interaction.Reply{}, err
	}
	h.logger(ctx).Info("player forgotten", "user", me, "games", e.Games, "ratings", e.Ratings, "records", e.Records, "closed", len(e.Closed))
	h.editBoards(ctx, e.Closed)
	return ephemeral(erasureText(h.userLang(i), e)), nil
}

// editBoards brings the boards of games up to date, those an erasure
// ended: a failure leaves a board behind, which its next click refreshes.
func (h *Handler) editBoards(ctx context.Context, games []*tttbot.Game) {
	for _, g := range games {
		e := h.boardEdit(g, h.render(ctx, h.gameLang(g), g, nil))
		if e == nil {
			continue
		}
		if err := h.sendEdit(ctx, e); err != nil {
			h.logger(ctx).Error("edit board", "game", g.ID, "err", err)
		}
	}
}

// erasureText says what an erasure erased, to the player, in language l.
func erasureText(l *i18n.Language, e *tttbot.Erasure) string {
	lines := []string{l.T("forget_done", nil)}
	if e.Named {
		lines = append(lines, l.T("forget_name", nil))
	}
	lines = append(lines, l.N("forget_ratings", e.Ratings, nil), l.N("forget_records", e.Records, nil))
	if len(e.Closed) > 0 {
		lines = append(lines, l.N("forget_closed", len(e.Closed), nil))
	}
	lines = append(lines, l.N("forget_games", e.Games, map[string]any{"Name": l.T("forgotten_player", nil)}), l.T("forget_footer", nil))
	return strings.Join(lines, "\n")
}
