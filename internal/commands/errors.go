package commands

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/play"
)

// refusal is a refusal this package finds: the *tttbot.Error that callers
// act on by its code, and the catalog message that words it for the player
// in their own language.
type refusal struct {
	err  *tttbot.Error
	id   string
	data map[string]any
}

func (r *refusal) Error() string { return r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// refuse returns a refusal with code, said by catalog message id filled
// with data.
func refuse(code, id string, data map[string]any) error {
	msg := id
	if len(data) > 0 {
		msg = fmt.Sprintf("%s %v", id, data)
	}
	return &refusal{err: &tttbot.Error{Code: code, Message: msg}, id: id, data: data}
}

// errorText is what a player reads of err in language l: the refusals of
// this package as they were made, the domain's worded here, and
// error_internal for anything else, so no detail (or secret) of a failure
// reaches Discord.
func errorText(l *i18n.Language, err error) string {
	var r *refusal
	if errors.As(err, &r) {
		return l.T(r.id, r.data)
	}
	var timeout *timeoutRange
	var channel *tttbot.ChannelError
	var cooldown *tttbot.CooldownError
	var setting *tttbot.SettingsError
	switch {
	case errors.As(err, &timeout):
		return l.T("admin_timeout_range", map[string]any{"Min": duration(l, timeout.lo), "Max": duration(l, timeout.hi)})
	case errors.As(err, &channel):
		ms := make([]string, len(channel.Allowed))
		for i, c := range channel.Allowed {
			ms[i] = channelMention(c)
		}
		return l.T("error_channel_not_allowed", map[string]any{"Channels": strings.Join(ms, l.T("cells_separator", nil))})
	case errors.As(err, &cooldown):
		left := cooldown.Left.Truncate(time.Second)
		if left < cooldown.Left {
			left += time.Second
		}
		return l.T("error_cooldown", map[string]any{"Left": duration(l, left)})
	case errors.As(err, &setting):
		return settingText(l, setting.Setting)
	}
	var e *tttbot.Error
	if !errors.As(err, &e) || e.Code == tttbot.EINTERNAL {
		return l.T("error_internal", nil)
	}
	if *e == *tttbot.ErrBadShape {
		return l.T("error_bad_shape", map[string]any{"Min": game.MinSize, "Max": game.MaxSize, "K": game.MinK})
	}
	if id := refusalID(*e); id != "" {
		return l.T(id, nil)
	}
	return l.T("error_refused", nil)
}

// refusalID is the catalog message that words a refusal of the domain or
// of internal/play, or "" for one it does not know. A refusal is known by
// its value, its code with its message, not by its address: the codes
// alone are too coarse to tell the refusals apart, and a copy of one
// (tttbot.Errorf with the same code and words) is the same refusal.
func refusalID(e tttbot.Error) string {
	switch e {
	case *tttbot.ErrNoTournament:
		return "tournament_not_found"
	case *tttbot.ErrSignupClosed:
		return "tournament_signup_closed"
	case *tttbot.ErrAlreadyEntered:
		return "tournament_already_in"
	case *tttbot.ErrNotEntered:
		return "tournament_not_in"
	case *tttbot.ErrTournamentMoved:
		return "tournament_moved"
	case *tttbot.ErrTooFewEntrants:
		return "tournament_too_few"
	case *tttbot.ErrTooManyEntrants:
		return "tournament_too_many"
	case *tttbot.ErrNotOrganiser:
		return "tournament_not_organiser"
	case *tttbot.ErrTournamentOver:
		return "tournament_over"
	case *tttbot.ErrRoleNeeded:
		return "error_role_needed"
	case *tttbot.ErrSettingsOutOfGuild:
		return "settings_dm"
	case *play.ErrForgotten:
		return "error_forgotten_opponent"
	case *tttbot.ErrNotFound:
		return "error_not_found"
	case *tttbot.ErrSelfChallenge:
		return "error_self_challenge"
	case *tttbot.ErrPlayerBusy:
		return "error_player_busy"
	case *tttbot.ErrOpponentBusy:
		return "error_opponent_busy"
	case *tttbot.ErrChannelBusy:
		return "error_channel_busy"
	case *tttbot.ErrNotForYou:
		return "error_not_for_you"
	case *tttbot.ErrClosed:
		return "error_closed"
	case *tttbot.ErrExpired:
		return "error_expired"
	case *tttbot.ErrBadX:
		return "error_bad_x"
	case *tttbot.ErrStale:
		return "error_stale"
	case *tttbot.ErrNotAPlayer:
		return "error_not_a_player"
	case *tttbot.ErrNotStarted:
		return "error_not_started"
	case *tttbot.ErrNotYourTurn:
		return "error_not_your_turn"
	case *tttbot.ErrGameOver:
		return "error_game_over"
	case *tttbot.ErrOffBoard:
		return "error_off_board"
	case *tttbot.ErrCellTaken:
		return "error_cell_taken"
	case *tttbot.ErrReplay:
		return "error_replay"
	case *tttbot.ErrHintVsPeople:
		return "hint_vs_people"
	case *tttbot.ErrNotDue:
		return "error_not_due"
	case *tttbot.ErrTimeUp:
		return "error_time_up"
	case *tttbot.ErrTooOld:
		return "error_too_old"
	case *play.ErrNotYourGame:
		return "error_not_your_game"
	case *play.ErrNotInGame:
		return "error_not_in_game"
	case *play.ErrNotOver:
		return "error_not_over"
	case *play.ErrNoOpenGame:
		return "error_no_open_game"
	case *play.ErrBadFirst:
		return "error_bad_first"
	}
	return ""
}

// settingText says in language l what a setting out of bounds must be.
func settingText(l *i18n.Language, setting string) string {
	switch setting {
	case tttbot.SettingChannels:
		return l.T("setting_error_channels", map[string]any{"Max": tttbot.MaxChannels})
	case tttbot.SettingRole, tttbot.SettingTournamentRole:
		return l.T("setting_error_role", nil)
	case tttbot.SettingCooldown:
		return l.T("admin_cooldown_range", map[string]any{"Max": int(tttbot.MaxCooldown / time.Second)})
	case tttbot.SettingChallengeTimeout:
		return l.T("setting_error_challenge_timeout", map[string]any{
			"Min": duration(l, tttbot.MinChallengeTimeout), "Max": duration(l, tttbot.MaxChallengeTimeout)})
	case tttbot.SettingTurnTimeout:
		return l.T("setting_error_turn_timeout", map[string]any{
			"Min": duration(l, tttbot.MinTurnTimeout), "Max": duration(l, tttbot.MaxTurnTimeout)})
	case tttbot.SettingLanguage:
		return l.T("setting_error_language", nil)
	case tttbot.SettingSize, tttbot.SettingWin:
		return l.T("setting_error_size", map[string]any{"Min": game.MinSize, "Max": game.MaxSize})
	case tttbot.SettingFirst:
		return l.T("error_bad_first", nil)
	case tttbot.SettingMark:
		return l.T("setting_error_mark", nil)
	case tttbot.SettingMarks:
		return l.T("admin_marks_same", nil)
	case tttbot.SettingDaily:
		return l.T("admin_daily_missing", nil)
	}
	return l.T("setting_error", nil)
}
