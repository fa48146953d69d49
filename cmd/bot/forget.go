package main

import (
	"context"
	"fmt"
	"os"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/play"
)

// forgetCmd erases a player, as /ttt forget-me does, for an operator who
// got the request another way, in the configured database (SQLite or
// PostgreSQL) beside the running bots; the boards of the games it ends
// show it at their next click.
func forgetCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot forget", "[-config FILE] USER_ID",
		"Erases a player: ends their open games, deletes their name, ratings and records, and\nreplaces their user ID in stored games by an anonymous placeholder.")
	path := configFlag(fs)
	args, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if len(args) != 1 || args[0] == "" {
		fs.Usage()
		return exitError{}
	}
	user := args[0]
	if !tttbot.Snowflake(user) {
		return fmt.Errorf("forget: %q is not a Discord user ID (a number, such as 80351110224678912)", user)
	}
	cfg, err := loadConfig(*path, e)
	if err != nil {
		return err
	}
	if !cfg.Database.Postgres() {
		// A database to erase from, not a new one.
		if _, err := os.Stat(cfg.Database.Path); err != nil {
			return fmt.Errorf("open database: %w", err)
		}
	}
	log := cfg.NewLogger(e.stderr)
	db, err := openStore(ctx, cfg, log, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	// The erasure is play's to make, as every change is; it plays no game.
	er, err := play.New(db, nil, "", play.Options{Logger: log}).ForgetPlayer(ctx, user)
	if err != nil {
		return err
	}
	log.Info("player forgotten", "user", user, "by", "operator", "games", er.Games, "ratings", er.Ratings, "records", er.Records, "closed", len(er.Closed))
	name := "no name was kept"
	if er.Named {
		name = "name erased"
	}
	fmt.Fprintf(e.stdout, "forgot %s: %s, %d ratings and %d records against the bot deleted, %d open games ended first, %d games now anonymous\n",
		user, name, er.Ratings, er.Records, len(er.Closed), er.Games)
	return nil
}
