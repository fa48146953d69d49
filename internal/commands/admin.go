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
)

// adminCommand is the name of the command that holds a server's settings.
const adminCommand = "ttt-admin"

// languages are the choices of /ttt-admin language: Discord's locales the
// bot speaks, each named in its own language, and the server's own.
func languages() []*discordgo.ApplicationCommandOptionChoice {
	names := map[string]string{
		"en-US": "English (US)", "de": "Deutsch", "fr": "Français", "es-ES": "Español (España)",
		"es-419": "Español (Latinoamérica)", "pt-BR": "Português (Brasil)", "it": "Italiano", "nl": "Nederlands",
		"pl": "Polski", "ru": "Русский", "uk": "Українська", "tr": "Türkçe", "ja": "日本語", "ko": "한국어",
		"zh-CN": "中文（简体）", "zh-TW": "中文（繁體）",
	}
	out := []*discordgo.ApplicationCommandOptionChoice{{Name: "Discord's server language", Value: serverLanguage}}
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
func adminDefinition() *discordgo.ApplicationCommand {
	manage := int64(discordgo.PermissionManageGuild)
	no := false
	sub := func(name, desc string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: name, Description: desc, Options: opts}
	}
	group := func(name, desc string, subs ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: name, Description: desc, Options: subs}
	}
	channel := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionChannel, Name: "channel", Required: true,
		Description: "A text channel", ChannelTypes: []discordgo.ChannelType{discordgo.ChannelTypeGuildText, discordgo.ChannelTypeGuildNews,
			discordgo.ChannelTypeGuildVoice, discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread}}
	sizes := []*discordgo.ApplicationCommandOptionChoice{{Name: "3×3", Value: 3}, {Name: "4×4", Value: 4}, {Name: "5×5", Value: 5}}
	wins := []*discordgo.ApplicationCommandOptionChoice{{Name: "3 in a row", Value: 3}, {Name: "4 in a row", Value: 4}, {Name: "5 in a row", Value: 5}}
	reset := func(what string) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "reset", Description: "true: back to " + what}
	}
	return &discordgo.ApplicationCommand{
		Name:                     adminCommand,
		Description:              "This server's tic-tac-toe settings (Manage Server)",
		DefaultMemberPermissions: &manage,
		DMPermission:             &no,
		Contexts:                 &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild},
		IntegrationTypes:         &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall},
		Options: []*discordgo.ApplicationCommandOption{
			sub("show", "Every setting of this server, with its default"),
			group("channels", "Where games may be started (none listed: everywhere)",
				sub("add", "Allow games in a channel", channel),
				sub("remove", "Stop allowing new games in a channel", channel),
				sub("clear", "Allow games everywhere")),
			group("role", "Who may start or accept a game",
				sub("set", "Only members with this role", &discordgo.ApplicationCommandOption{
					Type: discordgo.ApplicationCommandOptionRole, Name: "role", Required: true, Description: "The role"}),
				sub("clear", "Everyone")),
			sub("cooldown", "How long a player waits between two games they start",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "seconds", Required: true,
					MinValue: new(0.0), MaxValue: float64(tttbot.MaxCooldown / time.Second), Description: "0 to 3600; 0: none"}),
			sub("defaults", "What /ttt challenge uses when an option is left out",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "size", Description: "Board size", Choices: sizes},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionInteger, Name: "win", Description: "How many in a row win", Choices: wins},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "difficulty", Description: "How well I play", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "easy", Value: string(ai.Easy)}, {Name: "medium", Value: string(ai.Medium)},
					{Name: "hard", Value: string(ai.Hard)}, {Name: "perfect", Value: string(ai.Perfect)},
				}},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "first", Description: "Who moves first", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "me", Value: "me"}, {Name: "them", Value: "them"}, {Name: "random", Value: "random"},
				}},
				reset("3×3, random, perfect")),
			sub("timeouts", "How long a challenge waits, and a player may think",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "challenge", MaxLength: 20,
					Description: "30s to 24h, such as 90s, 10m or 1h; default: the bot's"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "turn", MaxLength: 20,
					Description: "15s to 24h, such as 45s or 5m; default: the bot's"}),
			sub("simultaneous", "Whether a channel may hold several games at once",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "allow", Required: true, Description: "true: several games per channel"}),
			sub("marks", "The marks on the board: emojis, this server's own too",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "x", MaxLength: 100, Description: "X's mark: an emoji"},
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "o", MaxLength: 100, Description: "O's mark: an emoji"},
				reset("❌ and ⭕")),
			sub("reset-ratings", "Clear this server's leaderboard (global ratings stay)",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionBoolean, Name: "confirm", Required: true, Description: "true to clear: it cannot be undone"}),
			sub("language", "The language of my messages in this server's channels",
				&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString, Name: "locale", Required: true, Description: "A language", Choices: languages()}),
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
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Settings belong to a server; there are none in direct messages.")
	}
	if !canManage(i) {
		h.log.Warn("settings refused", "guild", i.GuildID, "user", user(i).ID, "command", sub.Name)
		return Reply{}, tttbot.Errorf(tttbot.ENOTYOURS, "Only members who can manage this server can change its settings.")
	}
	name, opts := sub.Name, sub.Options
	if sub.Type == discordgo.ApplicationCommandOptionSubCommandGroup {
		if len(opts) != 1 {
			return Reply{}, tttbot.Errorf(tttbot.EINVALID, "That command arrived garbled. Run it again from the command menu.")
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
		return post(message{content: h.showSettings(st)}, true), nil
	case "channels add", "channels remove":
		id := str("channel")
		if resolved == nil || resolved.Channels[id] == nil || resolved.Channels[id].GuildID != "" && resolved.Channels[id].GuildID != i.GuildID {
			return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Discord didn't tell me which channel that is. Pick it from the list again.")
		}
		add := name == "channels add"
		return h.change(ctx, i, settingChannels, func(s *tttbot.Settings) error {
			n := slices.Index(s.Channels, id)
			switch {
			case add && n >= 0:
				return tttbot.Errorf(tttbot.EINVALID, "%s is on the list already.", channelMention(id))
			case add && len(s.Channels) >= tttbot.MaxChannels:
				return tttbot.Errorf(tttbot.EINVALID, "The list holds at most %d channels.", tttbot.MaxChannels)
			case add:
				s.Channels = append(s.Channels, id)
			case n < 0:
				return tttbot.Errorf(tttbot.EINVALID, "%s isn't on the list.", channelMention(id))
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
			return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Discord didn't tell me which role that is. Pick it from the list again.")
		}
		if id == i.GuildID {
			// @everyone's ID is the guild's: every member has it, though
			// Discord lists it in no member's roles.
			return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Everyone has @everyone: use `/ttt-admin role clear` to let everyone play.")
		}
		return h.change(ctx, i, settingRole, func(s *tttbot.Settings) error { s.Role = id; return nil })
	case "role clear":
		return h.change(ctx, i, settingRole, func(s *tttbot.Settings) error { s.Role = ""; return nil })
	case "cooldown":
		n, _ := num("seconds")
		if n < 0 || time.Duration(n)*time.Second > tttbot.MaxCooldown {
			return Reply{}, tttbot.Errorf(tttbot.EINVALID, "The cooldown is 0 to %d seconds.", int(tttbot.MaxCooldown/time.Second))
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
			return ephemeral("Nothing cleared. To clear this server's leaderboard, run `/ttt-admin reset-ratings confirm:true`."), nil
		}
		n, err := h.store.ResetRatings(ctx, i.GuildID)
		if err != nil {
			return Reply{}, err
		}
		h.log.Info("guild ratings reset", "guild", i.GuildID, "admin", user(i).ID, "ratings", n)
		return ephemeral(fmt.Sprintf("🧹 This server's leaderboard is cleared: %d rating%s deleted. Global ratings and game history stay; games from now on are rated afresh.", n, plural(n))), nil
	case "language":
		locale := str("locale")
		if locale == serverLanguage {
			locale = ""
		}
		return h.change(ctx, i, settingLanguage, func(s *tttbot.Settings) error { s.Locale = locale; return nil })
	}
	return Reply{}, tttbot.Errorf(tttbot.EINVALID, "I don't know `/ttt-admin %s`. Try `/ttt-admin show`.", name)
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
	line := h.settingLine(st, setting)
	h.log.Info("guild settings changed", "guild", i.GuildID, "admin", user(i).ID, "setting", setting, "value", line.value)
	return post(message{content: "✅ " + line.String()}, true), nil
}

func (h *Handler) changeDefaults(ctx context.Context, i *discordgo.Interaction, o adminOptions) (Reply, error) {
	str, num, flag := o.str, o.num, o.flag
	if len(o) == 0 {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Give a size, win, difficulty or first to set, or reset:true.")
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
				return tttbot.Errorf(tttbot.EINVALID, "Difficulty must be easy, medium, hard or perfect.")
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
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Give a challenge or turn timeout, such as `turn:2m`, or `default` to use the bot's.")
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
		return 0, tttbot.Errorf(tttbot.EINVALID, "%q is not a duration: write it like 90s, 10m or 1h30m (or default).", s)
	case d < lo || d > hi:
		return 0, tttbot.Errorf(tttbot.EINVALID, "A timeout here is %s to %s.", clockDuration(lo), clockDuration(hi))
	case d%time.Second != 0:
		return 0, tttbot.Errorf(tttbot.EINVALID, "A timeout is whole seconds.")
	}
	return d, nil
}

func (h *Handler) changeMarks(ctx context.Context, i *discordgo.Interaction, opts adminOptions) (Reply, error) {
	x, o, reset := opts.str("x"), opts.str("o"), opts.flag("reset")
	if reset && (x != "" || o != "") {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Either reset the marks or set them, not both.")
	}
	if !reset && x == "" && o == "" {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Give x, o or both, such as `x:🐱 o:🐶`, or reset:true for ❌ and ⭕.")
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
		if cx, co := s.Marks(); cx == co {
			return &tttbot.SettingsError{Setting: tttbot.SettingMarks, Reason: "X and O are the same"}
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
		return m, tttbot.Errorf(tttbot.EINVALID, "%q can't be %s's mark. %s", clip(text, 40), side, markText)
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
		return m, tttbot.Errorf(tttbot.EINVALID, "%s isn't one of this server's emojis: I can only use the emojis of the server the board is in.", m)
	}
	e := emojis[i]
	switch {
	case !e.Available:
		return m, tttbot.Errorf(tttbot.EINVALID, "%s isn't available: the server has lost the boost level it needs.", m)
	case len(e.Roles) > 0:
		return m, tttbot.Errorf(tttbot.EINVALID, "%s is reserved for some roles, so I can't use it.", m)
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

// settingLine is one setting with its value and default.
type settingLine struct{ label, value, def string }

func (l settingLine) String() string {
	return fmt.Sprintf("**%s**: %s (default: %s)", l.label, l.value, l.def)
}

// settingLine describes one setting of st.
func (h *Handler) settingLine(st *tttbot.Settings, setting string) settingLine {
	switch setting {
	case settingChannels:
		v := "everywhere"
		if len(st.Channels) > 0 {
			ms := make([]string, len(st.Channels))
			for i, c := range st.Channels {
				ms[i] = channelMention(c)
			}
			v = strings.Join(ms, ", ")
		}
		return settingLine{"Games may start in", v, "everywhere"}
	case settingRole:
		v := "anyone"
		if st.Role != "" {
			v = "members with <@&" + st.Role + ">"
		}
		return settingLine{"Who may start or accept a game", v, "anyone"}
	case settingCooldown:
		v := "none"
		if st.Cooldown > 0 {
			v = clockDuration(st.Cooldown) + " between two games a player starts"
		}
		return settingLine{"Cooldown", v, "none"}
	case settingDefaults:
		d := st.Defaults
		return settingLine{"A bare /ttt challenge plays", fmt.Sprintf("%s, %s moves first, me at %s", d.Shape(0, 0),
			firstName(d.First), cmpOr(d.Level, string(ai.Perfect))), "3×3, 3 in a row, random moves first, me at perfect"}
	case settingTimeouts:
		c, t := h.opts.ChallengeTimeout, h.opts.TurnTimeout
		def := fmt.Sprintf("challenges %s, turns %s", clockDuration(c), clockDuration(t))
		return settingLine{"Timeouts", fmt.Sprintf("challenges %s, turns %s", clockDuration(cmpOr(st.ChallengeTimeout, c)), clockDuration(cmpOr(st.TurnTimeout, t))), def}
	case settingSimultaneous:
		v := "as the bot is configured"
		if st.Simultaneous != nil {
			v = onOff(*st.Simultaneous)
		}
		return settingLine{"Several games at once in a channel", v, "as the bot is configured"}
	case settingMarks:
		x, o := st.Marks()
		return settingLine{"Marks", fmt.Sprintf("X %s, O %s", x, o), "X ❌, O ⭕"}
	case settingLanguage:
		v := "Discord's server language"
		for _, c := range languages() {
			if c.Value == st.Locale {
				v = c.Name
			}
		}
		return settingLine{"Language of public messages", v, "Discord's server language"}
	}
	return settingLine{setting, "?", "?"}
}

// showSettings lists every setting of st.
func (h *Handler) showSettings(st *tttbot.Settings) string {
	var b strings.Builder
	b.WriteString("⚙️ **This server's tic-tac-toe settings**\n")
	for _, s := range []string{settingChannels, settingRole, settingCooldown, settingDefaults, settingTimeouts,
		settingSimultaneous, settingMarks, settingLanguage} {
		fmt.Fprintf(&b, "• %s\n", h.settingLine(st, s))
	}
	b.WriteString("Change them with `/ttt-admin`; every change is logged with who made it.")
	return b.String()
}

func firstName(f tttbot.First) string {
	switch f {
	case tttbot.FirstMe:
		return "the challenger"
	case tttbot.FirstThem:
		return "the one challenged"
	}
	return "random"
}

func onOff(b bool) string {
	if b {
		return "allowed"
	}
	return "one game at a time"
}

func channelMention(id string) string { return "<#" + id + ">" }

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// clockDuration writes d as a player reads it: 90s, 2m, 1h30m.
func clockDuration(d time.Duration) string {
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

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
		return ephemeral("Nothing erased. To erase your name, ratings and records, run `/ttt forget-me confirm:true`: it cannot be undone."), nil
	}
	me := user(i).ID
	e, err := h.store.ForgetPlayer(ctx, me, h.opts.Now())
	if err != nil {
		return Reply{}, err
	}
	h.log.Info("player forgotten", "user", me, "games", e.Games, "ratings", e.Ratings, "records", e.Records, "closed", len(e.Closed))
	h.editBoards(ctx, e.Closed)
	return ephemeral(erasureText(e)), nil
}

// editBoards brings the boards of games up to date, those an erasure
// ended: a failure leaves a board behind, which its next click refreshes.
func (h *Handler) editBoards(ctx context.Context, games []*tttbot.Game) {
	for _, g := range games {
		if g.MessageID == "" {
			continue
		}
		if err := h.msg.EditMessage(ctx, g.ChannelID, g.MessageID, h.render(ctx, g, nil).data()); err != nil {
			h.log.Error("edit board", "game", g.ID, "err", err)
		}
	}
}

// erasureText says what an erasure erased, to the player.
func erasureText(e *tttbot.Erasure) string {
	var b strings.Builder
	b.WriteString("🗑️ Done: I have forgotten you.\n")
	if e.Named {
		b.WriteString("• Your name is erased.\n")
	}
	fmt.Fprintf(&b, "• %d rating%s (per server, worldwide, per board) and %d record%s against me are deleted.\n",
		e.Ratings, plural(e.Ratings), e.Records, plural(e.Records))
	if len(e.Closed) > 0 {
		fmt.Fprintf(&b, "• %d open game%s or challenge%s ended first: games resigned, challenges withdrawn or declined.\n",
			len(e.Closed), plural(len(e.Closed)), plural(len(e.Closed)))
	}
	fmt.Fprintf(&b, "• In %d stored game%s you are now %s, so your opponents can still replay them.\n", e.Games, plural(e.Games), forgottenName)
	b.WriteString("Messages already posted in channels are Discord's: delete them there if you want them gone.")
	return b.String()
}
