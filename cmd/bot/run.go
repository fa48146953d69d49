package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"time"

	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/sqlite"
)

func runCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	path := configFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.Load(*path, e.getenv)
	if err != nil {
		return err
	}
	if err := cfg.RequireToken(); err != nil {
		return err
	}
	return serve(ctx, cfg, cfg.NewLogger(e.stderr), serveOptions{})
}

func configFlag(fs *flag.FlagSet) *string {
	return fs.String("config", "", "config `file` (default: config.toml if it exists, else built-in defaults)")
}

// serveOptions are the seams the end-to-end tests use; production leaves
// them zero.
type serveOptions struct {
	now           func() time.Time
	seed          uint64
	timerInterval time.Duration
	ready         func() // called once the bot answers interactions
}

// serve runs the bot until ctx ends: database, AI, gateway, timers. On the
// way out it finishes in-flight interactions, then closes the gateway and
// the database.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, o serveOptions) (err error) {
	if o.timerInterval == 0 {
		o.timerInterval = time.Second
	}
	db, err := sqlite.Open(ctx, cfg.Database.Path, sqlite.Options{
		SimultaneousGames: cfg.Game.SimultaneousGames, Logger: log, Now: o.now,
	})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, db.Close()) }()

	s, err := discord.NewSession(cfg.Discord.Token, cfg.Discord.APIURL)
	if err != nil {
		return err
	}
	gw := discord.NewGateway(s, log)
	bot, appID, err := gw.Open(ctx)
	if err != nil {
		return err
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err = errors.Join(err, gw.Close(closeCtx))
	}()
	if cfg.Discord.ApplicationID != "" {
		appID = cfg.Discord.ApplicationID
	}
	if err := discord.Register(ctx, s, appID, cfg.Discord.GuildIDs, commands.Definitions(), log); err != nil {
		return err
	}

	h := commands.New(db, ai.New(ai.Options{TimeBudget: cfg.Game.AITimeBudget.Duration}), discord.Messenger{S: s}, bot.ID, commands.Options{
		ChallengeTimeout: cfg.Game.ChallengeTimeout.Duration,
		TurnTimeout:      cfg.Game.TurnTimeout.Duration,
		Now:              o.now,
		Seed:             o.seed,
		Logger:           log,
	})
	gw.Serve(h)
	timersCtx, stopTimers := context.WithCancel(context.Background())
	timersDone := make(chan struct{})
	go func() { h.RunTimers(timersCtx, o.timerInterval); close(timersDone) }()
	defer func() { stopTimers(); <-timersDone }()

	log.Info("bot running", "user", bot.Username, "database", cfg.Database.Path)
	if o.ready != nil {
		o.ready()
	}
	<-ctx.Done()
	log.Info("shutting down")
	return nil
}

// applicationID connects to the gateway just long enough to learn the application ID.
func applicationID(ctx context.Context, cfg config.Config, log *slog.Logger) (string, error) {
	if cfg.Discord.ApplicationID != "" {
		return cfg.Discord.ApplicationID, nil
	}
	s, err := discord.NewSession(cfg.Discord.Token, cfg.Discord.APIURL)
	if err != nil {
		return "", err
	}
	gw := discord.NewGateway(s, log)
	_, appID, err := gw.Open(ctx)
	if err != nil {
		return "", err
	}
	if err := gw.Close(ctx); err != nil {
		return "", err
	}
	if appID == "" {
		return "", fmt.Errorf("gateway READY carried no application ID: set [discord] application_id")
	}
	return appID, nil
}
