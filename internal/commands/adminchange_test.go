package commands

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

func TestParseTimeout(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"90s", 90 * time.Second, ""},
		{" 2M ", 2 * time.Minute, ""},
		{"1h30m", 90 * time.Minute, ""},
		{"45", 45 * time.Second, ""},
		{"default", 0, ""},
		{"24h", 24 * time.Hour, ""},
		{"15s", 15 * time.Second, ""},
		{"14s", 0, "15 seconds to 24 hours"},
		{"24h0m1s", 0, "15 seconds to 24 hours"},
		{"-1", 0, "15 seconds to 24 hours"},
		{"99999999999999999999", 0, "not a duration"},
		{"20.5s", 0, "whole seconds"},
		{"soon", 0, "not a duration"},
		{"", 0, "not a duration"},
	}
	for _, tt := range tests {
		got, err := parseTimeout(tt.in, tttbot.MinTurnTimeout, tttbot.MaxTurnTimeout)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("parseTimeout(%q): got %s, %v; want %s", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(errorText(mustCatalog().Source(), err), tt.err)):
			t.Errorf("parseTimeout(%q): got %s, %v; want an error saying %q", tt.in, got, err, tt.err)
		}
	}
}

// FuzzParseTimeout: a timeout read is whole seconds within its bounds, or
// a refusal a player can read.
func FuzzParseTimeout(f *testing.F) {
	for _, s := range []string{"90s", "1h30m", "45", "default", "-1", "1e9", "9223372036854775807"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseTimeout(s, tttbot.MinChallengeTimeout, tttbot.MaxChallengeTimeout)
		switch {
		case err != nil:
			if tttbot.ErrorCode(err) != tttbot.EINVALID {
				t.Fatalf("parseTimeout(%q): %v is no refusal", s, err)
			}
		case d != 0 && (d < tttbot.MinChallengeTimeout || d > tttbot.MaxChallengeTimeout || d%time.Second != 0):
			t.Fatalf("parseTimeout(%q) = %s, out of bounds", s, d)
		}
	})
}

// TestUsableMark: a custom emoji must be one of this server's that the bot
// may use; the refusal says why.
func TestUsableMark(t *testing.T) {
	h, _ := newTestHandler(t)
	h.msg.(*edits).emojis = []*discordgo.Emoji{
		{ID: "501", Name: "party", Animated: true, Available: true},
		{ID: "502", Name: "gone", Available: false},
		{ID: "503", Name: "vip", Available: true, Roles: []string{"9"}},
	}
	tests := []struct {
		text string
		want tttbot.Mark
		err  string
	}{
		{"🐱", tttbot.Mark{Name: "🐱"}, ""},
		{"<:Party:501>", tttbot.Mark{Name: "party", ID: "501", Animated: true}, ""},
		{"<:other:504>", tttbot.Mark{}, "isn't one of this server's emojis"},
		{"<:gone:502>", tttbot.Mark{}, "isn't available"},
		{"<:vip:503>", tttbot.Mark{}, "reserved for some roles"},
		{"X", tttbot.Mark{}, "can't be X's mark. A mark is one emoji"},
	}
	for _, tt := range tests {
		got, err := h.usableMark(t.Context(), "2000", "X", tt.text)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%q: got %+v, %v; want %+v", tt.text, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(errorText(mustCatalog().Source(), err), tt.err)):
			t.Errorf("%q: got %+v, %v; want a refusal saying %q", tt.text, got, err, tt.err)
		}
	}
}

// TestChangeMarksSame: a mark equal to the other side's, set or default,
// is refused in the admin's words and changes nothing.
func TestChangeMarksSame(t *testing.T) {
	h, _ := newTestHandler(t)
	tests := []struct{ name, opts string }{
		{"x as o's default", `[{"name":"x","type":3,"value":"⭕"}]`},
		{"o as x's default", `[{"name":"o","type":3,"value":"❌"}]`},
		{"both the same", `[{"name":"x","type":3,"value":"🐱"},{"name":"o","type":3,"value":"🐱"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := slash(t, "10", "2000", "30", `{"name":"ttt-admin","options":[{"type":1,"name":"marks","options":`+tt.opts+`}]}`)
			i.Member.Permissions = discordgo.PermissionManageGuild
			wantRefused(t, h.Handle(t.Context(), i), tttbot.EINVALID, "X and O need different marks")
			st, err := h.store.Settings(t.Context(), "2000")
			if err != nil {
				t.Fatal(err)
			}
			if !st.X.IsZero() || !st.O.IsZero() {
				t.Errorf("got marks %v and %v, want both unset", st.X, st.O)
			}
		})
	}
}
