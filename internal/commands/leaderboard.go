package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
)

// leaderboardSize is how many players a leaderboard page lists.
const leaderboardSize = 10

// leaderboard answers /ttt leaderboard: the first page, as a message anyone
// in the channel can page through.
func (h *Handler) leaderboard(ctx context.Context, i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (Reply, error) {
	b := leaderboardID{Global: i.GuildID == ""}
	size, k := 3, 0
	for _, o := range opts {
		switch o.Name {
		case "scope":
			switch v, _ := o.Value.(string); v {
			case "server":
				if i.GuildID == "" {
					return Reply{}, tttbot.Errorf(tttbot.EINVALID, "There's no server here: use `scope:global` in direct messages.")
				}
				b.Global = false
			case "global":
				b.Global = true
			default:
				return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Scope must be server or global.")
			}
		case "size":
			v, _ := o.Value.(float64) // JSON numbers
			size = int(v)
		case "win":
			v, _ := o.Value.(float64)
			k = int(v)
		default:
			return Reply{}, tttbot.Errorf(tttbot.EINVALID, "I don't know the option %q.", o.Name)
		}
	}
	s, err := boardShape(size, k)
	if err != nil {
		return Reply{}, err
	}
	b.Rows, b.Cols, b.K = s.Rows, s.Cols, s.K
	m, err := h.renderLeaderboard(ctx, i.GuildID, b)
	if err != nil {
		return Reply{}, err
	}
	return post(m, false), nil
}

// leaderboardPage answers a click on Previous or Next.
func (h *Handler) leaderboardPage(ctx context.Context, i *discordgo.Interaction, customID string) (Reply, error) {
	b, err := parseLeaderboardID(customID)
	if err != nil {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "That button isn't one I know. Try `/ttt leaderboard`.")
	}
	if _, err := boardShape(b.Rows, b.K); err != nil || b.K == 0 || b.Rows != b.Cols || !b.Global && i.GuildID == "" {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "That button isn't one I know. Try `/ttt leaderboard`.")
	}
	m, err := h.renderLeaderboard(ctx, i.GuildID, b)
	if err != nil {
		return Reply{}, err
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
		return tttbot.Shape{}, tttbot.Errorf(tttbot.EINVALID, "The board can be 3×3, 4×4 or 5×5.")
	case size == game.MinK:
		return tttbot.Shape{}, tttbot.Errorf(tttbot.EINVALID, "%d in a row does not fit on a %d×%d board: its win length is %d.", k, size, size, size)
	}
	return tttbot.Shape{}, tttbot.Errorf(tttbot.EINVALID, "%d in a row does not fit on a %d×%d board: pick a win length from %d to %d.", k, size, size, game.MinK, size)
}

// renderLeaderboard draws page b.Page of a leaderboard, or its last page
// when the leaderboard has shrunk since the button was drawn.
func (h *Handler) renderLeaderboard(ctx context.Context, guildID string, b leaderboardID) (message, error) {
	scope, where := guildID, "this server"
	if b.Global {
		scope, where = "", "everyone"
	}
	shape := tttbot.Shape{Rows: b.Rows, Cols: b.Cols, K: b.K}
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
	fmt.Fprintf(&s, "🏆 **Leaderboard** · %s · %s\n", where, shape)
	if page.Total == 0 {
		fmt.Fprintf(&s, "Nobody is ranked here yet: a player shows up after %d rated games against people.", tttbot.MinRatedGames)
		return message{content: s.String()}, nil
	}
	fmt.Fprintf(&s, "Ranked by rating − 2×deviation, after %d rated games.\n", tttbot.MinRatedGames)
	for _, st := range page.Standings {
		who := mention(st.Player)
		if b.Global && st.Name != "" {
			// A mention of someone the reader shares no server with shows
			// as "unknown user"; the name seen last does better.
			who = escape(st.Name)
		}
		fmt.Fprintf(&s, "**%d.** %s — **%.0f** · %.0f ± %.0f · %d–%d–%d\n",
			st.Rank, who, st.Conservative(), st.R, st.RD, st.Wins, st.Losses, st.Draws)
	}
	fmt.Fprintf(&s, "Page %d of %d · %d players · won–lost–drawn", b.Page+1, pages, page.Total)
	m := message{content: s.String()}
	if pages > 1 {
		prev, next := b, b
		prev.Page, next.Page = max(b.Page-1, 0), min(b.Page+1, pages-1)
		m.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "◀ Previous", Style: discordgo.SecondaryButton, CustomID: prev.String(), Disabled: b.Page == 0},
			discordgo.Button{Label: "Next ▶", Style: discordgo.SecondaryButton, CustomID: next.String(), Disabled: b.Page == pages-1},
		}}}
	}
	return m, nil
}

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
