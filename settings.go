package tttbot

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/tttbot/tttbot/internal/game"
)

// First says who moves first in a challenge.
type First string

const (
	FirstMe     First = "me"     // the challenger
	FirstThem   First = "them"   // the opponent
	FirstRandom First = "random" // either, by a coin toss
)

// Valid reports whether f is one of the three answers.
func (f First) Valid() bool { return f == FirstMe || f == FirstThem || f == FirstRandom }

// The bounds of a guild's settings.
const (
	MaxChannels         = 25 // channels a guild may list: they fit in /ttt-admin show and in a refusal
	MaxCooldown         = time.Hour
	MinChallengeTimeout = 30 * time.Second
	MaxChallengeTimeout = 24 * time.Hour
	MinTurnTimeout      = 15 * time.Second
	MaxTurnTimeout      = 24 * time.Hour
)

// Settings are a guild's own rules and look, set by its admins. A zero
// field is unset: the bot's configuration or the built-in default applies.
// Durations are whole seconds.
type Settings struct {
	GuildID string

	Channels []string      // where games may be started; none: everywhere
	Role     string        // the role a member needs to start or accept a game; "": anyone
	Cooldown time.Duration // how long a player waits between two games they start

	// TournamentRole is the role whose members may organise tournaments
	// besides those who can manage the guild; "": only they.
	TournamentRole string

	// Simultaneous allows more than one open game per channel; nil: the
	// configured default.
	Simultaneous *bool

	Defaults Defaults // what a challenge that leaves an option out gets

	ChallengeTimeout time.Duration // an unanswered challenge expires after it
	TurnTimeout      time.Duration // a player who does not move within it loses

	X, O Mark // the marks on the board; zero: ❌ and ⭕

	// Locale is the language of the guild's public messages, one of
	// Locales; "": Discord's server language.
	Locale string

	// Web is the opaque ID of the guild's web page (see ValidWebID); "":
	// its admins have not turned the page on.
	Web string

	// Daily is where and when the day's puzzle is posted (see DailyPuzzle);
	// zero: it is not.
	Daily Daily

	UpdatedAt time.Time
}

// Defaults are what a guild's challenges get for the options left out.
type Defaults struct {
	Size  int    // 3 to 5; 0: 3
	K     int    // 3 to Size; 0: the size's own (game.DefaultK)
	Level string // the bot's difficulty, checked by internal/ai; "": perfect
	First First  // "": random
}

// The refusals of a guild's settings, each with the code a caller acts on;
// internal/commands words them for players and admins.
var (
	ErrBadSettings        = &Error{Code: EINVALID, Message: "the settings are out of bounds"}
	ErrChannelNotAllowed  = &Error{Code: EFORBIDDEN, Message: "games may not be started in this channel"}
	ErrRoleNeeded         = &Error{Code: EFORBIDDEN, Message: "the member lacks the role the guild requires"}
	ErrCooldown           = &Error{Code: EFORBIDDEN, Message: "the player started a game too recently"}
	ErrSettingsOutOfGuild = &Error{Code: EINVALID, Message: "only a guild has settings"}
)

// ChannelError refuses a game in a channel the guild does not list; Allowed
// are those it does.
type ChannelError struct{ Allowed []string }

func (e *ChannelError) Error() string { return ErrChannelNotAllowed.Message }
func (e *ChannelError) Unwrap() error { return ErrChannelNotAllowed }

// CooldownError refuses a game started before the player's cooldown ran
// out; Left is how long it still runs.
type CooldownError struct{ Left time.Duration }

func (e *CooldownError) Error() string {
	return fmt.Sprintf("%s: %s left", ErrCooldown.Message, e.Left)
}
func (e *CooldownError) Unwrap() error { return ErrCooldown }

// The settings a SettingsError names.
const (
	SettingChannels         = "channels"
	SettingRole             = "role"
	SettingTournamentRole   = "tournament role"
	SettingDaily            = "daily puzzle"
	SettingCooldown         = "cooldown"
	SettingChallengeTimeout = "challenge timeout"
	SettingTurnTimeout      = "turn timeout"
	SettingLanguage         = "language"
	SettingSize             = "size"
	SettingWin              = "win"
	SettingFirst            = "first"
	SettingMark             = "mark"  // one mark, not an emoji
	SettingMarks            = "marks" // X's and O's, the same
	SettingWeb              = "web"
)

// SettingsError says which setting is out of bounds and why, for logs;
// internal/commands words each setting's refusal for admins.
type SettingsError struct{ Setting, Reason string }

func (e *SettingsError) Error() string { return e.Setting + ": " + e.Reason }
func (e *SettingsError) Unwrap() error { return ErrBadSettings }

