package tttbot

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSettingsValidate(t *testing.T) {
	tests := []struct {
		name    string
		change  func(*Settings)
		setting string // the *SettingsError's, "" for none
	}{
		{"zero", func(*Settings) {}, ""},
		{"every setting at a bound", func(s *Settings) {
			s.Channels = make([]string, MaxChannels)
			for i := range s.Channels {
				s.Channels[i] = string(rune('1'+i%9)) + string(rune('0'+i/9))
			}
			s.Role, s.Cooldown = "5", MaxCooldown
			s.ChallengeTimeout, s.TurnTimeout = MinChallengeTimeout, MaxTurnTimeout
			s.Defaults = Defaults{Size: 5, K: 5, Level: "easy", First: FirstThem}
			s.X, s.O, s.Locale = Mark{Name: "🐱"}, Mark{Name: "dog", ID: "77"}, "zh-TW"
		}, ""},
		{"too many channels", func(s *Settings) { s.Channels = make([]string, MaxChannels+1) }, "channels"},
		{"a channel twice", func(s *Settings) { s.Channels = []string{"12", "12"} }, "channels"},
		{"a channel that is no ID", func(s *Settings) { s.Channels = []string{"#general"} }, "channels"},
		{"a role that is no ID", func(s *Settings) { s.Role = "@everyone" }, "role"},
		{"a cooldown past an hour", func(s *Settings) { s.Cooldown = MaxCooldown + time.Second }, "cooldown"},
		{"a negative cooldown", func(s *Settings) { s.Cooldown = -time.Second }, "cooldown"},
		{"a cooldown in fractions", func(s *Settings) { s.Cooldown = 1500 * time.Millisecond }, "cooldown"},
		{"a challenge timeout too short", func(s *Settings) { s.ChallengeTimeout = MinChallengeTimeout - time.Second }, "challenge timeout"},
		{"a challenge timeout too long", func(s *Settings) { s.ChallengeTimeout = MaxChallengeTimeout + time.Second }, "challenge timeout"},
		{"a turn timeout too short", func(s *Settings) { s.TurnTimeout = MinTurnTimeout - time.Second }, "turn timeout"},
		{"a turn timeout too long", func(s *Settings) { s.TurnTimeout = MaxTurnTimeout + time.Second }, "turn timeout"},
		{"a size off the scale", func(s *Settings) { s.Defaults.Size = 6 }, "size"},
		{"a win longer than the default size", func(s *Settings) { s.Defaults.K = 4 }, "win"},
		{"a win longer than the size", func(s *Settings) { s.Defaults = Defaults{Size: 4, K: 5} }, "win"},
		{"first neither me, them nor random", func(s *Settings) { s.Defaults.First = "both" }, "first"},
		{"the same mark twice", func(s *Settings) { s.X, s.O = Mark{Name: "🐱"}, Mark{Name: "🐱"} }, "marks"},
		{"X set to O's default", func(s *Settings) { s.X = Mark{Name: "⭕"} }, SettingMarks},
		{"O set to X's default", func(s *Settings) { s.O = Mark{Name: "❌"} }, SettingMarks},
		{"a mark that is no emoji", func(s *Settings) { s.X = Mark{Name: "X"} }, SettingMark},
		{"a language the bot does not speak", func(s *Settings) { s.Locale = "xx" }, "language"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Settings{GuildID: "100"}
			tt.change(&s)
			err := s.Validate()
			var se *SettingsError
			switch {
			case tt.setting == "" && err != nil:
				t.Fatalf("got %v, want none", err)
			case tt.setting == "":
			case !errors.As(err, &se) || !errors.Is(err, ErrBadSettings) || ErrorCode(err) != EINVALID:
				t.Fatalf("got %v, want a *SettingsError", err)
			case se.Setting != tt.setting:
				t.Errorf("got setting %q (%v), want %q", se.Setting, err, tt.setting)
			}
		})
	}
	if err := (&Settings{}).Validate(); !errors.Is(err, ErrSettingsOutOfGuild) {
		t.Errorf("settings of no guild: got %v, want %v", err, ErrSettingsOutOfGuild)
	}
}

