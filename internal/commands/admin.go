package commands

import (
	"context"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/interaction"
)

// canManage reports whether the member who sent i may change the server's
// settings: Discord sends the member's permissions in the channel with
// every interaction.
func canManage(i *discordgo.Interaction) bool {
	return i.Member != nil && i.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
}

// admin answers /ttt-admin, privately.
func (h *Handler) admin(ctx context.Context, i *discordgo.Interaction, sub *discordgo.ApplicationCommandInteractionDataOption, resolved *discordgo.ApplicationCommandInteractionDataResolved) (interaction.Reply, error) {
	if i.GuildID == "" {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "settings_dm", nil)
	}
	if !installed(i) {
		// Discord offers /ttt-admin only where the server installed the
		// bot; an interaction from elsewhere gets no settings to change.
		return interaction.Reply{}, refuse(tttbot.EINVALID, "settings_not_installed", nil)
	}
	if !canManage(i) {
		h.logger(ctx).Warn("settings refused", "user", user(i).ID, "command", sub.Name)
		return interaction.Reply{}, refuse(tttbot.ENOTYOURS, "settings_forbidden", nil)
	}
	l := h.userLang(i)
	name, opts := sub.Name, sub.Options
	if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
		if len(opts) != 1 {
			return interaction.Reply{}, refuse(tttbot.EINVALID, "error_garbled_command", nil)
		}
		name, opts = name+" "+opts[0].Name, opts[0].Options
	}
	o := options(opts)
	str, num, flag := o.str, o.num, o.flag
	switch name {
	case "show":
		st, err := h.store.Settings(ctx, i.GuildID)
		if err != nil {
			return interaction.Reply{}, err
		}
		return post(message{content: h.showSettings(l, st)}, true), nil
	case "channels add", "channels remove":
		id := str("channel")
		if resolved == nil || resolved.Channels[id] == nil || resolved.Channels[id].GuildID != "" && resolved.Channels[id].GuildID != i.GuildID {
			return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_channel_unresolved", nil)
		}
		add := name == "channels add"
		return h.change(ctx, i, settingChannels, func(s *tttbot.Settings) error {
			n := slices.Index(s.Channels, id)
			switch {
			case add && n >= 0:
				return refuse(tttbot.EINVALID, "admin_channel_listed", map[string]any{"Channel": channelMention(id)})
			case add && len(s.Channels) >= tttbot.MaxChannels:
				return refuse(tttbot.EINVALID, "admin_channels_full", map[string]any{"Max": tttbot.MaxChannels})
			case add:
				s.Channels = append(s.Channels, id)
			case n < 0:
				return refuse(tttbot.EINVALID, "admin_channel_unlisted", map[string]any{"Channel": channelMention(id)})
			default:
				s.Channels = slices.Delete(s.Channels, n, n+1)
			}
			return nil
		})
	case "puzzle":
		if flag("off") {
			return h.change(ctx, i, settingDaily, func(s *tttbot.Settings) error { s.Daily = tttbot.Daily{}; return nil })
		}
		id := str("channel")
		hour, ok := num("hour")
		switch {
		case id == "" || !ok:
			return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_daily_missing", nil)
		case resolved == nil || resolved.Channels[id] == nil || resolved.Channels[id].GuildID != "" && resolved.Channels[id].GuildID != i.GuildID:
			return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_channel_unresolved", nil)
		}
		now := h.opts.Now()
		return h.change(ctx, i, settingDaily, func(s *tttbot.Settings) error { s.Daily = tttbot.NewDaily(id, hour, now); return nil })
	case "channels clear":
		return h.change(ctx, i, settingChannels, func(s *tttbot.Settings) error { s.Channels = nil; return nil })
	case "role set", "tournament-role set":
		id := str("role")
		if resolved == nil || resolved.Roles[id] == nil {
			return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_role_unresolved", nil)
		}
		if id == i.GuildID {
			// @everyone's ID is the guild's: every member has it, though
			// Discord lists it in no member's roles.
			return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_role_everyone", nil)
		}
		if name == "tournament-role set" {
			return h.change(ctx, i, settingTournamentRole, func(s *tttbot.Settings) error { s.TournamentRole = id; return nil })
		}
		return h.change(ctx, i, settingRole, func(s *tttbot.Settings) error { s.Role = id; return nil })
	case "role clear":
		return h.change(ctx, i, settingRole, func(s *tttbot.Settings) error { s.Role = ""; return nil })
	case "tournament-role clear":
		return h.change(ctx, i, settingTournamentRole, func(s *tttbot.Settings) error { s.TournamentRole = ""; return nil })
	case "cooldown":
		n, _ := num("seconds")
		if n < 0 || time.Duration(n)*time.Second > tttbot.MaxCooldown {
			return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_cooldown_range", map[string]any{"Max": int(tttbot.MaxCooldown / time.Second)})
		}
		return h.change(ctx, i, settingCooldown, func(s *tttbot.Settings) error { s.Cooldown = time.Duration(n) * time.Second; return nil })
	case "defaults":
		return h.changeDefaults(ctx, i, o)
	case "timeouts":
		return h.changeTimeouts(ctx, i, o)
	case "simultaneous":
		allow := flag("allow")
		return h.change(ctx, i, settingSimultaneous, func(s *tttbot.Settings) error { s.Simultaneous = &allow; return nil })
	case "marks":
		return h.changeMarks(ctx, i, o)
	case "reset-ratings":
		if !flag("confirm") {
			return ephemeral(l.T("admin_reset_unconfirmed", nil)), nil
		}
		n, err := h.play.ResetRatings(ctx, i.GuildID)
		if err != nil {
			return interaction.Reply{}, err
		}
		h.logger(ctx).Info("guild ratings reset", "admin", user(i).ID, "ratings", n)
		return ephemeral(l.N("admin_reset_done", n, nil)), nil
	case "web on", "web off":
		st, err := h.play.SetWeb(ctx, i.GuildID, name == "web on")
		if err != nil {
			return interaction.Reply{}, err
		}
		return h.changed(ctx, i, settingWeb, st), nil
	case "language":
		locale := str("locale")
		if locale == serverLanguage {
			locale = ""
		}
		return h.change(ctx, i, settingLanguage, func(s *tttbot.Settings) error { s.Locale = locale; return nil })
	}
	return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_unknown", map[string]any{"Name": name})
}
