package commands

import (
	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/play"
)

// channelPermissions are what the bot needs in a channel to edit its boards
// and post there through channel REST.
const channelPermissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages

// installed reports whether the app is installed to the server i comes
// from, rather than only to the user who used it there. Discord names the
// installs that authorised an interaction in authorizing_integration_owners;
// an interaction without them predates user installs, when an app was
// always the server's.
func installed(i *discordgo.Interaction) bool {
	if i.GuildID == "" {
		return false
	}
	if i.AuthorizingIntegrationOwners == nil {
		return true
	}
	return i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall] == i.GuildID
}

// guest reports whether i comes from a server that has not installed the
// app: a player's own install brought it there.
func guest(i *discordgo.Interaction) bool { return i.GuildID != "" && !installed(i) }

// channelREST reports whether the bot may reach i's channel through
// channel REST afterwards: only in a server that installed it, in a
// channel where it may see and send messages. Elsewhere — DMs, group DMs,
// servers that did not install it — Discord answers channel endpoints with
// Missing Access, and the interaction's webhook is the only way. An
// interaction from before user installs carries no owners, and channel
// REST worked wherever it came from.
func channelREST(i *discordgo.Interaction) bool {
	if i.AuthorizingIntegrationOwners == nil {
		return true
	}
	return i.Context == discordgo.InteractionContextGuild && installed(i) &&
		i.AppPermissions&channelPermissions == channelPermissions
}

// botDM reports whether i comes from the user's DM with the bot, where only
// the two of them can see a board. Before user installs, every DM was one.
func botDM(i *discordgo.Interaction) bool {
	if i.Context == discordgo.InteractionContextBotDM {
		return true
	}
	return i.GuildID == "" && i.Context != discordgo.InteractionContextPrivateChannel && i.AuthorizingIntegrationOwners == nil
}

// privateReplies reports whether Discord shows the answers to i to its user
// alone: a server that has not installed the bot may withhold Use External
// Apps from its members, and the bot's messages there are then ephemeral —
// a challenge nobody else could see or accept.
func privateReplies(i *discordgo.Interaction) bool {
	return guest(i) && i.Member != nil && i.Member.Permissions&discordgo.PermissionUseExternalApps == 0
}

// place is where i was made and how the bot reaches a board it shows
// there afterwards: through channel REST, or through i's own token.
func (h *Handler) place(i *discordgo.Interaction) play.Place {
	return play.Place{GuildID: i.GuildID, ChannelID: i.ChannelID, Webhook: !channelREST(i), Guest: guest(i), Token: h.token(i)}
}

// token is i's token, which Discord honours for tttbot.TokenLife from now.
func (h *Handler) token(i *discordgo.Interaction) tttbot.Token {
	return tttbot.Token{Value: i.Token, Expires: h.opts.Now().Add(tttbot.TokenLife)}
}

// boardEdit is the edit that redraws g's board as m, through channel REST
// or the webhook of g's latest interaction (which, before a click has told
// a board's message, serves a guild's board too), or nil when the bot
// cannot reach the board: Discord no longer honours the token, and the
// bot may not or cannot use channel REST. The board then shows the truth
// at its next click.
func (h *Handler) boardEdit(g *tttbot.Game, m message) *interaction.Edit {
	e := &interaction.Edit{GameID: g.ID, Version: g.Version, ChannelID: g.ChannelID, MessageID: g.MessageID, Data: m.data()}
	switch {
	case !g.Webhook && g.MessageID != "":
		return e
	case g.Token.Valid(h.opts.Now()):
		e.Token = g.Token.Value
		return e
	}
	return nil
}