func TestMayStart(t *testing.T) {
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	s := Settings{GuildID: "1", Channels: []string{"10", "11"}, Role: "20", Cooldown: time.Minute}
	tests := []struct {
		name    string
		channel string
		roles   []string
		last    time.Time
		want    error
	}{
		{"allowed", "11", []string{"20"}, time.Time{}, nil},
		{"another channel", "12", []string{"20"}, time.Time{}, ErrChannelNotAllowed},
		{"no role", "10", nil, time.Time{}, ErrRoleNeeded},
		{"other roles", "10", []string{"21", "22"}, time.Time{}, ErrRoleNeeded},
		{"within the cooldown", "10", []string{"20"}, at.Add(-59 * time.Second), ErrCooldown},
		{"the cooldown just over", "10", []string{"20"}, at.Add(-time.Minute), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.MayStart(tt.channel, tt.roles, tt.last, at)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if err != nil && ErrorCode(err) != EFORBIDDEN {
				t.Errorf("got code %q, want %q", ErrorCode(err), EFORBIDDEN)
			}
		})
	}
	var ce *CooldownError
	if err := s.MayStart("10", []string{"20"}, at.Add(-15*time.Second), at); !errors.As(err, &ce) || ce.Left != 45*time.Second {
		t.Errorf("got %v, want 45s left", err)
	}
	var che *ChannelError
	if err := s.MayStart("12", []string{"20"}, time.Time{}, at); !errors.As(err, &che) || len(che.Allowed) != 2 {
		t.Errorf("got %v, want the two channels allowed", err)
	}
	if err := (&Settings{}).MayStart("12", nil, at, at); err != nil {
		t.Errorf("a guild without rules: got %v", err)
	}
}

func TestDefaultsShape(t *testing.T) {
	tests := []struct {
		d       Defaults
		size, k int
		want    Shape
	}{
		{Defaults{}, 0, 0, Shape{3, 3, 3}},
		{Defaults{}, 5, 0, Shape{5, 5, 4}},
		{Defaults{Size: 5}, 0, 0, Shape{5, 5, 4}},
		{Defaults{Size: 5, K: 5}, 0, 0, Shape{5, 5, 5}},
		{Defaults{Size: 5, K: 5}, 4, 0, Shape{4, 4, 4}},
		{Defaults{Size: 5, K: 3}, 4, 0, Shape{4, 4, 3}},
		{Defaults{Size: 5, K: 5}, 0, 3, Shape{5, 5, 3}},
		{Defaults{Size: 4, K: 3}, 5, 5, Shape{5, 5, 5}},
	}
	for _, tt := range tests {
		if got := tt.d.Shape(tt.size, tt.k); got != tt.want {
			t.Errorf("%+v.Shape(%d, %d): got %v, want %v", tt.d, tt.size, tt.k, got, tt.want)
		}
	}
}

func TestRetime(t *testing.T) {
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	old := at.Add(time.Minute)
	tests := []struct {
		name string
		s    Settings
		g    Game
		want time.Time
	}{
		{"a challenge", Settings{ChallengeTimeout: time.Hour}, Game{Status: StatusPending, Deadline: old}, at.Add(time.Hour)},
		{"a challenge, no timeout set", Settings{TurnTimeout: time.Hour}, Game{Status: StatusPending, Deadline: old}, old},
		{"a turn", Settings{TurnTimeout: time.Hour}, Game{Status: StatusActive, Challenger: "a", Opponent: "b", Turn: "b", Deadline: old}, at.Add(time.Hour)},
		{"the bot's turn", Settings{TurnTimeout: time.Hour}, Game{Status: StatusActive, Challenger: "a", Opponent: "bot", BotLevel: "easy", Turn: "bot", Deadline: old}, old},
		{"the human's turn against the bot", Settings{TurnTimeout: time.Hour}, Game{Status: StatusActive, Challenger: "a", Opponent: "bot", BotLevel: "easy", Turn: "a", Deadline: old}, at.Add(time.Hour)},
		{"a finished game", Settings{TurnTimeout: time.Hour}, Game{Status: StatusFinished}, time.Time{}},
		// A tournament's game keeps its own move timeout over the guild's.
		{"a turn with the game's own timeout", Settings{TurnTimeout: time.Hour}, Game{Status: StatusActive, Challenger: "a", Opponent: "b", Turn: "b", TurnTimeout: time.Minute, Deadline: old}, at.Add(time.Minute)},
		{"the game's own timeout, the guild's unset", Settings{}, Game{Status: StatusActive, Challenger: "a", Opponent: "b", Turn: "b", TurnTimeout: time.Minute, Deadline: old}, at.Add(time.Minute)},
	}
	for _, tt := range tests {
		g := tt.g
		tt.s.Retime(&g, at)
		if !g.Deadline.Equal(tt.want) {
			t.Errorf("%s: got %s, want %s", tt.name, g.Deadline, tt.want)
		}
	}
}

