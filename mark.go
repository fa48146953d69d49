package tttbot

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mark is what a board shows for one side: a Unicode emoji, or a guild's
// custom emoji as Discord writes it in messages (<:name:id>, <a:name:id>
// when animated).
type Mark struct {
	Name     string // the emoji itself, or the custom emoji's name
	ID       string // the custom emoji's ID; "" for a Unicode emoji
	Animated bool
}

// IsZero reports whether m is unset: the board's own ❌ or ⭕.
func (m Mark) IsZero() bool { return m == Mark{} }

// Custom reports whether m is a guild's custom emoji.
func (m Mark) Custom() bool { return m.ID != "" }

// String is m as a message writes it.
func (m Mark) String() string {
	switch {
	case m.ID == "":
		return m.Name
	case m.Animated:
		return "<a:" + m.Name + ":" + m.ID + ">"
	}
	return "<:" + m.Name + ":" + m.ID + ">"
}

// Marks returns the marks of s's boards: those the guild chose, else ❌
// for X and ⭕ for O.
func (s *Settings) Marks() (x, o Mark) {
	x, o = s.X, s.O
	if x.IsZero() {
		x = Mark{Name: "❌"}
	}
	if o.IsZero() {
		o = Mark{Name: "⭕"}
	}
	return x, o
}

// maxEmojiRunes bounds a Unicode emoji: the longest sequences Discord
// knows (families, tag flags) have 7 to 10 code points.
const maxEmojiRunes = 16

// ParseMark reads a mark: one Unicode emoji, or a custom emoji as Discord
// writes it. Surrounding spaces are ignored. It returns a *SettingsError
// saying what is wrong; whether a custom emoji is one the bot may use is
// for the caller, which can ask Discord.
func ParseMark(s string) (Mark, error) {
	s = strings.TrimSpace(s)
	bad := func(format string, args ...any) (Mark, error) {
		return Mark{}, &SettingsError{Setting: SettingMark, Reason: fmt.Sprintf(format, args...)}
	}
	if strings.HasPrefix(s, "<") {
		inner, ok := strings.CutSuffix(s[1:], ">")
		f := strings.Split(inner, ":")
		if !ok || len(f) != 3 || (f[0] != "" && f[0] != "a") {
			return bad("a custom emoji is written <:name:id>")
		}
		if n := len(f[1]); n < 2 || n > 32 || strings.IndexFunc(f[1], func(r rune) bool {
			return !(r == '_' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)))
		}) >= 0 {
			return bad("a custom emoji's name is 2 to 32 letters, digits or underscores")
		}
		if !Snowflake(f[2]) {
			return bad("a custom emoji's ID is a number")
		}
		return Mark{Name: f[1], ID: f[2], Animated: f[0] == "a"}, nil
	}
	if err := checkEmoji(s); err != nil {
		return bad("%s", err)
	}
	return Mark{Name: s}, nil
}

// Code points that join, vary or modify an emoji.
const (
	zwj          = '\u200d'
	textStyle    = '\ufe0e'
	emojiStyle   = '\ufe0f'
	keycap       = '\u20e3'
	regionalA    = '\U0001F1E6'
	regionalZ    = '\U0001F1FF'
	skinToneLow  = '\U0001F3FB'
	skinToneHigh = '\U0001F3FF'
	tagLow       = '\U000E0020'
	tagHigh      = '\U000E007F'
)

// nonSymbolEmoji are emojis whose code points are not in Unicode's
// "other symbol" category: arrows (math symbols), and punctuation or
// letters with an emoji presentation.
const nonSymbolEmoji = "↔↕↖↗↘↙⤴⤵‼⁉ℹ〰〽"

// checkEmoji accepts exactly one emoji: a pictograph with its variation
// selector, skin tone or tags, several joined by zero-width joiners (a
// family), a flag (two regional indicators), or a keycap (1️⃣). It knows
// the shapes of emoji sequences, not Unicode's list of them: what it lets
// through that Discord does not know, Discord refuses when the board is
// sent, and the admin sees that the mark does not show.
func checkEmoji(s string) error {
	rs := []rune(s)
	switch {
	case len(rs) == 0:
		return fmt.Errorf("a mark is an emoji")
	case len(rs) > maxEmojiRunes || !utf8.ValidString(s):
		return fmt.Errorf("a mark is one emoji")
	}
	if strings.ContainsRune("0123456789#*", rs[0]) {
		if len(rs) == 3 && rs[1] == emojiStyle && rs[2] == keycap || len(rs) == 2 && rs[1] == keycap {
			return nil
		}
		return fmt.Errorf("%q is not an emoji", s)
	}
	for i := 0; ; {
		r := rs[i]
		switch {
		case r >= regionalA && r <= regionalZ:
			if i+1 >= len(rs) || rs[i+1] < regionalA || rs[i+1] > regionalZ {
				return fmt.Errorf("a flag is two regional indicators")
			}
			i += 2
		case unicode.Is(unicode.So, r) || strings.ContainsRune(nonSymbolEmoji, r):
			i++
		default:
			return fmt.Errorf("%q is not an emoji", string(r))
		}
		for i < len(rs) && (rs[i] == emojiStyle || rs[i] == textStyle ||
			rs[i] >= skinToneLow && rs[i] <= skinToneHigh || rs[i] >= tagLow && rs[i] <= tagHigh) {
			i++
		}
		switch {
		case i == len(rs):
			return nil
		case rs[i] != zwj:
			return fmt.Errorf("a mark is one emoji, not %q", s)
		}
		i++
		if i == len(rs) {
			return fmt.Errorf("%q ends with a joiner", s)
		}
	}
}
