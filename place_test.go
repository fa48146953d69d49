package tttbot

import (
	"slices"
	"testing"
	"time"
)

// TestGameWait: deadlines in a Webhook game stay within its token's life.
func TestGameWait(t *testing.T) {
	tests := []struct {
		name    string
		webhook bool
		timeout time.Duration
		want    time.Duration
	}{
		{"channel game keeps a long timeout", false, time.Hour, time.Hour},
		{"webhook game caps a long timeout", true, time.Hour, MaxWebhookWait},
		{"webhook game keeps a short timeout", true, 5 * time.Minute, 5 * time.Minute},
		{"webhook game at the cap", true, MaxWebhookWait, MaxWebhookWait},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Game{Webhook: tt.webhook}
			if got := g.Wait(tt.timeout); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	if MaxWebhookWait >= TokenLife {
		t.Errorf("MaxWebhookWait %v leaves no time of the token's life %v to edit the board", MaxWebhookWait, TokenLife)
	}
}

func TestGameScopes(t *testing.T) {
	tests := []struct {
		name string
		g    Game
		want []string
	}{
		{"server with the bot", Game{GuildID: "g"}, []string{"", "g"}},
		{"server without the bot", Game{GuildID: "g", Guest: true}, []string{""}},
		{"DM", Game{}, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.g.Scopes(); !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTokenValid(t *testing.T) {
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		tok  Token
		want bool
	}{
		{"fresh", Token{Value: "t", Expires: at.Add(time.Second)}, true},
		{"expiring now", Token{Value: "t", Expires: at}, false},
		{"expired", Token{Value: "t", Expires: at.Add(-time.Minute)}, false},
		{"none", Token{Expires: at.Add(time.Minute)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.tok.Valid(at); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestRetimeWebhookGames: a guild's own timeouts stay within a Webhook
// game's token life too.
func TestRetimeWebhookGames(t *testing.T) {
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	st := Settings{ChallengeTimeout: time.Hour, TurnTimeout: time.Hour}
	tests := []struct {
		name string
		g    Game
		want time.Duration
	}{
		{"challenge in a channel", Game{Status: StatusPending}, time.Hour},
		{"challenge through a webhook", Game{Status: StatusPending, Webhook: true}, MaxWebhookWait},
		{"turn in a channel", Game{Status: StatusActive, Turn: "a"}, time.Hour},
		{"turn through a webhook", Game{Status: StatusActive, Turn: "a", Webhook: true}, MaxWebhookWait},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.g
			st.Retime(&g, at)
			if got := g.Deadline.Sub(at); got != tt.want {
				t.Errorf("got a deadline %v away, want %v", got, tt.want)
			}
		})
	}
}
