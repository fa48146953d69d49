package discord

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Logger returns a function for discordgo.Logger that writes discordgo's
// own log lines through log, at the matching level, with token removed.
// Without it discordgo prints plain text to the standard logger, whatever
// the bot's log format.
func Logger(log *slog.Logger, token string) func(msgL, caller int, format string, a ...any) {
	return func(msgL, _ int, format string, a ...any) {
		level := slog.LevelDebug
		switch msgL {
		case discordgo.LogError:
			level = slog.LevelError
		case discordgo.LogWarning:
			level = slog.LevelWarn
		}
		ctx := context.Background()
		if !log.Enabled(ctx, level) {
			return
		}
		msg := fmt.Sprintf(format, a...)
		if token != "" {
			msg = strings.ReplaceAll(msg, token, "[token]")
		}
		log.Log(ctx, level, msg, "logger", "discordgo")
	}
}
