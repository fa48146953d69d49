package commands

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/play"
)

// internalText is what a player reads of a failure on the bot's side: no
// detail (or secret) of it reaches Discord.
const internalText = "Something went wrong on our side. Please try again."

// errorText is what a player reads of err: the domain's refusals worded
// here, the *tttbot.Error this package makes as it is written, and
// internalText for anything else.
func errorText(err error) string {
	var channel *tttbot.ChannelError
	var cooldown *tttbot.CooldownError
	var setting *tttbot.SettingsError
	switch {
	case errors.As(err, &channel):
		ms := make([]string, len(channel.Allowed))
		for i, c := range channel.Allowed {
			ms[i] = channelMention(c)
		}
		return "Games can't be started in this channel on this server. Try " + strings.Join(ms, ", ") + "."
	case errors.As(err, &cooldown):
		left := cooldown.Left.Truncate(time.Second)
		if left < cooldown.Left {
			left += time.Second
		}
		return fmt.Sprintf("This server has a cooldown between games: you can start another in %s.", clockDuration(left))
	case errors.As(err, &setting):
		return settingText(setting.Setting)
	}
	var e *tttbot.Error
	if !errors.As(err, &e) {
		return internalText
	}
	switch e {
	case tttbot.ErrRoleNeeded:
		return "On this server only members with a certain role can start or accept a game: ask its admins."
	case tttbot.ErrSettingsOutOfGuild:
		return "Settings belong to a server; there are none in direct messages."
	case play.ErrForgotten:
		return "Your opponent asked me to forget them, so there's no rematch. Start a new game with `/ttt challenge`."
	case tttbot.ErrNotFound:
		return "That game doesn't exist."
	case tttbot.ErrBadShape:
		return fmt.Sprintf("Boards are %d×%d to %d×%d, with %d up to the longer side in a row.",
			game.MinSize, game.MinSize, game.MaxSize, game.MaxSize, game.MinK)
	case tttbot.ErrSelfChallenge:
		return "You can't challenge yourself."
	case tttbot.ErrPlayerBusy:
		return "You already have a game in this channel."
	case tttbot.ErrOpponentBusy:
		return "Your opponent already has a game in this channel."
	case tttbot.ErrChannelBusy:
		return "There's already a game in this channel."
	case tttbot.ErrNotForYou:
		return "This challenge isn't for you."
	case tttbot.ErrClosed:
		return "This challenge is no longer open."
	case tttbot.ErrExpired:
		return "This challenge has expired."
	case tttbot.ErrBadX:
		return "X must be one of the two players."
	case tttbot.ErrStale:
		return "This board was out of date — the game had moved on. It shows the current game now."
	case tttbot.ErrNotAPlayer:
		return "You're not playing in this game."
	case tttbot.ErrNotStarted:
		return "This game hasn't started yet."
	case tttbot.ErrNotYourTurn:
		return "It's not your turn."
	case tttbot.ErrGameOver:
		return "This game is over."
	case tttbot.ErrOffBoard:
		return "That cell is not on the board."
	case tttbot.ErrCellTaken:
		return "That cell is already taken."
	case tttbot.ErrReplay:
		return "I've handled this interaction already."
	case tttbot.ErrNotDue:
		return "This game's time has not run out yet."
	case play.ErrNotYourGame:
		return "This isn't your game — start your own with `/ttt challenge`."
	case play.ErrNotInGame:
		return "Only the players of this game can ask for a rematch."
	case play.ErrNotOver:
		return "This game is not over yet."
	case play.ErrNoOpenGame:
		return "You have no game or challenge in this channel."
	case play.ErrBadFirst:
		return "First must be me, them or random."
	}
	return e.Message
}

// settingText says what a setting out of bounds must be.
func settingText(setting string) string {
	switch setting {
	case tttbot.SettingChannels:
		return fmt.Sprintf("The list holds at most %d channels, each once.", tttbot.MaxChannels)
	case tttbot.SettingRole:
		return "Pick the role from the list."
	case tttbot.SettingCooldown:
		return fmt.Sprintf("The cooldown is 0 to %d seconds.", int(tttbot.MaxCooldown/time.Second))
	case tttbot.SettingChallengeTimeout:
		return fmt.Sprintf("A challenge waits %s to %s.", clockDuration(tttbot.MinChallengeTimeout), clockDuration(tttbot.MaxChallengeTimeout))
	case tttbot.SettingTurnTimeout:
		return fmt.Sprintf("A turn lasts %s to %s.", clockDuration(tttbot.MinTurnTimeout), clockDuration(tttbot.MaxTurnTimeout))
	case tttbot.SettingLanguage:
		return "Pick a language from the list."
	case tttbot.SettingSize, tttbot.SettingWin:
		return fmt.Sprintf("The default board is %d×%d to %d×%d, and its win length fits it: set the size, or the size and win together.",
			game.MinSize, game.MinSize, game.MaxSize, game.MaxSize)
	case tttbot.SettingFirst:
		return "First must be me, them or random."
	case tttbot.SettingMark:
		return markText
	case tttbot.SettingMarks:
		return "X and O need different marks."
	}
	return "That setting is out of bounds."
}

// markText says what a mark must be.
const markText = "A mark is one emoji, such as 🐱, or one of this server's custom emojis, which Discord writes <:name:id>."
