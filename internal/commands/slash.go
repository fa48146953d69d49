package commands

import (
	"context"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/interaction"
)

// command answers a slash command, once checkOptions has held its options
// to its definition: /ttt-admin, or the handler of /ttt's subcommand.
func (h *Handler) command(ctx context.Context, i *discordgo.Interaction) (interaction.Reply, error) {
	data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	def := h.defs[data.Name]
	if !ok || def == nil || len(data.Options) != 1 {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_command", nil)
	}
	if err := checkOptions(def.Options, data.Options, data.Resolved); err != nil {
		return interaction.Reply{}, err
	}
	if def.Name == adminCommand {
		return h.admin(ctx, i, data.Options[0], data.Resolved)
	}
	sub, opts := data.Options[0], options(data.Options[0].Options)
	switch sub.Name {
	case "tournament":
		return h.tournament(ctx, i, sub)
	case "challenge":
		return h.challenge(ctx, i, opts, data.Resolved)
	case "resign":
		return h.resign(ctx, i)
	case "help":
		l := h.userLang(i)
		return ephemeral(l.T("help", map[string]any{
			"ChallengeTimeout": duration(l, h.opts.ChallengeTimeout), "TurnTimeout": duration(l, h.opts.TurnTimeout),
			"Ranked": l.N("rated_games", tttbot.MinRatedGames, nil)}) + "\n" +
			l.T("help_anywhere", map[string]any{"Life": duration(l, tttbot.TokenLife), "Wait": duration(l, tttbot.MaxWebhookWait)})), nil
	case "settings":
		return interaction.Reply{}, refuse(tttbot.EINVALID, "settings_moved", nil)
	case "forget-me":
		return h.forgetMe(ctx, i, opts)
	case "profile":
		return h.profile(ctx, i, opts)
	case "leaderboard":
		return h.leaderboard(ctx, i, opts)
	case "stats":
		return h.stats(ctx, i, opts)
	case "history":
		return h.history(ctx, i, opts)
	case "review":
		return h.review(ctx, i, opts)
	case "hint":
		return h.hint(ctx, i)
	case "puzzle":
		return h.puzzle(ctx, i)
	}
	return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_subcommand", map[string]any{"Name": strconv.Quote(sub.Name)})
}

// Private reports whether the answer to command i, when it is not refused,
// is seen by its user alone. The transport asks before the handler runs:
// a deferred answer keeps the visibility of its deferral.
func (h *Handler) Private(i *discordgo.Interaction) bool {
	data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	if !ok || i.Type != discordgo.InteractionApplicationCommand || len(data.Options) != 1 {
		return false
	}
	if data.Name == adminCommand {
		return true
	}
	switch sub := data.Options[0]; sub.Name {
	case "help", "forget-me", "history", "review", "hint", "profile", "puzzle":
		return true
	case "tournament":
		// The organiser's commands answer privately; the announcement and
		// the table are for the channel.
		return len(sub.Options) == 1 && sub.Options[0].Name != "create" && sub.Options[0].Name != "standings"
	case "stats":
		who, err := targetUser(i, options(sub.Options))
		return err == nil && who == h.botID
	}
	return false
}
