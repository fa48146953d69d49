package commands

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
)

// The settings as /ttt-admin show lists them and a change answers.
const (
	settingChannels       = "channels"
	settingRole           = "role"
	settingTournamentRole = "tournament role"
	settingCooldown       = "cooldown"
	settingDefaults       = "defaults"
	settingTimeouts       = "timeouts"
	settingSimultaneous   = "simultaneous"
	settingMarks          = "marks"
	settingLanguage       = "language"
	settingWeb            = "web"
	settingDaily          = "daily puzzle"
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
	case settingTournamentRole:
		v := l.T("value_admins_only", nil)
		if st.TournamentRole != "" {
			v = l.T("value_role", map[string]any{"Role": "<@&" + st.TournamentRole + ">"})
		}
		return settingLine{l.T("setting_tournament_role", nil), v, l.T("value_admins_only", nil)}
	case settingDaily:
		v := l.T("value_daily_off", nil)
		if d := st.Daily; d.Channel != "" {
			v = l.T("value_daily", map[string]any{"Channel": channelMention(d.Channel), "Hour": d.Hour, "Next": relTime(d.Due)})
		}
		return settingLine{l.T("setting_daily", nil), v, l.T("value_daily_off", nil)}
	case settingCooldown:
		v := l.T("value_none", nil)
		if st.Cooldown > 0 {
			v = l.T("value_cooldown", map[string]any{"Duration": duration(l, st.Cooldown)})
		}
		return settingLine{l.T("setting_cooldown", nil), v, l.T("value_none", nil)}
	case settingDefaults:
		d := st.Defaults
		level := cmp.Or(d.Level, string(ai.Perfect))
		return settingLine{l.T("setting_defaults", nil),
			l.T("value_defaults", map[string]any{"Shape": gametext.Shape(l, d.Shape(0, 0)), "First": firstName(l, d.First), "Level": gametext.Level(l, level)}),
			l.T("value_defaults", map[string]any{"Shape": gametext.Shape(l, tttbot.Defaults{}.Shape(0, 0)), "First": firstName(l, ""), "Level": gametext.Level(l, string(ai.Perfect))})}
	case settingTimeouts:
		c, t := h.opts.ChallengeTimeout, h.opts.TurnTimeout
		def := l.T("value_timeouts", map[string]any{"Challenge": duration(l, c), "Turn": duration(l, t)})
		return settingLine{l.T("setting_timeouts", nil),
			l.T("value_timeouts", map[string]any{"Challenge": duration(l, cmp.Or(st.ChallengeTimeout, c)), "Turn": duration(l, cmp.Or(st.TurnTimeout, t))}), def}
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
	case settingWeb:
		v := l.T("value_web_off", nil)
		switch {
		case st.Web != "" && h.web == "":
			v = l.T("value_web_unserved", nil)
		case st.Web != "":
			v = h.guildPage(st)
		}
		return settingLine{l.T("setting_web", nil), v, l.T("value_web_off", nil)}
	}
	return settingLine{setting, "?", "?"}
}

// showSettings lists every setting of st in language l.
func (h *Handler) showSettings(l *i18n.Language, st *tttbot.Settings) string {
	var b strings.Builder
	b.WriteString(l.T("settings_title", nil) + "\n")
	for _, s := range []string{settingChannels, settingRole, settingCooldown, settingDefaults, settingTimeouts,
		settingSimultaneous, settingMarks, settingLanguage, settingWeb, settingTournamentRole, settingDaily} {
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
