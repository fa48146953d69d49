package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"net"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/health"
	"github.com/tttbot/tttbot/internal/metrics"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/postgres"
	pages "github.com/tttbot/tttbot/internal/web"
)

func runCmd(ctx context.Context, e env, args []string) error {
	cfg, err := botConfig("run", "Runs the bot until interrupted. The token comes from DISCORD_TOKEN or the\nconfig file; database migrations are applied at start-up.", e, args)
	if err != nil {
		return err
	}
	log := cfg.NewLogger(e.stderr)
	discordgo.Logger = discord.Logger(log, string(cfg.Discord.Token))
	return serve(ctx, cfg, log, serveOptions{})
}

// botConfig parses the -config flag of a subcommand that talks to Discord
// and loads the configuration, which must hold a token.
func botConfig(name, about string, e env, args []string) (config.Config, error) {
	fs := cli.NewFlagSet("bot "+name, "[-config FILE]", about)
	path := configFlag(fs)
	rest, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return config.Config{}, err
	}
	if err := cli.NoArgs(fs, rest); err != nil {
		return config.Config{}, err
	}
	cfg, err := loadConfig(*path, e)
	if err != nil {
		return config.Config{}, err
	}
	return cfg, cfg.RequireToken()
}

// stopAsked clears *err when it is ctx's own error: the subcommands that
// reach Discord end that way when SIGINT or SIGTERM stops them while they
// start, which is a stop asked for, not a failure, so they exit 0 alike.
func stopAsked(ctx context.Context, err *error, log *slog.Logger) {
	if ctx.Err() != nil && errors.Is(*err, ctx.Err()) {
		log.Info("stopped while starting")
		*err = nil
	}
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
	ready         func()         // called once the bot answers interactions
	listening     func(net.Addr) // called with the public HTTP server's address
	admin         func(net.Addr) // called with the admin HTTP server's address
	backoff       discord.Backoff
	// dbSleep waits between the attempts to open the database (nil: a
	// timer).
	dbSleep func(ctx context.Context, d time.Duration) error
	// identifyInterval scales Discord's identify pacing (default
	// discord.IdentifyInterval) for a local Discord that scales it too.
	identifyInterval time.Duration
	// workLimit bounds an interaction's work (default
	// discord.DefaultWorkLimit), for tests that stall the database past it.
	workLimit time.Duration
}

