package commands

import (
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
)

// adminCommand is the name of the command that holds a server's settings.
const adminCommand = "ttt-admin"

// languages are the choices of /ttt-admin language: Discord's locales the
// bot speaks, each named in its own language, and the server's own.
func languages(loc localizer) []*discordgo.ApplicationCommandOptionChoice {
	names := map[string]string{
		"en-US": "English (US)", "de": "Deutsch", "fr": "Français", "es-ES": "Español (España)",
		"es-419": "Español (Latinoamérica)", "pt-BR": "Português (Brasil)", "it": "Italiano", "nl": "Nederlands",
		"pl": "Polski", "ru": "Русский", "uk": "Українська", "tr": "Türkçe", "ja": "日本語", "ko": "한국어",
		"zh-CN": "中文（简体）", "zh-TW": "中文（繁體）",
	}
	server, servers := loc.text("choice_server_language", nil)
	out := []*discordgo.ApplicationCommandOptionChoice{{Name: server, NameLocalizations: servers, Value: serverLanguage}}
	for _, l := range tttbot.Locales() {
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: names[l], Value: l})
	}
	return out
}

// serverLanguage is the language choice that clears the setting.
const serverLanguage = "server"

// adminDefinition is /ttt-admin: hidden from members who cannot manage the
// server (admins may change that in Server Settings → Integrations), and
// only in servers. Handle checks the permission again: what Discord shows
// is the server's to change.
func adminDefinition(loc localizer) *discordgo.ApplicationCommand {
	manage := int64(discordgo.PermissionManageGuild)
	no := false
	option := func(typ discordgo.ApplicationCommandOptionType, name, id string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		d, ds := loc.text(id, nil)
		return &discordgo.ApplicationCommandOption{Type: typ, Name: name, Description: d, DescriptionLocalizations: ds, Options: opts}
	}
	sub := func(name, id string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return option(discordgo.ApplicationCommandOptionSubCommand, name, id, opts...)
	}
	group := func(name, id string, subs ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return option(discordgo.ApplicationCommandOptionSubCommandGroup, name, id, subs...)
	}
	required := func(o *discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		o.Required = true
		return o
	}
	channel := required(option(discordgo.ApplicationCommandOptionChannel, "channel", "opt_channel"))
	channel.ChannelTypes = []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews,
		discordgo.ChannelTypeGuildVoice, discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread}
	sizes := []*discordgo.ApplicationCommandOptionChoice{{Name: "3×3", Value: 3}, {Name: "4×4", Value: 4}, {Name: "5×5", Value: 5}}
	var wins, levels []*discordgo.ApplicationCommandOptionChoice
	for k := 3; k <= 5; k++ {
		wins = append(wins, loc.choice("choice_win", map[string]any{"K": k}, k))
	}
	for _, l := range ai.Levels() {
		levels = append(levels, loc.choice("level_"+string(l), nil, string(l)))
	}
	choices := func(o *discordgo.ApplicationCommandOption, cs ...*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
		o.Choices = cs
		return o
	}
	dailyChannel := option(discordgo.ApplicationCommandOptionChannel, "channel", "opt_daily_channel")
	dailyChannel.ChannelTypes = []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews}
	hour := option(discordgo.ApplicationCommandOptionInteger, "hour", "opt_daily_hour")
	hour.MinValue, hour.MaxValue = new(0.0), 23
	cooldown := required(option(discordgo.ApplicationCommandOptionInteger, "seconds", "opt_cooldown_seconds"))
	cooldown.MinValue, cooldown.MaxValue = new(0.0), float64(tttbot.MaxCooldown/time.Second)
	text := func(name, id string) *discordgo.ApplicationCommandOption {
		o := option(discordgo.ApplicationCommandOptionString, name, id)
		o.MaxLength = 20
		return o
	}
	mark := func(name, id string) *discordgo.ApplicationCommandOption {
		o := option(discordgo.ApplicationCommandOptionString, name, id)
		o.MaxLength = 100
		return o
	}
	description, descriptions := loc.text("cmd_admin", nil)
	return &discordgo.ApplicationCommand{
		Name:                     adminCommand,
		Description:              description,
		DescriptionLocalizations: &descriptions,
		DefaultMemberPermissions: &manage,
		DMPermission:             &no,
		Contexts:                 &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
		IntegrationTypes:         &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall},
		Options: []*discordgo.ApplicationCommandOption{
			sub("show", "admin_show"),
			group("channels", "admin_channels",
				sub("add", "admin_channels_add", channel),
				sub("remove", "admin_channels_remove", channel),
				sub("clear", "admin_channels_clear")),
			group("role", "admin_role",
				sub("set", "admin_role_set", required(option(discordgo.ApplicationCommandOptionRole, "role", "opt_role"))),
				sub("clear", "admin_role_clear")),
			group("tournament-role", "admin_tournament_role",
				sub("set", "admin_tournament_role_set", required(option(discordgo.ApplicationCommandOptionRole, "role", "opt_role"))),
				sub("clear", "admin_tournament_role_clear")),
			sub("cooldown", "admin_cooldown", cooldown),
			sub("puzzle", "admin_daily", dailyChannel, hour, option(discordgo.ApplicationCommandOptionBoolean, "off", "opt_daily_off")),
			sub("defaults", "admin_defaults",
				choices(option(discordgo.ApplicationCommandOptionInteger, "size", "opt_default_size"), sizes...),
				choices(option(discordgo.ApplicationCommandOptionInteger, "win", "opt_default_win"), wins...),
				choices(option(discordgo.ApplicationCommandOptionString, "difficulty", "opt_default_difficulty"), levels...),
				choices(option(discordgo.ApplicationCommandOptionString, "first", "opt_default_first"),
					loc.choice("choice_first_me", nil, "me"), loc.choice("choice_first_them", nil, "them"),
					loc.choice("choice_first_random", nil, "random")),
				option(discordgo.ApplicationCommandOptionBoolean, "reset", "opt_reset_defaults")),
			sub("timeouts", "admin_timeouts", text("challenge", "opt_timeout_challenge"), text("turn", "opt_timeout_turn")),
			sub("simultaneous", "admin_simultaneous", required(option(discordgo.ApplicationCommandOptionBoolean, "allow", "opt_allow"))),
			sub("marks", "admin_marks", mark("x", "opt_mark_x"), mark("o", "opt_mark_o"),
				option(discordgo.ApplicationCommandOptionBoolean, "reset", "opt_reset_marks")),
			sub("reset-ratings", "admin_reset_ratings", required(option(discordgo.ApplicationCommandOptionBoolean, "confirm", "opt_reset_confirm"))),
			group("web", "admin_web", sub("on", "admin_web_on"), sub("off", "admin_web_off")),
			sub("language", "admin_language", choices(required(option(discordgo.ApplicationCommandOptionString, "locale", "opt_locale")), languages(loc)...)),
		},
	}
}
