package tttbot

import (
	"errors"
	"testing"
)

func TestParseMark(t *testing.T) {
	tests := []struct {
		in   string
		want Mark
		ok   bool
	}{
		{"🐱", Mark{Name: "🐱"}, true},
		{" ❤️ ", Mark{Name: "❤️"}, true},
		{"👍🏽", Mark{Name: "👍🏽"}, true},
		{"👨‍👩‍👧‍👦", Mark{Name: "👨‍👩‍👧‍👦"}, true},
		{"🇫🇷", Mark{Name: "🇫🇷"}, true},
		{"🏴󠁧󠁢󠁳󠁣󠁴󠁿", Mark{Name: "🏴󠁧󠁢󠁳󠁣󠁴󠁿"}, true},
		{"1️⃣", Mark{Name: "1️⃣"}, true},
		{"‼️", Mark{Name: "‼️"}, true},
		{"↔️", Mark{Name: "↔️"}, true},
		{"<:party_cat:123456789012345678>", Mark{Name: "party_cat", ID: "123456789012345678"}, true},
		{"<a:dance:42>", Mark{Name: "dance", ID: "42", Animated: true}, true},
		{"", Mark{}, false},
		{"X", Mark{}, false},
		{"xo", Mark{}, false},
		{"🐱🐶", Mark{}, false},
		{"🐱‍", Mark{}, false},
		{"🇫", Mark{}, false},
		{"1", Mark{}, false},
		{"<:cat:>", Mark{}, false},
		{"<:c:42>", Mark{}, false},
		{"<b:cat:42>", Mark{}, false},
		{"<:cat:42", Mark{}, false},
		{"<:cat:0042>", Mark{}, false},
		{"<:ca t:42>", Mark{}, false},
		{"<:cät:42>", Mark{}, false},
		{"<:cat:42:1>", Mark{}, false},
		{"<@123>", Mark{}, false},
		{"\xff", Mark{}, false},
		{"🐱🐱🐱🐱🐱🐱🐱🐱🐱🐱🐱🐱🐱🐱🐱🐱🐱", Mark{}, false},
	}
	for _, tt := range tests {
		got, err := ParseMark(tt.in)
		switch {
		case tt.ok && err != nil:
			t.Errorf("ParseMark(%q): %v", tt.in, err)
		case !tt.ok && (err == nil || !errors.Is(err, ErrBadSettings)):
			t.Errorf("ParseMark(%q): got %+v, %v; want a *SettingsError", tt.in, got, err)
		case got != tt.want:
			t.Errorf("ParseMark(%q): got %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// FuzzParseMark: a mark parsed is written back as it was read, and reads
// back the same.
func FuzzParseMark(f *testing.F) {
	for _, s := range []string{"🐱", "<:cat:42>", "<a:cat:42>", "1️⃣", "🇫🇷", "👨‍👩‍👧", "X", "<:cat:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMark(s)
		if err != nil {
			return
		}
		again, err := ParseMark(m.String())
		if err != nil || again != m {
			t.Fatalf("ParseMark(%q) = %+v, which reads back as %+v, %v", s, m, again, err)
		}
		if m.IsZero() || len(m.String()) > 100 {
			t.Fatalf("ParseMark(%q) = %+v", s, m)
		}
	})
}
