package nearest_test

import (
	"testing"

	"github.com/tttbot/tttbot/internal/nearest"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"run", "run", 0},
		{"", "run", 3},
		{"run", "", 3},
		{"rnu", "run", 2},
		{"migrat", "migrate", 1},
		{"regster", "register", 1},
		{"kitten", "sitting", 3},
	}
	for _, tt := range tests {
		if got := nearest.Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q): got %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestWord(t *testing.T) {
	words := []string{"run", "register", "migrate", "migrate-data", "arena", "analyze"}
	tests := []struct {
		word  string
		limit int
		want  string
	}{
		{"rnu", 3, "run"},
		{"migrat", 3, "migrate"},
		{"migrate-dat", 3, "migrate-data"},
		{"rnu", 2, ""},   // at the limit: not near enough
		{"xyzzy", 3, ""}, // near nothing
		{"arenz", 3, "arena"},
	}
	for _, tt := range tests {
		if got := nearest.Word(tt.word, words, tt.limit); got != tt.want {
			t.Errorf("Word(%q, %d): got %q, want %q", tt.word, tt.limit, got, tt.want)
		}
	}
	// Among candidates equally near, the first in sort order wins, whatever
	// their order in the list.
	if got := nearest.Word("ab", []string{"ac", "aa"}, 3); got != "aa" {
		t.Errorf(`Word("ab") among ac and aa: got %q, want "aa"`, got)
	}
}