// TestApply: a change keeps the settings their guild's and stamps them;
// one that fails, or leaves them out of bounds, changes nothing.
func TestApply(t *testing.T) {
	at := time.Date(2026, 11, 24, 1, 0, 0, 0, time.UTC)
	refusal := &Error{Code: EINVALID, Message: "no"}
	yes := true
	tests := []struct {
		name    string
		change  func(*Settings) error
		want    Settings
		wantErr error
	}{
		{"a cooldown", func(s *Settings) error { s.Cooldown = time.Minute; return nil },
			Settings{GuildID: "100", Channels: []string{"7"}, Simultaneous: &yes, Cooldown: time.Minute, UpdatedAt: at}, nil},
		{"another guild's ID", func(s *Settings) error { s.GuildID = "200"; s.Role = "9"; return nil },
			Settings{GuildID: "100", Channels: []string{"7"}, Simultaneous: &yes, Role: "9", UpdatedAt: at}, nil},
		{"refused by the change", func(s *Settings) error { s.Channels[0] = "8"; *s.Simultaneous = false; return refusal },
			Settings{GuildID: "100", Channels: []string{"7"}, Simultaneous: &yes}, refusal},
		{"out of bounds", func(s *Settings) error { s.Channels[0] = "8"; s.O = Mark{Name: "❌"}; return nil },
			Settings{GuildID: "100", Channels: []string{"7"}, Simultaneous: &yes}, ErrBadSettings},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			on := true
			s := Settings{GuildID: "100", Channels: []string{"7"}, Simultaneous: &on}
			err := s.Apply(tt.change, at)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("got error %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, s); diff != "" {
				t.Errorf("settings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseID(t *testing.T) {
	tests := []struct {
		id   string
		want uint64 // 0: refused
	}{
		{"1", 1},
		{"80351110224678912", 80351110224678912},
		{"18446744073709551615", 18446744073709551615},
		{"18446744073709551616", 0},
		{"", 0},
		{"0", 0},
		{"012", 0},
		{"+12", 0},
		{"-12", 0},
		{"1e3", 0},
		{"123456789012345678901", 0},
	}
	for _, tt := range tests {
		got, err := ParseID(tt.id)
		if got != tt.want || (err == nil) != (tt.want != 0) || err != nil && err != ErrBadID {
			t.Errorf("ParseID(%q) = %d, %v; want %d", tt.id, got, err, tt.want)
		}
		if Snowflake(tt.id) != (tt.want != 0) {
			t.Errorf("Snowflake(%q) = %v, want %v", tt.id, !(tt.want != 0), tt.want != 0)
		}
	}
}

func TestIDTime(t *testing.T) {
	tests := []struct {
		id   string
		want time.Time // zero: refused
	}{
		{"175928847299117063", time.UnixMilli(1462015105796)}, // Discord's documented example
		{"4194304", time.UnixMilli(1420070400001)},
		{"1", time.UnixMilli(1420070400000)},
		{"18446744073709551615", time.UnixMilli(1<<42 - 1 + 1420070400000)},
		{"", time.Time{}},
		{"x", time.Time{}},
	}
	for _, tt := range tests {
		got, err := IDTime(tt.id)
		if !got.Equal(tt.want) || (err == nil) != !tt.want.IsZero() || err != nil && err != ErrBadID {
			t.Errorf("IDTime(%q) = %v, %v; want %v", tt.id, got, err, tt.want)
		}
	}
}

func TestCheckGuild(t *testing.T) {
	for id, want := range map[string]error{"80351110224678912": nil, "": ErrSettingsOutOfGuild, "guild": ErrSettingsOutOfGuild} {
		if got := CheckGuild(id); got != want {
			t.Errorf("CheckGuild(%q) = %v, want %v", id, got, want)
		}
	}
}
