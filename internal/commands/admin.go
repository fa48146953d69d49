package commands

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/i18n"
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
			sub("cooldown", "admin_cooldown", cooldown),
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
			sub("language", "admin_language", choices(required(option(discordgo.ApplicationCommandOptionString, "locale", "opt_locale")), languages(loc)...)),
		},
	}
}

// canManage reports whether the member who sent i may change the server's
// settings: Discord sends the member's permissions in the channel with
// every interaction.
func canManage(i *discordgo.Interaction) bool {
	return i.Member != nil && i.Member.Permissions&(discordgo.PermissionManageGuild|discordgo.PermissionAdministrator) != 0
}

// admin answers /ttt-admin, privately.
func (h *Handler) admin(ctx context.Context, i *discordgo.Interaction, sub *discordgo.ApplicationCommandInteractionDataOption, resolved *discordgo.ApplicationCommandInteractionDataResolved) (Reply, error) {
	if i.GuildID == "" {
		return Reply{}, refuse(tttbot.EINVALID, "settings_dm", nil)
	}
	if !installed(i) {
		// Discord offers /ttt-admin only where the server installed the
		// bot; an interaction from elsewhere gets no settings to change.
		return Reply{}, refuse(tttbot.EINVALID, "settings_not_installed", nil)
	}
	if !canManage(i) {
		h.log.Warn("settings refused", "guild", i.GuildID, "user", user(i).ID, "command", sub.Name)
		return Reply{}, refuse(tttbot.ENOTYOURS, "settings_forbidden", nil)
	}
	l := h.userLang(i)
	name, opts := sub.Name, sub.Options
	if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
		if len(opts) != 1 {
			return Reply{}, refuse(tttbot.EINVALID, "error_garbled_command", nil)
		}
		name, opts = name+" "+opts[0].Name, opts[0].Options
	}
	o := adminOptions(opts)
	str, num, flag := o.str, o.num, o.flag
	switch name {
	case "show":
		st, err := h.store.Settings(ctx, i.GuildID)
		if err != nil {
			return Reply{}, err
		}
		return post(message{content: h.showSettings(l, st)}, true), nil
	case "channels add", "channels remove":
		id := str("channel")
		if resolved == nil || resolved.Channels[id] == nil || resolved.Channels[id].GuildID != "" && resolved.Channels[id].GuildID != i.GuildID {
			return Reply{}, refuse(tttbot.EINVALID, "admin_channel_unresolved", nil)
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
	case "channels clear":
		return h.change(ctx, i, settingChannels, func(s *tttbot.Settings) error { s.Channels = nil; return nil })
	case "role set":
		id := str("role")
		if resolved == nil || resolved.Roles[id] == nil {
			return Reply{}, refuse(tttbot.EINVALID, "admin_role_unresolved", nil)
		}
		if id == i.GuildID {
			// @everyone's ID is the guild's: every member has it, though
			// Discord lists it in no member's roles.
			return Reply{}, refuse(tttbot.EINVALID, "admin_role_everyone", nil)
		}
		return h.change(ctx, i, settingRole, func(s *tttbot.Settings) error { s.Role = id; return nil })
	case "role clear":
		return h.change(ctx, i, settingRole, func(s *tttbot.Settings) error { s.Role = ""; return nil })
	case "cooldown":
		n, _ := num("seconds")
		if n < 0 || time.Duration(n)*time.Second > tttbot.MaxCooldown {
			return Reply{}, refuse(tttbot.EINVALID, "admin_cooldown_range", map[string]any{"Max": int(tttbot.MaxCooldown / time.Second)})
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
		n, err := h.store.ResetRatings(ctx, i.GuildID)
		if err != nil {
			return Reply{}, err
		}
		h.log.Info("guild ratings reset", "guild", i.GuildID, "admin", user(i).ID, "ratings", n)
		return ephemeral(l.N("admin_reset_done", n, nil)), nil
	case "language":
		locale := str("locale")
		if locale == serverLanguage {
			locale = ""
		}
		return h.change(ctx, i, settingLanguage, func(s *tttbot.Settings) error { s.Locale = locale; return nil })
	}
	return Reply{}, refuse(tttbot.EINVALID, "admin_unknown", map[string]any{"Name": name})
}

// adminOptions are a subcommand's options, checked against its definition
// (checkOptions): each value has its option's type.
type adminOptions []*discordgo.ApplicationCommandInteractionDataOption

// value is the value of option name, nil when it was left out.
func (opts adminOptions) value(name string) any {
	for _, o := range opts {
		if o.Name == name {
			return o.Value
		}
	}
	return nil
}

// str is a string option's value, "" when left out.
func (opts adminOptions) str(name string) string {
	s, _ := opts.value(name).(string)
	return s
}

// num is an integer option's value, and whether it was given.
func (opts adminOptions) num(name string) (int, bool) {
	v, ok := opts.value(name).(float64) // JSON numbers
	return int(v), ok
}

// flag is a boolean option's value, false when left out.
func (opts adminOptions) flag(name string) bool {
	b, _ := opts.value(name).(bool)
	return b
}

// change applies fn to the server's settings, logs the change with the
// admin's ID, and answers with the new value of setting.
func (h *Handler) change(ctx context.Context, i *discordgo.Interaction, setting string, fn func(*tttbot.Settings) error) (Reply, error) {
	st, err := h.store.UpdateSettings(ctx, i.GuildID, fn)
	if err != nil {
		return Reply{}, err
	}
	h.cacheLook(st, h.opts.Now())
	l := h.userLang(i)
	line := h.settingLine(l, st, setting)
	h.log.Info("guild settings changed", "guild", i.GuildID, "admin", user(i).ID, "setting", setting)
	return post(message{content: "✅ " + line.text(l)}, true), nil
}

func (h *Handler) changeDefaults(ctx context.Context, i *discordgo.Interaction, o adminOptions) (Reply, error) {
	str, num, flag := o.str, o.num, o.flag
	if len(o) == 0 {
		return Reply{}, refuse(tttbot.EINVALID, "admin_defaults_empty", nil)
	}
	return h.change(ctx, i, settingDefaults, func(s *tttbot.Settings) error {
		d := s.Defaults
		if flag("reset") {
			d = tttbot.Defaults{}
		}
		size, sizeSet := num("size")
		k, kSet := num("win")
		if sizeSet {
			d.Size = size
			if !kSet && d.K > size {
				d.K = 0 // the old win length does not fit: the size's own
			}
		}
		if kSet {
			d.K = k
		}
		if v := str("difficulty"); v != "" {
			level, err := ai.ParseLevel(v)
			if err != nil {
				return refuse(tttbot.EINVALID, "error_bad_difficulty", nil)
			}
			d.Level = string(level)
		}
		if v := str("first"); v != "" {
			d.First = tttbot.First(v)
		}
		s.Defaults = d
		return nil
	})
}

func (h *Handler) changeTimeouts(ctx context.Context, i *discordgo.Interaction, o adminOptions) (Reply, error) {
	challenge, turn := o.str("challenge"), o.str("turn")
	if challenge == "" && turn == "" {
		return Reply{}, refuse(tttbot.EINVALID, "admin_timeouts_empty", nil)
	}
	var cd, td time.Duration
	var err error
	if challenge != "" {
		if cd, err = parseTimeout(challenge, tttbot.MinChallengeTimeout, tttbot.MaxChallengeTimeout); err != nil {
			return Reply{}, err
		}
	}
	if turn != "" {
		if td, err = parseTimeout(turn, tttbot.MinTurnTimeout, tttbot.MaxTurnTimeout); err != nil {
			return Reply{}, err
		}
	}
	return h.change(ctx, i, settingTimeouts, func(s *tttbot.Settings) error {
		if challenge != "" {
			s.ChallengeTimeout = cd
		}
		if turn != "" {
			s.TurnTimeout = td
		}
		return nil
	})
}

// parseTimeout reads a timeout option: a duration such as 90s, 10m or
// 1h30m, a number of seconds, or "default" (0: the bot's). It must be whole
// seconds from lo to hi.
func parseTimeout(s string, lo, hi time.Duration) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "default" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if n, nerr := strconv.Atoi(s); nerr == nil {
		d, err = time.Duration(n)*time.Second, nil
		if n < 0 || n > int(hi/time.Second) {
			d = hi + time.Second
		}
	}
	switch {
	case err != nil:
		return 0, refuse(tttbot.EINVALID, "admin_timeout_unreadable", map[string]any{"Value": strconv.Quote(s)})
	case d < lo || d > hi:
		return 0, &timeoutRange{tttbot.Errorf(tttbot.EINVALID, "a timeout is %s to %s", lo, hi), lo, hi}
	case d%time.Second != 0:
		return 0, refuse(tttbot.EINVALID, "admin_timeout_whole", nil)
	}
	return d, nil
}

