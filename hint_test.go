package tttbot

import (
	"errors"
	"testing"
)

func TestAssist(t *testing.T) {
	vsBot := Game{Challenger: "ann", Opponent: "bot", BotLevel: "perfect", XPlayer: "ann", OPlayer: "bot",
		Status: StatusActive, Turn: "ann", Version: 3}
	people := vsBot
	people.Opponent, people.OPlayer, people.BotLevel = "bob", "bob", ""
	botsTurn := vsBot
	botsTurn.Turn = "bot"
	over := vsBot
	over.Status, over.Turn = StatusFinished, ""
	again := vsBot
	again.Assisted = true
	tests := []struct {
		name    string
		g       Game
		user    string
		version int
		want    error
	}{
		{"the human on their turn", vsBot, "ann", 3, nil},
		{"asked again", again, "ann", 3, nil},
		{"a board moved on", vsBot, "ann", 2, ErrStale},
		{"not a player", vsBot, "cat", 3, ErrNotAPlayer},
		{"a game between people", people, "ann", 3, ErrHintVsPeople},
		{"the bot's turn", botsTurn, "ann", 3, ErrNotYourTurn},
		{"the game is over", over, "ann", 3, ErrGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.g
			err := g.Assist(tt.user, tt.version)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got error %v, want %v", err, tt.want)
			}
			if got, want := g.Assisted, tt.want == nil || tt.g.Assisted; got != want {
				t.Errorf("got Assisted %v, want %v", got, want)
			}
			if g.Version != tt.g.Version || g.Board != tt.g.Board || g.Status != tt.g.Status {
				t.Errorf("the game changed: got %+v, want only Assisted set on %+v", g, tt.g)
			}
		})
	}
}

func TestInBotRecord(t *testing.T) {
	tests := []struct {
		name string
		g    Game
		want bool
	}{
		{"against the bot", Game{BotLevel: "perfect"}, true},
		{"against the bot with a hint", Game{BotLevel: "perfect", Assisted: true}, false},
		{"between people", Game{}, false},
	}
	for _, tt := range tests {
		if got := tt.g.InBotRecord(); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
