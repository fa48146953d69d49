package tttbot

import "testing"

func TestValidWebID(t *testing.T) {
	for _, tt := range []struct {
		id   string
		want bool
	}{
		{NewWebID(), true},
		{"0123456789abcdef", true},
		{"0123456789ABCDEF", false},
		{"0123456789abcde", false},
		{"0123456789abcdefa", false},
		{"0123456789abcdeg", false},
		{"", false},
	} {
		if got := ValidWebID(tt.id); got != tt.want {
			t.Errorf("ValidWebID(%q): got %v, want %v", tt.id, got, tt.want)
		}
	}
	if a, b := NewWebID(), NewWebID(); a == b {
		t.Errorf("two new IDs are the same: %s", a)
	}
}

func TestOnWeb(t *testing.T) {
	finished := Game{GuildID: "1", Challenger: "a", Opponent: "b", Status: StatusFinished}
	on := &Settings{GuildID: "1", Web: "0123456789abcdef"}
	public := map[string]Profile{"b": {ID: "b", Public: true}}
	tests := []struct {
		name     string
		status   Status
		guildID  string
		guild    *Settings
		profiles map[string]Profile
		want     bool
	}{
		{"a guild with its page on", StatusFinished, "1", on, nil, true},
		{"a guild with its page off", StatusFinished, "1", &Settings{GuildID: "1"}, nil, false},
		{"another guild's page", StatusFinished, "2", on, nil, false},
		{"a DM", StatusFinished, "", nil, nil, false},
		{"a public player", StatusFinished, "", nil, public, true},
		{"a private player", StatusFinished, "", nil, map[string]Profile{"a": {ID: "a"}}, false},
		{"open", StatusActive, "1", on, public, false},
		{"a challenge declined", StatusDeclined, "1", on, public, false},
	}
	for _, tt := range tests {
		g := finished
		g.Status, g.GuildID = tt.status, tt.guildID
		if got := g.OnWeb(tt.guild, tt.profiles); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