func (h *Handler) changeMarks(ctx context.Context, i *discordgo.Interaction, opts adminOptions) (Reply, error) {
	x, o, reset := opts.str("x"), opts.str("o"), opts.flag("reset")
	if reset && (x != "" || o != "") {
		return Reply{}, refuse(tttbot.EINVALID, "admin_marks_both", nil)
	}
	if !reset && x == "" && o == "" {
		return Reply{}, refuse(tttbot.EINVALID, "admin_marks_empty", nil)
	}
	var mx, mo tttbot.Mark
	var err error
	if x != "" {
		if mx, err = h.usableMark(ctx, i.GuildID, "X", x); err != nil {
			return Reply{}, err
		}
	}
	if o != "" {
		if mo, err = h.usableMark(ctx, i.GuildID, "O", o); err != nil {
			return Reply{}, err
		}
	}
	return h.change(ctx, i, settingMarks, func(s *tttbot.Settings) error {
		switch {
		case reset:
			s.X, s.O = tttbot.Mark{}, tttbot.Mark{}
			return nil
		case x != "":
			s.X = mx
		}
		if o != "" {
			s.O = mo
		}
		return nil
	})
}

// usableMark reads text as side's mark and checks that the bot can show
// it: a Unicode emoji, or a custom emoji of this server that Discord lets
// the bot use.
func (h *Handler) usableMark(ctx context.Context, guildID, side, text string) (tttbot.Mark, error) {
	m, err := tttbot.ParseMark(text)
	if err != nil {
		return m, refuse(tttbot.EINVALID, "admin_mark_bad", map[string]any{"Side": side, "Text": strconv.Quote(clip(text, 40))})
	}
	if !m.Custom() {
		return m, nil
	}
	emojis, err := h.msg.GuildEmojis(ctx, guildID)
	if err != nil {
		return m, err
	}
	i := slices.IndexFunc(emojis, func(e *discordgo.Emoji) bool { return e != nil && e.ID == m.ID })
	if i < 0 {
		return m, refuse(tttbot.EINVALID, "admin_mark_foreign", map[string]any{"Mark": m.String()})
	}
	e := emojis[i]
	switch {
	case !e.Available:
		return m, refuse(tttbot.EINVALID, "admin_mark_unavailable", map[string]any{"Mark": m.String()})
	case len(e.Roles) > 0:
		return m, refuse(tttbot.EINVALID, "admin_mark_reserved", map[string]any{"Mark": m.String()})
	}
	// The server's own spelling, should the admin's differ.
	return tttbot.Mark{Name: e.Name, ID: e.ID, Animated: e.Animated}, nil
}

