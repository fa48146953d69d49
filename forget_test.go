package tttbot

import (
	"slices"
	"testing"
	"time"
)

func TestForget(t *testing.T) {
	g := Game{ID: 42, Challenger: "a", Opponent: "b", XPlayer: "b", OPlayer: "a", Turn: "a", Winner: "a"}
	p := g.Forget("a")
	want := Game{ID: 42, Challenger: p, Opponent: "b", XPlayer: "b", OPlayer: p, Turn: p, Winner: p}
	if p != ForgottenID(42, true) || g != want || !Forgotten(p) {
		t.Errorf("got %q and %+v, want %+v", p, g, want)
	}
	q := g.Forget("b")
	if q == p || g.Opponent != q || g.XPlayer != q || !Forgotten(q) {
		t.Errorf("the other player forgotten too: %q, %+v", q, g)
	}
	for _, id := range []string{"42", "", "forgotten", "x:forgotten:1:c"} {
		if Forgotten(id) {
			t.Errorf("Forgotten(%q) = true", id)
		}
	}
}

func TestLeave(t *testing.T) {
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		g      Game
		user   string
		status Status
		winner string
	}{
		{"the challenger of a challenge", Game{Status: StatusPending, Challenger: "a", Opponent: "b", Version: 1}, "a", StatusCancelled, ""},
		{"the one challenged", Game{Status: StatusPending, Challenger: "a", Opponent: "b", Version: 1}, "b", StatusDeclined, ""},
		{"a player of a game", Game{Status: StatusActive, Challenger: "a", Opponent: "b", Turn: "b", Version: 3}, "b", StatusFinished, "a"},
	}
	for _, tt := range tests {
		g := tt.g
		if err := g.Leave(tt.user, at); err != nil || g.Status != tt.status || g.Winner != tt.winner {
			t.Errorf("%s: got %s won by %q, %v; want %s won by %q", tt.name, g.Status, g.Winner, err, tt.status, tt.winner)
		}
	}
}

func TestCheckForget(t *testing.T) {
	for user, want := range map[string]error{"alice": nil, "": ErrNoPlayer, ForgottenID(3, true): ErrNoPlayer} {
		if got := CheckForget(user); got != want {
			t.Errorf("CheckForget(%q) = %v, want %v", user, got, want)
		}
	}
}

func TestRatingScopes(t *testing.T) {
	games := []*Game{{GuildID: "7"}, {}, {GuildID: "8", Guest: true}, {GuildID: "7"}}
	if got, want := RatingScopes(games), []string{"", "7", "8"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := RatingScopes(nil); !slices.Equal(got, []string{""}) {
		t.Errorf("no games: got %q, want the global scope alone", got)
	}
}
