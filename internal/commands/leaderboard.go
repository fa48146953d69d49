package commands

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
)

// leaderboardSize is how many players a leaderboard page lists.
const leaderboardSize = 10

// leaderboard answers /ttt leaderboard: the first page, as a message anyone
// in the channel can page through.
func (h *Handler) leaderboard(ctx context.Context, i *discordgo.Interaction, opts options) (interaction.Reply, error) {
	b := leaderboardID{Global: i.GuildID == "" || guest(i)}
	note := false
	if opts.has("scope") {
		switch opts.str("scope") {
		case "server":
			if i.GuildID == "" {
				return interaction.Reply{}, refuse(tttbot.EINVALID, "leaderboard_no_server", nil)
			}
			// A guest server's games count globally only: the global
			// board is the one that has them.
			note = guest(i)
			b.Global = guest(i)
		case "global":
			b.Global = true
		case "puzzles":
			return h.puzzleLeaderboard(ctx, h.publicLang(ctx, i))
		default:
			return interaction.Reply{}, refuse(tttbot.EINVALID, "leaderboard_bad_scope", nil)
		}
	}
	size, given := opts.num("size")
	if !given {
		size = 3
	}
	k, _ := opts.num("win")
	s, err := boardShape(size, k)
	if err != nil {
		return interaction.Reply{}, err
	}
	b.Rows, b.Cols, b.K = s.Rows, s.Cols, s.K
	l := h.publicLang(ctx, i)
	m, err := h.renderLeaderboard(ctx, l, i.GuildID, b)
	if err != nil {
		return interaction.Reply{}, err
	}
	if note {
		m.content = l.T("leaderboard_guest", nil) + "\n" + m.content
	}
	return post(m, false), nil
}

// leaderboardPage answers a click on Previous or Next.
func (h *Handler) leaderboardPage(ctx context.Context, i *discordgo.Interaction, customID string) (interaction.Reply, error) {
	b, err := parseLeaderboardID(customID)
	if err != nil {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "leaderboard_unknown_button", nil)
	}
	if _, err := boardShape(b.Rows, b.K); err != nil || b.K == 0 || b.Rows != b.Cols || !b.Global && (i.GuildID == "" || guest(i)) {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "leaderboard_unknown_button", nil)
	}
	m, err := h.renderLeaderboard(ctx, h.publicLang(ctx, i), i.GuildID, b)
	if err != nil {
		return interaction.Reply{}, err
	}
	return update(m), nil
}

// boardShape checks a size and win length given as options; k 0 is the
// size's default.
func boardShape(size, k int) (tttbot.Shape, error) {
	if k == 0 {
		k = game.DefaultK(size, size)
	}
	s := tttbot.Shape{Rows: size, Cols: size, K: k}
	switch {
	case s.Validate() == nil:
		return s, nil
	case tttbot.Shape{Rows: size, Cols: size, K: game.MinK}.Validate() != nil: // no K fits: the size is wrong
		return tttbot.Shape{}, refuse(tttbot.EINVALID, "shape_bad_size", nil)
	case size == game.MinK:
		return tttbot.Shape{}, refuse(tttbot.EINVALID, "shape_k_fixed", map[string]any{"K": k, "Size": size})
	}
	return tttbot.Shape{}, refuse(tttbot.EINVALID, "shape_k_range", map[string]any{"K": k, "Size": size, "Min": game.MinK})
}

