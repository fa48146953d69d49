package interaction

import "testing"

// The edits of one game's board merge whether they reach it by its ID or
// through a token; a message of no game is named by its ID.
func TestEditKey(t *testing.T) {
	tests := []struct {
		name string
		a, b Edit
		same bool
	}{
		{"a board by ID and through a token", Edit{GameID: 7, MessageID: "m1"}, Edit{GameID: 7, Token: "tok"}, true},
		{"two games", Edit{GameID: 7, MessageID: "m1"}, Edit{GameID: 8, MessageID: "m2"}, false},
		{"one message of no game", Edit{MessageID: "m1"}, Edit{MessageID: "m1"}, true},
		{"two messages of no game", Edit{MessageID: "m1"}, Edit{MessageID: "m2"}, false},
	}
	for _, tt := range tests {
		if got := tt.a.Key() == tt.b.Key(); got != tt.same {
			t.Errorf("%s: got keys %q and %q, want the same: %v", tt.name, tt.a.Key(), tt.b.Key(), tt.same)
		}
	}
}
