package main

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/discord"
)

// registerCmd overwrites the slash commands (globally, or in the configured
// guilds) and exits. `bot run` does the same at start-up.
func registerCmd(ctx context.Context, e env, args []string) (err error) {
	cfg, err := botConfig("register", "Overwrites the slash commands, globally or in discord.guild_ids, and exits.", e, args)
	if err != nil {
		return err
	}
	log := cfg.NewLogger(e.stderr)
	defer stopAsked(ctx, &err, log)
	discordgo.Logger = discord.Logger(log, string(cfg.Discord.Token))
	appID, err := applicationID(ctx, cfg, log)
	if err != nil {
		return err
	}
	s, err := discord.NewSession(string(cfg.Discord.Token), cfg.Discord.APIURL)
	if err != nil {
		return err
	}
	defs, err := commands.Definitions()
	if err != nil {
		return err
	}
	return discord.Backoff{}.Retry(ctx, log, "register commands", func(ctx context.Context) error {
		return discord.Register(ctx, s, appID, cfg.Discord.GuildIDs, defs, log)
	})
}