// Locales are the languages a guild may choose for its public messages:
// Discord's locale codes that the bot's messages are written for.
func Locales() []string {
	return []string{"en-US", "de", "fr", "es-ES", "es-419", "pt-BR", "it", "nl", "pl", "ru", "uk", "tr", "ja", "ko", "zh-CN", "zh-TW"}
}

// ErrBadID refuses a string that is no Discord ID.
var ErrBadID = &Error{Code: EINVALID, Message: "not a Discord ID"}

// ParseID reads a Discord ID (a snowflake): 1 to 20 digits, the first not
// 0, that fit in 64 bits. It is the one reading of an ID: every other
// check of one calls it. ErrBadID for anything else.
func ParseID(id string) (uint64, error) {
	if id == "" || len(id) > 20 || id[0] == '0' {
		return 0, ErrBadID
	}
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return 0, ErrBadID
	}
	return n, nil
}

// discordEpoch is the first millisecond of 2015, in Unix milliseconds:
// a snowflake counts its time from it.
const discordEpoch = 1420070400000

// IDTime is when Discord made the object of ID id (an interaction, a
// message), by Discord's clock: the top 42 bits of a snowflake count
// milliseconds since 2015. ErrBadID when id is no snowflake.
func IDTime(id string) (time.Time, error) {
	n, err := ParseID(id)
	if err != nil {
		return time.Time{}, err
	}
	return time.UnixMilli(int64(n>>22) + discordEpoch).UTC(), nil
}

// CheckGuild refuses, with ErrSettingsOutOfGuild, settings for what is no
// guild: a DM, or an ID that is no Discord ID.
func CheckGuild(guildID string) error {
	if !Snowflake(guildID) {
		return ErrSettingsOutOfGuild
	}
	return nil
}

// Snowflake reports whether id is a Discord ID, as ParseID reads one.
func Snowflake(id string) bool {
	_, err := ParseID(id)
	return err == nil
}

// Validate returns a *SettingsError for the first setting out of bounds.
func (s *Settings) Validate() error {
	bad := func(setting, format string, args ...any) error {
		return &SettingsError{Setting: setting, Reason: fmt.Sprintf(format, args...)}
	}
	whole := func(d time.Duration) bool { return d%time.Second == 0 }
	switch {
	case CheckGuild(s.GuildID) != nil:
		return ErrSettingsOutOfGuild
	case len(s.Channels) > MaxChannels:
		return bad(SettingChannels, "at most %d channels", MaxChannels)
	case s.Role != "" && !Snowflake(s.Role):
		return bad(SettingRole, "%q is not a role", s.Role)
	case s.TournamentRole != "" && !Snowflake(s.TournamentRole):
		return bad(SettingTournamentRole, "%q is not a role", s.TournamentRole)
	case s.Daily.validate() != nil:
		return bad(SettingDaily, "%v", s.Daily.validate())
	case s.Cooldown < 0 || s.Cooldown > MaxCooldown || !whole(s.Cooldown):
		return bad(SettingCooldown, "whole seconds from 0 to %d", int(MaxCooldown/time.Second))
	case s.ChallengeTimeout != 0 && (s.ChallengeTimeout < MinChallengeTimeout || s.ChallengeTimeout > MaxChallengeTimeout || !whole(s.ChallengeTimeout)):
		return bad(SettingChallengeTimeout, "whole seconds from %s to %s", MinChallengeTimeout, MaxChallengeTimeout)
	case s.TurnTimeout != 0 && (s.TurnTimeout < MinTurnTimeout || s.TurnTimeout > MaxTurnTimeout || !whole(s.TurnTimeout)):
		return bad(SettingTurnTimeout, "whole seconds from %s to %s", MinTurnTimeout, MaxTurnTimeout)
	case s.Locale != "" && !slices.Contains(Locales(), s.Locale):
		return bad(SettingLanguage, "%q is not a language the bot speaks", s.Locale)
	case s.Web != "" && !ValidWebID(s.Web):
		return bad(SettingWeb, "%q is not a web page's ID", s.Web)
	}
	for i, c := range s.Channels {
		if !Snowflake(c) {
			return bad(SettingChannels, "%q is not a channel", c)
		}
		if slices.Contains(s.Channels[:i], c) {
			return bad(SettingChannels, "channel %s is listed twice", c)
		}
	}
	if err := s.Defaults.validate(); err != nil {
		return err
	}
	if err := s.validateMarks(); err != nil {
		return err
	}
	return nil
}

// Apply runs change on s, as an admin's command asks, for a store to save:
// the settings stay their guild's, must pass Validate, and are stamped
// updated at time at. A change that fails or leaves them out of bounds
// returns its error and leaves s as it was.
func (s *Settings) Apply(change func(*Settings) error, at time.Time) error {
	c := *s
	c.Channels = slices.Clone(s.Channels)
	if s.Simultaneous != nil {
		v := *s.Simultaneous
		c.Simultaneous = &v
	}
	if err := change(&c); err != nil {
		return err
	}
	c.GuildID = s.GuildID
	if err := c.Validate(); err != nil {
		return err
	}
	c.UpdatedAt = at
	*s = c
	return nil
}