// renderLeaderboard draws page b.Page of a leaderboard, or its last page
// when the leaderboard has shrunk since the button was drawn.
func (h *Handler) renderLeaderboard(ctx context.Context, l *i18n.Language, guildID string, b leaderboardID) (message, error) {
	scope, header := guildID, "leaderboard_header_server"
	if b.Global {
		scope, header = "", "leaderboard_header_global"
	}
	shape := tttbot.Shape{Rows: b.Rows, Cols: b.Cols, K: b.K}
	var web string
	if !b.Global {
		web = h.guildLink(ctx, guildID)
	}
	page, err := h.store.Leaderboard(ctx, scope, shape, b.Page*leaderboardSize, leaderboardSize)
	if err != nil {
		return message{}, err
	}
	pages := (page.Total + leaderboardSize - 1) / leaderboardSize
	if b.Page >= pages && pages > 0 {
		b.Page = pages - 1
		if page, err = h.store.Leaderboard(ctx, scope, shape, b.Page*leaderboardSize, leaderboardSize); err != nil {
			return message{}, err
		}
	}
	var s strings.Builder
	s.WriteString(l.T(header, map[string]any{"Shape": gametext.Shape(l, shape)}) + "\n")
	ranked := map[string]any{"Ranked": l.N("rated_games", tttbot.MinRatedGames, nil)}
	if page.Total == 0 {
		s.WriteString(l.T("leaderboard_empty", ranked))
		return h.withLink(message{content: s.String()}, l, "button_web_leaderboard", web), nil
	}
	s.WriteString(l.T("leaderboard_ranked_by", ranked) + "\n")
	for _, st := range page.Standings {
		who := mention(l, st.Player)
		if b.Global && st.Name != "" {
			// A mention of someone the reader shares no server with shows
			// as "unknown user"; the name seen last does better.
			who = escape(st.Name)
		}
		fmt.Fprintf(&s, "**%s.** %s — **%s** · %s ± %s · %s–%s–%s\n",
			l.Int(st.Rank), who, rating(l, st.Conservative()), rating(l, st.R), rating(l, st.RD),
			l.Int(st.Wins), l.Int(st.Losses), l.Int(st.Draws))
	}
	s.WriteString(l.N("leaderboard_footer", page.Total, map[string]any{"Page": b.Page + 1, "Pages": pages}))
	m := message{content: s.String()}
	if pages > 1 {
		prev, next := b, b
		prev.Page, next.Page = max(b.Page-1, 0), min(b.Page+1, pages-1)
		m.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: l.T("button_previous", nil), Style: discordgo.SecondaryButton, CustomID: prev.String(), Disabled: b.Page == 0},
			discordgo.Button{Label: l.T("button_next", nil), Style: discordgo.SecondaryButton, CustomID: next.String(), Disabled: b.Page == pages-1},
		}}}
	}
	return h.withLink(m, l, "button_web_leaderboard", web), nil
}

// rating writes a rating or deviation rounded to a whole number.
func rating(l *i18n.Language, r float64) string { return l.Int(int(math.Round(r))) }

// escape makes user-chosen text show as typed: no markdown, no mentions.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\*_~`|<>[]()#:-@", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// puzzleLeaderboard answers /ttt leaderboard scope:puzzles: the best puzzle
// ratings everywhere, ranked as the game ratings are.
func (h *Handler) puzzleLeaderboard(ctx context.Context, l *i18n.Language) (interaction.Reply, error) {
	page, err := h.store.PuzzleLeaderboard(ctx, 0, leaderboardSize)
	if err != nil {
		return interaction.Reply{}, err
	}
	var s strings.Builder
	s.WriteString(l.T("leaderboard_header_puzzles", nil) + "\n")
	if page.Total == 0 {
		s.WriteString(l.T("leaderboard_puzzles_empty", map[string]any{"Count": tttbot.MinRatedGames}))
		return post(message{content: s.String()}, false), nil
	}
	s.WriteString(l.T("leaderboard_puzzles_ranked_by", map[string]any{"Count": tttbot.MinRatedGames}) + "\n")
	for _, st := range page.Standings {
		who := mention(l, st.Player)
		if st.Name != "" {
			who = escape(st.Name) // the board is everyone's: see renderLeaderboard
		}
		fmt.Fprintf(&s, "**%s.** %s — **%s** · %s ± %s · %s/%s\n",
			l.Int(st.Rank), who, rating(l, st.R-2*st.RD), rating(l, st.R), rating(l, st.RD), l.Int(st.Solves), l.Int(st.Attempts))
	}
	s.WriteString(l.T("leaderboard_puzzles_footer", map[string]any{"Total": l.Int(page.Total)}))
	return post(message{content: s.String()}, false), nil
}