// The settings as /ttt-admin show lists them and a change answers.
const (
	settingChannels     = "channels"
	settingRole         = "role"
	settingCooldown     = "cooldown"
	settingDefaults     = "defaults"
	settingTimeouts     = "timeouts"
	settingSimultaneous = "simultaneous"
	settingMarks        = "marks"
	settingLanguage     = "language"
)

// settingLine is one setting with its value and default, each in the
// reader's language.
type settingLine struct{ label, value, def string }

func (s settingLine) text(l *i18n.Language) string {
	return l.T("setting_line", map[string]any{"Label": s.label, "Value": s.value, "Default": s.def})
}

// settingLine describes one setting of st in language l.
func (h *Handler) settingLine(l *i18n.Language, st *tttbot.Settings, setting string) settingLine {
	switch setting {
	case settingChannels:
		v := l.T("value_everywhere", nil)
		if len(st.Channels) > 0 {
			ms := make([]string, len(st.Channels))
			for i, c := range st.Channels {
				ms[i] = channelMention(c)
			}
			v = strings.Join(ms, l.T("cells_separator", nil))
		}
		return settingLine{l.T("setting_channels", nil), v, l.T("value_everywhere", nil)}
	case settingRole:
		v := l.T("value_anyone", nil)
		if st.Role != "" {
			v = l.T("value_role", map[string]any{"Role": "<@&" + st.Role + ">"})
		}
		return settingLine{l.T("setting_role", nil), v, l.T("value_anyone", nil)}
	case settingCooldown:
		v := l.T("value_none", nil)
		if st.Cooldown > 0 {
			v = l.T("value_cooldown", map[string]any{"Duration": duration(l, st.Cooldown)})
		}
		return settingLine{l.T("setting_cooldown", nil), v, l.T("value_none", nil)}
	case settingDefaults:
		d := st.Defaults
		level := cmpOr(d.Level, string(ai.Perfect))
		return settingLine{l.T("setting_defaults", nil),
			l.T("value_defaults", map[string]any{"Shape": shapeText(l, d.Shape(0, 0)), "First": firstName(l, d.First), "Level": levelText(l, level)}),
			l.T("value_defaults", map[string]any{"Shape": shapeText(l, tttbot.Defaults{}.Shape(0, 0)), "First": firstName(l, ""), "Level": levelText(l, string(ai.Perfect))})}
	case settingTimeouts:
		c, t := h.opts.ChallengeTimeout, h.opts.TurnTimeout
		def := l.T("value_timeouts", map[string]any{"Challenge": duration(l, c), "Turn": duration(l, t)})
		return settingLine{l.T("setting_timeouts", nil),
			l.T("value_timeouts", map[string]any{"Challenge": duration(l, cmpOr(st.ChallengeTimeout, c)), "Turn": duration(l, cmpOr(st.TurnTimeout, t))}), def}
	case settingSimultaneous:
		v := l.T("value_as_configured", nil)
		if st.Simultaneous != nil {
			v = onOff(l, *st.Simultaneous)
		}
		return settingLine{l.T("setting_simultaneous", nil), v, l.T("value_as_configured", nil)}
	case settingMarks:
		x, o := st.Marks()
		return settingLine{l.T("setting_marks", nil), l.T("value_marks", map[string]any{"X": x.String(), "O": o.String()}),
			l.T("value_marks", map[string]any{"X": "❌", "O": "⭕"})}
	case settingLanguage:
		v := l.T("choice_server_language", nil)
		for _, c := range languages(localizer{h.cat}) {
			if c.Value == st.Locale && st.Locale != "" {
				v = c.Name
			}
		}
		return settingLine{l.T("setting_language", nil), v, l.T("choice_server_language", nil)}
	}
	return settingLine{setting, "?", "?"}
}