// serve runs the bot until ctx ends: database, AI, gateway (or, in http
// mode, the interactions endpoint), timers, and the HTTP server with
// /healthz and /metrics, whose addresses it binds first of all. It waits
// for a database that is down (see waitForStore), and retries start-up
// calls to Discord while they may pass; the commands are
// registered in the background, the previous registration staying in force
// meanwhile. On the way out it finishes in-flight interactions, then closes
// the gateway and the database. It returns nil when ctx ends, even during
// start-up: that is a stop asked for.
func serve(ctx context.Context, cfg config.Config, log *slog.Logger, o serveOptions) (err error) {
	defer stopAsked(ctx, &err, log)
	if o.timerInterval == 0 {
		o.timerInterval = time.Second
	}
	httpMode := cfg.Discord.Mode == config.ModeHTTP
	m := metrics.New()
	// The store's calls, its probes and the deferrals tell one owner of the
	// database's state, which logs its outages rather than each failed
	// interaction.
	dbState := health.NewDatabase(health.DatabaseOptions{
		Unavailable: func(err error) bool { return health.Unavailable(err) || unavailable(cfg.Database, err) },
		Now:         o.now, Logger: log,
	})
	m.Database(dbState)
	budget := discord.Budget{
		DeferAfter: cfg.Discord.DeferAfter.Duration, WorkLimit: o.workLimit, Counter: deferrals{m.Deferrals(), dbState},
	}
	var endpoint *discord.HTTPHandler
	if httpMode {
		key, err := discord.ParsePublicKey(cfg.Discord.PublicKey)
		if err != nil {
			return err
		}
		endpoint = discord.NewHTTPHandler(key, discord.HTTPOptions{Now: o.now, Logger: log, Budget: budget})
	}
	lns, err := listen(cfg)
	if err != nil {
		return err
	}
	// The servers answer from now on, /healthz with 503 "starting" until
	// the bot is ready; a start that fails closes them on the way out.
	web := startWeb(lns, cfg, endpoint, m, log)
	closeWeb := func() error {
		closeCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return web.close(closeCtx)
	}
	webOpen := true
	defer func() {
		if webOpen {
			err = errors.Join(err, closeWeb())
		}
	}()
	if o.listening != nil && lns.public != nil {
		o.listening(lns.public.Addr())
	}
	if o.admin != nil && lns.admin != nil {
		o.admin(lns.admin.Addr())
	}
	db, err := waitForStore(ctx, cfg, log, o.now, o.dbSleep, web.starting)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	web.starting("starting: connecting to Discord")

	s, err := discord.NewSession(string(cfg.Discord.Token), cfg.Discord.APIURL)
	if err != nil {
		return err
	}
	s.Client.Transport = m.Transport(s.Client.Transport)
	s.AddHandler(m.RateLimited)
	m.ActiveGames(func() float64 {
		c, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := db.ActiveGames(c)
		if err != nil {
			return math.NaN()
		}
		return float64(n)
	})
	// A write probe for each /healthz would queue behind the moves under
	// load: one a second tells as much.
	checks := []health.Check{{Name: "database", Func: health.Cached(time.Second, o.now, func(ctx context.Context) (string, error) {
		if err := dbState.Observe(ctx, db.Ping(ctx)); err != nil {
			return "", fmt.Errorf("%s: %w", cfg.Database.Name(), err)
		}
		return "", nil
	})}}

	var gw *discord.Gateway
	var gwFailed <-chan struct{} // a shard's final error; nil in http mode
	var bot *discordgo.User
	var appID string
	if httpMode {
		// No gateway: Discord POSTs interactions, and REST says who we are.
		err = o.backoff.Retry(ctx, log, "get bot user", func(ctx context.Context) (err error) {
			bot, appID, err = discord.Self(ctx, s)
			return err
		})
		if err != nil {
			return err
		}
	} else {
		// Validated with the configuration.
		ids, perr := config.ParseShardIDs(cfg.Discord.ShardIDs)
		if perr != nil {
			return perr
		}
		gwOpts := discord.GatewayOptions{
			ShardCount: cfg.Discord.ShardCount, ShardIDs: ids,
			IdentifyInterval: o.identifyInterval, Backoff: o.backoff, Budget: budget, Logger: log,
		}
		if pg, ok := db.(*postgres.DB); ok {
			// The processes that share the shards share the database:
			// they take turns to identify through it.
			gwOpts.LockBucket = pg.LockBucket
		}
		gw = discord.NewGateway(s, gwOpts)
		if bot, appID, err = gw.Open(ctx); err != nil {
			return err
		}
		defer func() {
			closeCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			err = errors.Join(err, gw.Close(closeCtx))
		}()
		gwFailed = gw.Failed()
		// Real time, not o.now: discordgo stamps heartbeats with time.Now.
		m.Shards(func() []discord.ShardStatus { return gw.Shards(time.Now()) })
		grace := cfg.Discord.ShardDownGrace.Duration
		for i, id := range gw.ShardIDs() {
			name := "gateway"
			if gw.ShardCount() > 1 {
				name = fmt.Sprintf("gateway shard %d", id)
			}
			checks = append(checks, health.Check{Name: name, Func: func(context.Context) (string, error) {
				return gw.Shards(time.Now())[i].Health(grace)
			}})
		}
	}
	if cfg.Discord.ApplicationID != "" {
		appID = cfg.Discord.ApplicationID
	}
	// Only Discord refusing the bot ends it; other errors leave the
	// previous registration in force.
	defs, err := commands.Definitions()
	if err != nil {
		return err
	}
	fatal := make(chan error, 1)
	regCtx, stopReg := context.WithCancel(ctx)
	regDone := make(chan struct{})
	// Discord keeps one set of commands per application: of several
	// processes sharing the shards, the one holding shard 0 registers, and
	// of several http instances those configured to.
	register := cfg.Discord.RegisterCommands && (gw == nil || gw.Runs(0))
	switch {
	case !cfg.Discord.RegisterCommands:
		log.Info("commands left to another instance or bot register", "register_commands", false)
	case !register:
		log.Info("commands left to the process holding shard 0")
	}
	go func() {
		defer close(regDone)
		if !register {
			return
		}
		err := o.backoff.Retry(regCtx, log, "register commands", func(ctx context.Context) error {
			return discord.Register(ctx, s, appID, cfg.Discord.GuildIDs, defs, log)
		})
		var auth *discord.AuthError
		switch {
		case errors.As(err, &auth):
			fatal <- err
		case err != nil && regCtx.Err() == nil:
			log.Error("register commands", "err", err)
		}
	}()
	defer func() { stopReg(); <-regDone }()

	solver := ai.New(ai.Options{TimeBudget: cfg.Game.AITimeBudget.Duration})
	engine := m.AI(solver)
	store := m.Store(db, dbState)
	service := play.New(store, engine, bot.ID, play.Options{
		ChallengeTimeout: cfg.Game.ChallengeTimeout.Duration,
		TurnTimeout:      cfg.Game.TurnTimeout.Duration,
		Now:              o.now,
		Seed:             o.seed,
		Logger:           log,
	})
	h, err := commands.New(service, store, engine, discord.Messenger{S: s, AppID: appID})
	if err != nil {
		return err
	}
	if cfg.Web.Enabled {
		cat, err := commands.Catalog()
		if err != nil {
			return err
		}
		site, err := pages.New(store, engine, cat, pages.Options{PublicURL: cfg.Web.PublicURL, TrustForwarded: cfg.Web.TrustForwarded,
			RateLimit: cfg.Web.RateLimit, BotID: bot.ID, Logger: log, Now: o.now})
		if err != nil {
			return err
		}
		web.servePages(site)
		h.ServeWeb(cfg.Web.PublicURL)
	}
	handler := m.Interactions(h)
	if gw != nil {
		gw.Serve(handler)
	}
	timersCtx, stopTimers := context.WithCancel(context.Background())
	timersDone := make(chan struct{})
	go func() { service.RunTimers(timersCtx, o.timerInterval, h); close(timersDone) }()
	defer func() { stopTimers(); <-timersDone }()
	// The tournament runner: sign-ups and rounds that run out, and the
	// next round once a round's games are over.
	tournamentsCtx, stopTournaments := context.WithCancel(context.Background())
	tournamentsDone := make(chan struct{})
	go func() { service.RunTournaments(tournamentsCtx, o.timerInterval, h, h); close(tournamentsDone) }()
	defer func() { stopTournaments(); <-tournamentsDone }()
	// The daily puzzle's posts, each claimed by one instance at its hour.
	dailyCtx, stopDaily := context.WithCancel(context.Background())
	dailyDone := make(chan struct{})
	go func() { service.RunDaily(dailyCtx, o.timerInterval, h); close(dailyDone) }()
	defer func() { stopDaily(); <-dailyDone }()
	// The miner turns finished games into puzzles after their
	// interactions are answered; the shutdown waits for the game at hand.
	service.AddStarterPuzzles(ctx)
	minerCtx, stopMiner := context.WithCancel(context.Background())
	minerDone := make(chan struct{})
	go func() { service.RunMiner(minerCtx, solver); close(minerDone) }()
	defer func() { stopMiner(); <-minerDone }()

	if endpoint != nil {
		endpoint.Serve(handler, s)
	}
	if gw != nil {
		// The shards connected meanwhile answer already, and the timers
		// run; the bot is ready once every shard has connected.
		if err := gw.WaitConnected(ctx); err != nil {
			return err
		}
	}
	web.ready(checks)
	// From here the servers close first on the way out, so that in-flight
	// interactions finish before the timers, the gateway and the database.
	defer func() {
		webOpen = false
		err = errors.Join(err, closeWeb())
	}()

	if gw != nil {
		log.Info("bot running", "user", bot.Username, "mode", cfg.Discord.Mode, "database", cfg.Database.Name(),
			"shards", gw.ShardCount(), "shard_ids", gw.ShardIDs())
	} else {
		log.Info("bot running", "user", bot.Username, "mode", cfg.Discord.Mode, "database", cfg.Database.Name())
	}
	if o.ready != nil {
		o.ready()
	}
	select {
	case <-ctx.Done():
	case err := <-fatal:
		return err
	case <-gwFailed:
		return gw.Err()
	}
	log.Info("shutting down")
	return nil
}

// applicationID is the configured application ID, or the one Discord's REST
// API reports for the token.
func applicationID(ctx context.Context, cfg config.Config, log *slog.Logger) (string, error) {
	if cfg.Discord.ApplicationID != "" {
		return cfg.Discord.ApplicationID, nil
	}
	s, err := discord.NewSession(string(cfg.Discord.Token), cfg.Discord.APIURL)
	if err != nil {
		return "", err
	}
	var appID string
	err = discord.Backoff{}.Retry(ctx, log, "get application", func(ctx context.Context) (err error) {
		_, appID, err = discord.Self(ctx, s)
		return err
	})
	return appID, err
}

// deferrals counts the deferred interactions in /metrics, and for the
// line that ends a database outage.
type deferrals struct {
	discord.Counter
	db *health.Database
}

func (d deferrals) Deferred() {
	d.Counter.Deferred()
	d.db.Deferred()
}
