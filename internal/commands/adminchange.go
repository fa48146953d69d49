package commands

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/interaction"
)

// change applies fn to the server's settings, logs the change with the
// admin's ID, and answers with the new value of setting.
func (h *Handler) change(ctx context.Context, i *discordgo.Interaction, setting string, fn func(*tttbot.Settings) error) (interaction.Reply, error) {
	st, err := h.play.ChangeSettings(ctx, i.GuildID, fn)
	if err != nil {
		return interaction.Reply{}, err
	}
	return h.changed(ctx, i, setting, st), nil
}

// changed logs a change of the server's settings, now st, with the
// admin's ID, and answers with the new value of setting.
func (h *Handler) changed(ctx context.Context, i *discordgo.Interaction, setting string, st *tttbot.Settings) interaction.Reply {
	h.cacheLook(st, h.opts.Now())
	l := h.userLang(i)
	line := h.settingLine(l, st, setting)
	h.logger(ctx).Info("guild settings changed", "admin", user(i).ID, "setting", setting)
	m := message{content: "✅ " + line.text(l)}
	if u := h.guildPage(st); u != "" {
		m.components = []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{h.linkButton(l, "button_web_leaderboard", u)}}}
	}
	return post(m, true)
}

func (h *Handler) changeDefaults(ctx context.Context, i *discordgo.Interaction, o options) (interaction.Reply, error) {
	str, num, flag := o.str, o.num, o.flag
	if len(o) == 0 {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_defaults_empty", nil)
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

func (h *Handler) changeTimeouts(ctx context.Context, i *discordgo.Interaction, o options) (interaction.Reply, error) {
	challenge, turn := o.str("challenge"), o.str("turn")
	if challenge == "" && turn == "" {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_timeouts_empty", nil)
	}
	var cd, td time.Duration
	var err error
	if challenge != "" {
		if cd, err = parseTimeout(challenge, tttbot.MinChallengeTimeout, tttbot.MaxChallengeTimeout); err != nil {
			return interaction.Reply{}, err
		}
	}
	if turn != "" {
		if td, err = parseTimeout(turn, tttbot.MinTurnTimeout, tttbot.MaxTurnTimeout); err != nil {
			return interaction.Reply{}, err
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

func (h *Handler) changeMarks(ctx context.Context, i *discordgo.Interaction, opts options) (interaction.Reply, error) {
	x, o, reset := opts.str("x"), opts.str("o"), opts.flag("reset")
	if reset && (x != "" || o != "") {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_marks_both", nil)
	}
	if !reset && x == "" && o == "" {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "admin_marks_empty", nil)
	}
	var mx, mo tttbot.Mark
	var err error
	if x != "" {
		if mx, err = h.usableMark(ctx, i.GuildID, "X", x); err != nil {
			return interaction.Reply{}, err
		}
	}
	if o != "" {
		if mo, err = h.usableMark(ctx, i.GuildID, "O", o); err != nil {
			return interaction.Reply{}, err
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

// timeoutRange refuses a timeout out of its bounds, written in the
// player's language once it is known.
type timeoutRange struct {
	err    *tttbot.Error
	lo, hi time.Duration
}

func (e *timeoutRange) Error() string { return e.err.Error() }
func (e *timeoutRange) Unwrap() error { return e.err }
