package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
)

// stats answers /ttt stats: a player's rating on each board they played on
// this server (everywhere, in a DM), their rank, record and streaks, and
// their record against the bot.
func (h *Handler) stats(ctx context.Context, i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (Reply, error) {
	who, err := targetUser(i, opts)
	if err != nil {
		return Reply{}, err
	}
	if who == h.botID {
		// The bot has no rating (its games are not rated) and no record
		// against itself: its games are the players' records against it.
		return ephemeral("I'm not rated: games against me count in each player's record against me, which `/ttt stats` shows for them. " +
			"`/ttt history user:` with me lists the games I played."), nil
	}
	st, err := h.store.Stats(ctx, i.GuildID, who)
	if err != nil {
		return Reply{}, err
	}
	where, rank := "on this server", "on this server"
	if i.GuildID == "" {
		where, rank = "everywhere", "worldwide"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "📊 **Stats of %s** %s\n", mention(who), where)
	if len(st.Ratings) == 0 {
		fmt.Fprintf(&b, "No rated games yet: games against people count.\n")
	}
	for _, s := range st.Ratings {
		fmt.Fprintf(&b, "**%s** — **%.0f** ± %.0f · ", s.Shape, s.R, s.RD)
		if s.Rank > 0 {
			fmt.Fprintf(&b, "#%d %s", s.Rank, rank)
		} else {
			fmt.Fprintf(&b, "ranked after %d more game%s", tttbot.MinRatedGames-s.Games, plural(tttbot.MinRatedGames-s.Games))
		}
		fmt.Fprintf(&b, " · %d won, %d lost, %d drawn · %s\n", s.Wins, s.Losses, s.Draws, streak(s))
	}
	if len(st.VsBot) > 0 {
		levels := ai.Levels()
		slices.SortFunc(st.VsBot, func(a, b tttbot.BotRecord) int {
			return slices.Index(levels, ai.Level(a.Level)) - slices.Index(levels, ai.Level(b.Level))
		})
		var parts []string
		for _, r := range st.VsBot {
			parts = append(parts, fmt.Sprintf("%s %d–%d–%d", r.Level, r.Wins, r.Losses, r.Draws))
		}
		fmt.Fprintf(&b, "Against me, everywhere (won–lost–drawn, unrated): %s\n", strings.Join(parts, " · "))
	}
	return post(message{content: strings.TrimSuffix(b.String(), "\n")}, false), nil
}

func streak(s tttbot.Standing) string {
	var now string
	switch {
	case s.Streak > 0:
		now = fmt.Sprintf("%d win%s in a row", s.Streak, plural(s.Streak))
	case s.Streak < 0:
		now = fmt.Sprintf("%d loss%s in a row", -s.Streak, map[bool]string{true: "es"}[-s.Streak != 1])
	default:
		now = "no streak"
	}
	return fmt.Sprintf("%s (best: %d win%s)", now, s.Best, plural(s.Best))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// targetUser is the "user" option of a command, or whoever ran it.
func targetUser(i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (string, error) {
	who := user(i).ID
	for _, o := range opts {
		if o.Name != "user" {
			return "", tttbot.Errorf(tttbot.EINVALID, "I don't know the option %q.", o.Name)
		}
		id, _ := o.Value.(string)
		if id == "" {
			return "", tttbot.Errorf(tttbot.EINVALID, "Pick a user.")
		}
		who = id
	}
	return who, nil
}
