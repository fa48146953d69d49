package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
)

// stats answers /ttt stats: a player's rating on each board they played on
// this server (everywhere, in a DM), their rank, record and streaks, their
// record against the bot, and their puzzle rating, solves and streak; and
// a chart of their ratings over time.
func (h *Handler) stats(ctx context.Context, i *discordgo.Interaction, opts options) (interaction.Reply, error) {
	who, err := targetUser(i, opts)
	if err != nil {
		return interaction.Reply{}, err
	}
	if who == h.botID {
		// The bot has no rating (its games are not rated) and no record
		// against itself: its games are the players' records against it.
		return ephemeral(h.userLang(i).T("stats_bot", nil)), nil
	}
	// A server that has not installed the bot has no ratings of its own:
	// its games count globally.
	scope := i.GuildID
	if guest(i) {
		scope = ""
	}
	st, err := h.store.Stats(ctx, scope, who)
	if err != nil {
		return interaction.Reply{}, err
	}
	l := h.publicLang(ctx, i)
	header, rank := "stats_header_server", "stats_rank_server"
	if scope == "" {
		header, rank = "stats_header_everywhere", "stats_rank_global"
	}
	var b strings.Builder
	b.WriteString(l.T(header, map[string]any{"Player": mention(l, who)}) + "\n")
	if len(st.Ratings) == 0 {
		b.WriteString(l.T("stats_none", nil) + "\n")
	}
	for _, s := range st.Ratings {
		place := l.N("stats_unranked", tttbot.MinRatedGames-s.Games, nil)
		if s.Rank > 0 {
			place = l.T(rank, map[string]any{"Rank": s.Rank})
		}
		fmt.Fprintf(&b, "**%s** — **%s** ± %s · %s · %s · %s\n", gametext.Shape(l, s.Shape), rating(l, s.R), rating(l, s.RD), place,
			l.T("stats_record", map[string]any{"Wins": s.Wins, "Losses": s.Losses, "Draws": s.Draws}), streak(l, s))
	}
	if len(st.VsBot) > 0 {
		levels := ai.Levels()
		slices.SortFunc(st.VsBot, func(a, b tttbot.BotRecord) int {
			return slices.Index(levels, ai.Level(a.Level)) - slices.Index(levels, ai.Level(b.Level))
		})
		var parts []string
		for _, r := range st.VsBot {
			parts = append(parts, fmt.Sprintf("%s %s–%s–%s", gametext.Level(l, r.Level), l.Int(r.Wins), l.Int(r.Losses), l.Int(r.Draws)))
		}
		b.WriteString(l.T("stats_vs_bot", map[string]any{"Records": strings.Join(parts, " · ")}) + "\n")
	}
	if line := h.tournamentPlaces(ctx, l, scope, who); line != "" {
		b.WriteString(line + "\n")
	}
	ps, err := h.store.PuzzleStanding(ctx, who)
	if err != nil {
		return interaction.Reply{}, err
	}
	if ps.Attempts > 0 {
		b.WriteString(l.T("stats_puzzles", map[string]any{"Rating": rating(l, ps.R), "RD": rating(l, ps.RD),
			"Solves": ps.Solves, "Attempts": ps.Attempts, "Streak": ps.Streak, "Best": ps.Best}) + "\n")
	}
	m := message{content: strings.TrimSuffix(b.String(), "\n")}
	chart, err := ratingChart(l, st)
	if err != nil {
		return interaction.Reply{}, err
	}
	if chart != nil {
		m.media = []media{*chart}
	}
	return post(h.withLink(m, l, "button_web_profile", h.playerLink(ctx, who, scope)), false), nil
}

func streak(l *i18n.Language, s tttbot.Standing) string {
	var now string
	switch {
	case s.Streak > 0:
		now = l.N("streak_wins", s.Streak, nil)
	case s.Streak < 0:
		now = l.N("streak_losses", -s.Streak, nil)
	default:
		now = l.T("streak_none", nil)
	}
	return l.N("streak_best", s.Best, map[string]any{"Now": now})
}

// targetUser is the "user" option of a command, or whoever ran it.
func targetUser(i *discordgo.Interaction, opts options) (string, error) {
	if !opts.has("user") {
		return user(i).ID, nil
	}
	if id := opts.str("user"); id != "" {
		return id, nil
	}
	return "", refuse(tttbot.EINVALID, "pick_user", nil)
}
