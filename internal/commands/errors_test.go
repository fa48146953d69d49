package commands

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/play"
)

func TestErrorText(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{tttbot.ErrNotFound, "That game doesn't exist."},
		{tttbot.ErrBadShape, "Boards are 3×3 to 5×5, with 3 up to the longer side in a row."},
		{tttbot.ErrSelfChallenge, "You can't challenge yourself."},
		{tttbot.ErrPlayerBusy, "You already have a game in this channel."},
		{tttbot.ErrOpponentBusy, "Your opponent already has a game in this channel."},
		{tttbot.ErrChannelBusy, "There's already a game in this channel."},
		{tttbot.ErrNotForYou, "This challenge isn't for you."},
		{tttbot.ErrClosed, "This challenge is no longer open."},
		{tttbot.ErrExpired, "This challenge has expired."},
		{tttbot.ErrBadX, "X must be one of the two players."},
		{tttbot.ErrStale, "This board was out of date — the game had moved on. It shows the current game now."},
		{tttbot.ErrNotAPlayer, "You're not playing in this game."},
		{tttbot.ErrNotStarted, "This game hasn't started yet."},
		{tttbot.ErrNotYourTurn, "It's not your turn."},
		{tttbot.ErrGameOver, "This game is over."},
		{tttbot.ErrOffBoard, "That cell is not on the board."},
		{tttbot.ErrCellTaken, "That cell is already taken."},
		{tttbot.ErrNotDue, "This game's time has not run out yet."},
		{tttbot.ErrTimeUp, "Your time for this turn ran out before you clicked."},
		{tttbot.ErrTooOld, "This request is more than 15 minutes old. Please try again."},
		{fmt.Errorf("play: %w", tttbot.ErrCellTaken), "That cell is already taken."},
		{refuse(tttbot.EINVALID, "pick_user", nil), "Pick a user."},
		{fmt.Errorf("stats: %w", refuse(tttbot.EINVALID, "error_unknown_option", map[string]any{"Name": "colour"})),
			"I don't know the option colour. Try `/ttt help`."},
		// A refusal worded nowhere in the catalogs: no English of another
		// layer reaches the player.
		{tttbot.Errorf(tttbot.EINVALID, "a new game starts from the empty board"), "That can't be done right now."},
		// A failure on the bot's side: the player sees a generic text, no detail.
		{fmt.Errorf("begin transaction: %w", context.Canceled), "Something went wrong on our side. Please try again."},
	}
	en := mustCatalog().Source()
	for _, tt := range tests {
		if got := errorText(en, tt.err); got != tt.want {
			t.Errorf("%v: got %q, want %q", tt.err, got, tt.want)
		}
	}
}

// TestErrorTextOfCopies: a refusal is worded by its code and message, so
// a copy of it made elsewhere, wrapped or not, reads as the original.
func TestErrorTextOfCopies(t *testing.T) {
	copyOf := func(e *tttbot.Error) error { return tttbot.Errorf(e.Code, "%s", e.Message) }
	tests := []struct {
		err  error
		want string
	}{
		{copyOf(tttbot.ErrSettingsOutOfGuild), "Settings belong to a server; there are none in direct messages."},
		{fmt.Errorf("update settings: %w", copyOf(tttbot.ErrSettingsOutOfGuild)), "Settings belong to a server; there are none in direct messages."},
		{fmt.Errorf("accept: %w", &tttbot.Error{Code: tttbot.ESTALE, Message: tttbot.ErrStale.Message}),
			"This board was out of date — the game had moved on. It shows the current game now."},
		{copyOf(tttbot.ErrBadShape), "Boards are 3×3 to 5×5, with 3 up to the longer side in a row."},
		{fmt.Errorf("rematch: %w", copyOf(play.ErrNotOver)), "This game is not over yet."},
		// The same words under another code are another refusal.
		{tttbot.Errorf(tttbot.EINVALID, "%s", tttbot.ErrStale.Message), "That can't be done right now."},
	}
	en := mustCatalog().Source()
	for _, tt := range tests {
		if got := errorText(en, tt.err); got != tt.want {
			t.Errorf("%v: got %q, want %q", tt.err, got, tt.want)
		}
	}
}

// TestSettingText: every setting the domain can refuse has its own words.
func TestSettingText(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range []string{tttbot.SettingChannels, tttbot.SettingRole, tttbot.SettingCooldown, tttbot.SettingChallengeTimeout,
		tttbot.SettingTurnTimeout, tttbot.SettingLanguage, tttbot.SettingSize, tttbot.SettingFirst, tttbot.SettingMark, tttbot.SettingMarks} {
		got := errorText(mustCatalog().Source(), &tttbot.SettingsError{Setting: s, Reason: "the domain's words"})
		if got == settingText(mustCatalog().Source(), "") || strings.Contains(got, "domain") || seen[got] {
			t.Errorf("%s: got %q, want words of its own", s, got)
		}
		seen[got] = true
	}
}