func (d Defaults) validate() error {
	size := cmp.Or(d.Size, game.MinSize)
	switch {
	case d.Size != 0 && (d.Size < game.MinSize || d.Size > game.MaxSize):
		return &SettingsError{SettingSize, fmt.Sprintf("boards are %d×%d to %d×%d", game.MinSize, game.MinSize, game.MaxSize, game.MaxSize)}
	case d.K != 0 && (d.K < game.MinK || d.K > size):
		return &SettingsError{SettingWin, fmt.Sprintf("%d in a row does not fit on a %d×%d board", d.K, size, size)}
	case d.First != "" && !d.First.Valid():
		return &SettingsError{SettingFirst, "me, them or random"}
	}
	return nil
}

func (s *Settings) validateMarks() error {
	for _, m := range []Mark{s.X, s.O} {
		if m.IsZero() {
			continue
		}
		if _, err := ParseMark(m.String()); err != nil {
			return err
		}
	}
	// An unset mark shows its default, so one side set to the other's
	// default is the same mark on the board.
	if x, o := s.Marks(); x == o {
		return &SettingsError{Setting: SettingMarks, Reason: "X and O need different marks"}
	}
	return nil
}

// Shape is the board of a challenge that asks for size and k, 0 for an
// option left out: what it asks, else the guild's default, else 3×3 with
// the size's own win length. A default win length that does not fit the
// size asked for gives way to the size's own.
func (d Defaults) Shape(size, k int) Shape {
	if size == 0 {
		size = cmp.Or(d.Size, game.MinSize)
		if k == 0 {
			k = d.K
		}
	} else if k == 0 && d.K != 0 && d.K <= size {
		k = d.K
	}
	if k == 0 {
		k = game.DefaultK(size, size)
	}
	return Shape{Rows: size, Cols: size, K: k}
}

// MayStart refuses, for a member with roles who asks at time at to start a
// game in channelID, what the guild's rules forbid: a channel it does not
// list (*ChannelError), a missing role (ErrRoleNeeded), or a cooldown still
// running since the member's last game started at last, zero if none
// (*CooldownError).
func (s *Settings) MayStart(channelID string, roles []string, last, at time.Time) error {
	if len(s.Channels) > 0 && !slices.Contains(s.Channels, channelID) {
		return &ChannelError{Allowed: slices.Clone(s.Channels)}
	}
	if err := s.MayPlay(roles); err != nil {
		return err
	}
	if s.Cooldown > 0 && !last.IsZero() {
		if left := last.Add(s.Cooldown).Sub(at); left > 0 {
			return &CooldownError{Left: left}
		}
	}
	return nil
}

// MayOrganise reports whether a member may organise tournaments: one who
// can manage the guild (manager), or has its tournament role.
func (s *Settings) MayOrganise(manager bool, roles []string) bool {
	return manager || s.TournamentRole != "" && slices.Contains(roles, s.TournamentRole)
}

// MayPlay refuses a member without the guild's role (ErrRoleNeeded).
func (s *Settings) MayPlay(roles []string) error {
	if s.Role != "" && !slices.Contains(roles, s.Role) {
		return ErrRoleNeeded
	}
	return nil
}

// Retime sets the deadline of g, just changed at time at, from the game's
// own turn timeout, else the guild's timeouts when it sets them: a pending
// challenge's expiry, or the turn of the human to move. The bot's own turn keeps the deadline it has, which
// is not a player's time to think.
func (s *Settings) Retime(g *Game, at time.Time) {
	switch {
	case g.Status == StatusPending && s.ChallengeTimeout > 0:
		g.Deadline = at.Add(g.Wait(s.ChallengeTimeout))
	case g.Status == StatusActive && g.TurnTimeout > 0 && !g.BotToMove():
		g.Deadline = at.Add(g.Wait(g.TurnTimeout))
	case g.Status == StatusActive && s.TurnTimeout > 0 && !g.BotToMove():
		g.Deadline = at.Add(g.Wait(s.TurnTimeout))
	}
}

// Admission is what the store reads, in the transaction that creates a
// game, for a guild's rules to decide on it, and for a rematch the game it
// plays again.
type Admission struct {
	Settings Settings
	// LastStart is when the challenger last started a game in the guild;
	// zero if never, or when the guild has no cooldown.
	LastStart time.Time
	// Rematched is the game the new one's Rematch names, as stored; nil
	// when that is zero.
	Rematched *Game
}