// showSettings lists every setting of st in language l.
func (h *Handler) showSettings(l *i18n.Language, st *tttbot.Settings) string {
	var b strings.Builder
	b.WriteString(l.T("settings_title", nil) + "\n")
	for _, s := range []string{settingChannels, settingRole, settingCooldown, settingDefaults, settingTimeouts,
		settingSimultaneous, settingMarks, settingLanguage} {
		fmt.Fprintf(&b, "• %s\n", h.settingLine(l, st, s).text(l))
	}
	b.WriteString(l.T("settings_footer", nil))
	return b.String()
}

func firstName(l *i18n.Language, f tttbot.First) string {
	switch f {
	case tttbot.FirstMe:
		return l.T("first_challenger", nil)
	case tttbot.FirstThem:
		return l.T("first_challenged", nil)
	}
	return l.T("first_random", nil)
}

func onOff(l *i18n.Language, b bool) string {
	if b {
		return l.T("value_allowed", nil)
	}
	return l.T("value_one_at_a_time", nil)
}

func channelMention(id string) string { return "<#" + id + ">" }

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// timeoutRange refuses a timeout out of its bounds, written in the
// player's language once it is known.
type timeoutRange struct {
	err    *tttbot.Error
	lo, hi time.Duration
}

func (e *timeoutRange) Error() string { return e.err.Error() }
func (e *timeoutRange) Unwrap() error { return e.err }

// forgetMe answers /ttt forget-me: it erases what the bot keeps about the
// user, ends their open games first, and says what it erased.
func (h *Handler) forgetMe(ctx context.Context, i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (Reply, error) {
	confirm := false
	for _, o := range opts {
		if o.Name == "confirm" {
			confirm, _ = o.Value.(bool)
		}
	}
	if !confirm {
		return ephemeral(h.userLang(i).T("forget_unconfirmed", nil)), nil
	}
	me := user(i).ID
	e, err := h.store.ForgetPlayer(ctx, me, h.opts.Now())
	if err != nil {
		return Reply{}, err
	}
	h.log.Info("player forgotten", "user", me, "games", e.Games, "ratings", e.Ratings, "records", e.Records, "closed", len(e.Closed))
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
			h.log.Error("edit board", "game", g.ID, "err", err)
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
