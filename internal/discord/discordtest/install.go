package discordtest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Where an interaction comes from decides what the app may do after it.
// A server that installed the app lets its bot use channel REST; anywhere
// else — the DM with the bot, DMs and group DMs between users, servers where
// only a user installed the app — the app acts only through the
// interaction: its callback, then its token's webhook for 15 minutes, with
// at most 5 follow-ups when only a user's install authorised it. Channel
// endpoints there answer Missing Access.

// tokenLife is how long Discord honours an interaction's token for its
// webhook.
const tokenLife = 15 * time.Minute

// maxUserFollowups is how many follow-ups an interaction authorised by a
// user's install alone may post.
const maxUserFollowups = 5

// dmPermissions are the app's permissions where it is not a server's: in
// DMs, group DMs and servers that did not install it, Discord grants embed
// links, attach files and mention everyone, and nothing to see or send.
const dmPermissions = discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionMentionEveryone

// SetClock makes now the server's clock: the one that ages interaction
// tokens. The default is time.Now.
func (s *Server) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// NewGroupDM adds a group DM between users, where the bot is no member:
// interactions there have context 2 and come from users' installs.
func (s *Server) NewGroupDM() string { return s.newPrivate(3) }

// NewUserDM adds a DM between two users, as NewGroupDM.
func (s *Server) NewUserDM() string { return s.newPrivate(1) }

func (s *Server) newPrivate(typ int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.newID()
	s.channels[id] = ""
	s.private[id] = typ
	return id
}

// NewGuestGuild adds a server that has not installed the app, where users
// who installed it for themselves can use its commands: interactions there
// have context 0 and come from a user's install.
func (s *Server) NewGuestGuild() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.newID()
	s.guests[id] = true
	return id
}

// RestrictExternalApps takes Use External Apps from the members of guild:
// the answers of apps only a user installed become ephemeral there, seen by
// that user alone, as on Discord.
func (s *Server) RestrictExternalApps(guild string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.restricted[guild] = true
}

// forcedEphemeral reports whether Discord makes in's messages ephemeral
// whatever the app asks: in a guild that withholds Use External Apps, the
// answers of an app that only a user installed. s.mu must be held.
func (s *Server) forcedEphemeral(in *Interaction) bool {
	return in.GuildID != "" && s.restricted[in.GuildID] && in.userInstalled()
}

// context is the interaction context of a channel. s.mu must be held.
func (s *Server) context(channelID string) discordgo.InteractionContextType {
	switch {
	case s.private[channelID] != 0:
		return discordgo.InteractionContextPrivateChannel
	case s.channels[channelID] == "":
		return discordgo.InteractionContextBotDM
	}
	return discordgo.InteractionContextGuild
}

// botChannel reports whether the bot may use channel REST in a channel: only
// in a server that installed the app. s.mu must be held.
func (s *Server) botChannel(channelID string) bool {
	g := s.channels[channelID]
	return g != "" && !s.guests[g]
}

// owners are the installs that authorise user's interaction in a channel,
// as authorizing_integration_owners: the server's, where it installed the
// app, else the user's own. A click on a message the app posted answering
// an interaction is authorised by that interaction's installs, so that
// anyone who sees a board may click it. s.mu must be held.
func (s *Server) owners(user User, channelID string, on *Message) map[string]string {
	if on != nil && on.inter != nil {
		return on.inter.Owners
	}
	if s.botChannel(channelID) {
		return map[string]string{"0": s.channels[channelID]}
	}
	return map[string]string{"1": user.ID}
}

// userInstalled reports whether only a user's install authorised in.
func (in *Interaction) userInstalled() bool {
	_, guild := in.Owners["0"]
	return !guild
}

// appPermissions are the app's permissions in a channel, as app_permissions.
// s.mu must be held.
func (s *Server) appPermissions(channelID string) string {
	if s.botChannel(channelID) {
		return strconv.Itoa(permissions)
	}
	return strconv.FormatInt(dmPermissions, 10)
}

// missingAccess is Discord's answer to channel REST where the bot is no
// member.
func missingAccess() reply { return apiError(http.StatusForbidden, 50001, "Missing Access") }

// expired is Discord's answer to a webhook call with a token past its life.
func expired() reply { return apiError(http.StatusUnauthorized, 50027, "Invalid Webhook Token") }

// tooManyFollowups is Discord's answer to a sixth follow-up of an
// interaction authorised by a user's install alone.
func tooManyFollowups() reply {
	return apiError(http.StatusBadRequest, 40094, "This interaction has hit the maximum number of follow up messages")
}

// checkInstall checks that a registered command may run in context ctx,
// authorised by owners: Discord's client offers a command only where its
// contexts and integration types allow (by default, servers that installed
// the app).
func checkInstall(cmd *discordgo.ApplicationCommand, ctx discordgo.InteractionContextType, owners map[string]string) error {
	contexts := []discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
	if cmd.Contexts != nil {
		contexts = *cmd.Contexts
	}
	types := []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall}
	if cmd.IntegrationTypes != nil {
		types = *cmd.IntegrationTypes
	}
	if !slices.Contains(contexts, ctx) {
		return fmt.Errorf("command %q is not offered in context %d: its contexts are %v", cmd.Name, ctx, contexts)
	}
	for k := range owners {
		n, _ := strconv.Atoi(k)
		if slices.Contains(types, discordgo.ApplicationIntegrationType(n)) {
			return nil
		}
	}
	return fmt.Errorf("command %q is not offered to installs %v: its integration types are %v", cmd.Name, owners, types)
}
