// Command loadtest plays Discord to a tttbot under load: it runs the bot as a
// child process in http mode, signs interactions with a key of its own,
// serves the bot's REST calls from a stub, reports throughput, latency and
// the bot's CPU and memory, and checks the database when the load is over.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/cli"
)

type loadOptions struct {
	duration    time.Duration
	warmup      time.Duration // load before measuring starts
	rate        int           // interactions per second; 0: as fast as the bot answers
	concurrency int           // simulated tables, each one request at a time
	players     int
	channels    int
	seed        uint64
	bad         float64 // chance of a bad request before each step
	big         float64 // share of games on 4×4 and 5×5
	guests      float64 // share of servers that have not installed the bot
	kill        bool
	restLatency time.Duration // how long the REST stub takes to answer
	db          string
	databaseURL string // PostgreSQL, instead of the SQLite file db
	instances   int    // bots sharing the database
	abandon     float64
	turnTimeout time.Duration // the bots' challenge and turn timeouts, with abandon
	bot         string
	botGodebug  string        // GODEBUG settings for the bots and the empty handler
	ownPostgres bool          // a PostgreSQL server of the test's own (pgcluster.go)
	soak        time.Duration // the load's duration, with faults (soak.go)
	faultEvery  time.Duration
	stall       time.Duration // how long a fault stalls the database
	pages       int           // web pages per second besides the interactions (web.go)
	cpuProfile  string        // file for the first bot's CPU profile over the measured window (profile.go)
	tournament  int           // players of a Swiss played through the bots instead of the load (tournament.go)
	rounds      int           // the Swiss's rounds
	resign      float64       // share of the Swiss's games resigned
}

// A soak's defaults, where they differ from a load test's: a modest load,
// tables that walk away so that timers fire throughout, and turns longer
// than a stall plus the bot's deferral, as real ones (minutes) are.
const (
	soakRate        = 150
	soakAbandon     = 0.01
	soakTurnTimeout = 30 * time.Second
)

// A tournament's default share of games walked away from, left to the move
// timeout: a few, since each round with one waits for it.
const tournamentAbandon = 0.02

// abandonOnPostgres is -abandon's default with -database-url. SQLite's runs
// keep 0, so that a seed plays the games it played before the flag existed.
const abandonOnPostgres = 0.01

// withGodebug is env with settings, unless they are empty, added to the
// end of its GODEBUG: of two values of a setting the runtime keeps the
// last, so settings win over the environment's.
func withGodebug(env []string, settings string) []string {
	if settings == "" {
		return env
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if old, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			if old != "" {
				settings = old + "," + settings
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GODEBUG="+settings)
}

// errReported ends the process with status 1 once the report has said what
// went wrong.
var errReported = errors.New("the load test failed")

func main() {
	if servedEmptyHandler() {
		return
	}
	// The driver shares the bot's cores: it collects less often, in memory
	// nobody measures, so that the bot gets them. Not GOGC, which the bot
	// would inherit.
	debug.SetGCPercent(400)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Stdout, os.Stderr, os.Args[1:])
	stop()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errReported):
		os.Exit(1)
	default:
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs := cli.NewFlagSet("loadtest", "[flags]",
		"Runs the bot in http mode as a child process on loopback, drives it with signed\n"+
			"interactions from simulated players, reports throughput, latency and the bot's\n"+
			"memory, then checks the database.")
	var o loadOptions
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "how long to send load and measure it, after the warm-up")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "how long to send load before measuring: a just-started bot grows its heap, caches and connections")
	fs.IntVar(&o.rate, "rate", 2000, "interactions per second to send; 0 sends the next as soon as one is answered")
	fs.IntVar(&o.concurrency, "concurrency", 64, "games played at once, each one request at a time")
	fs.IntVar(&o.players, "players", 4096, "simulated players")
	fs.IntVar(&o.channels, "channels", 256, "channels the games spread over")
	fs.Uint64Var(&o.seed, "seed", 0, "random seed (0: random)")
	fs.Float64Var(&o.bad, "bad", 0.1, "chance of a bad request (bad signature, stale board, stranger, out of turn, conflict) before each step")
	fs.Float64Var(&o.big, "big", 0.1, "share of games on 4×4 or 5×5 boards (the rest are 3×3)")
	fs.Float64Var(&o.guests, "guests", 0, "share of servers that have not installed the bot, where the players play through their own install of it: the bot reaches those boards only through the interaction tokens of their clicks")
	fs.BoolVar(&o.kill, "kill", false, "kill -9 the bot (the first of -instances) halfway, restart it on the same database and carry on")
	fs.DurationVar(&o.restLatency, "rest-latency", 50*time.Millisecond, "how long the REST stub takes to answer each of the bot's calls, as Discord's REST does")
	fs.StringVar(&o.db, "db", "", "SQLite database `file` (default: a new one in a temporary directory)")
	fs.StringVar(&o.databaseURL, "database-url", "", "PostgreSQL database `URL`, e.g. postgres://postgres@127.0.0.1:5432/load, instead of SQLite; the check covers the games it holds already too")
	fs.IntVar(&o.instances, "instances", 1, "bots sharing the database, each on its own port; the driver sends each request to the next (needs -database-url beyond 1)")
	fs.Float64Var(&o.abandon, "abandon", 0, fmt.Sprintf("chance that a table walks away from its game, leaving its deadline to fire (default %g with -database-url)", abandonOnPostgres))
	fs.DurationVar(&o.turnTimeout, "turn-timeout", 5*time.Second, "the bots' challenge and turn timeouts when tables walk away (-abandon); the check waits for the last to fire")
	fs.BoolVar(&o.ownPostgres, "postgres", false, "run the bots on a PostgreSQL server of the test's own: initdb in a temporary directory, on a free port (as the postgres user when root), removed at the end; TTTBOT_PG_BIN names its programs' directory (default "+pgBinDir+")")
	fs.DurationVar(&o.soak, "soak", 0, fmt.Sprintf("run a soak this long instead of -duration: the load (default -rate %d, -abandon %g, -turn-timeout %s) with a fault every -fault-every, cycling through a kill -9 of the bot and, with -postgres, a restart of PostgreSQL, a lock on its games table and a SIGSTOP of its processes, or on SQLite a write lock held by another connection and a full disk; the report adds late, deferred and abandoned answers, games lost on time and the bots' memory each minute", soakRate, soakAbandon, soakTurnTimeout))
	fs.DurationVar(&o.faultEvery, "fault-every", 3*time.Minute, "with -soak, the time between faults")
	fs.DurationVar(&o.stall, "stall", 8*time.Second, "with -soak, how long a lock, SIGSTOP or full disk lasts")
	fs.IntVar(&o.pages, "pages", 0, "web pages per second to fetch besides the interactions: the bots serve their pages, each guild's turned on by its admin, and a crawler fetches leaderboards, profiles and games (0: none)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write the first bot's CPU profile over the measured window to `file`, for go tool pprof (the bot serves it on an admin listener with [http] pprof)")
	fs.IntVar(&o.tournament, "tournament", 0, fmt.Sprintf("instead of the load, play a Swiss of this many players: an admin creates it, the players join with the button, the organiser starts it, and the players play each board the bots post; -abandon (default %g) of the games are walked away from and left to the move timeout, -resign of them resigned; the check wants every round started once, every game accounted for, and the standings equal to those recomputed from the stored games", tournamentAbandon))
	fs.IntVar(&o.rounds, "rounds", 6, "with -tournament, the Swiss's rounds")
	fs.Float64Var(&o.resign, "resign", 0.1, "with -tournament, the share of games a player resigns")
	fs.StringVar(&o.bot, "bot", "", "bot `binary` to run (default: one built with go build from this module's cmd/bot)")
	fs.StringVar(&o.botGodebug, "bot-godebug", "", "`GODEBUG` settings for the bots and net/http's empty handler, not the driver, added to the environment's GODEBUG (which the driver takes too), e.g. schedtrace=2147483647")
	rest, err := cli.Parse(fs, stdout, stderr, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case !set["abandon"] && o.tournament > 0:
		o.abandon = tournamentAbandon
	case !set["abandon"] && (o.databaseURL != "" || o.ownPostgres):
		o.abandon = abandonOnPostgres
	}
	if o.soak > 0 {
		o.duration = o.soak
		if !set["rate"] {
			o.rate = soakRate
		}
		if !set["abandon"] {
			o.abandon = soakAbandon
		}
		if !set["turn-timeout"] {
			o.turnTimeout = soakTurnTimeout
		}
	}
	switch {
	case len(rest) > 0:
		return cli.NoArgs(fs, rest)
	case o.duration <= 0 || o.warmup < 0 || o.restLatency < 0 || o.rate < 0 || o.concurrency < 1 || o.channels < 1 || o.instances < 1 ||
		o.turnTimeout <= 0 || o.bad < 0 || o.bad > 1 || o.big < 0 || o.big > 1 || o.guests < 0 || o.guests > 1 || o.abandon < 0 || o.abandon > 1:
		return errors.New("-duration, -concurrency, -channels, -instances and -turn-timeout must be positive, -warmup, -rate and -rest-latency not negative, -bad, -big and -abandon from 0 to 1")
	case o.tournament < 0 || o.tournament > 0 && (o.tournament < tttbot.MinEntrants || o.rounds < 1 || o.rounds > 12 ||
		o.resign < 0 || o.resign+o.abandon > 1):
		return fmt.Errorf("-tournament takes at least %d players, -rounds 1 to 12, and -resign and -abandon shares that add up to at most 1", tttbot.MinEntrants)
	case o.tournament > 0 && (o.soak > 0 || o.kill || o.pages > 0 || o.cpuProfile != ""):
		return errors.New("-tournament plays a tournament, not a load: leave out -soak, -kill, -pages and -cpuprofile")
	case o.tournament == 0 && o.players < 3*o.concurrency:
		return fmt.Errorf("-players must be at least 3 × -concurrency (%d)", 3*o.concurrency)
	case o.db != "" && o.databaseURL != "":
		return errors.New("-db names a SQLite file and -database-url a PostgreSQL database: give one")
	case o.instances > 1 && o.databaseURL == "" && !o.ownPostgres:
		return errors.New("-instances beyond 1 share one PostgreSQL database: add -database-url or -postgres")
	case o.ownPostgres && (o.databaseURL != "" || o.db != ""):
		return errors.New("-postgres runs a server of its own: leave out -database-url and -db")
	case o.soak < 0 || o.soak > 0 && (o.faultEvery <= 0 || o.stall <= 0):
		return errors.New("-soak, -fault-every and -stall must be positive")
	case o.pages < 0:
		return errors.New("-pages must not be negative")
	case o.soak > 0 && o.kill:
		return errors.New("-soak kills the bot on its schedule: leave out -kill")
	case o.soak > 0 && o.databaseURL != "":
		return errors.New("-soak restarts and stops its database, which may be shared: use -postgres for a server of its own, not -database-url")
	}
	if o.seed == 0 {
		o.seed = rand.Uint64()
	}
	dir, err := os.MkdirTemp("", "tttbot-loadtest-")
	if err != nil {
		return err
	}
	if o.db == "" && o.databaseURL == "" && !o.ownPostgres {
		o.db = filepath.Join(dir, "loadtest.db")
	}
	if o.bot == "" {
		o.bot, err = buildBot(ctx, dir, stderr)
		if err != nil {
			os.RemoveAll(dir)
			return err
		}
	}
	if o.tournament > 0 {
		err = playTournament(ctx, stdout, stderr, o, dir)
		if err != nil {
			fmt.Fprintf(stderr, "loadtest: files kept in %s\n", dir)
			return err
		}
		return os.RemoveAll(dir)
	}
	rep, err := loadtest(ctx, stdout, stderr, o, dir)
	if rep != nil {
		rep.print(stdout)
		if o.soak > 0 {
			rep.printSoak(stdout)
		}
		if rep.web != nil {
			rep.web.print(stdout)
		}
	}
	if err == nil && (rep.failed() || rep.web != nil && rep.web.failed()) {
		err = errReported
	}
	if err != nil {
		fmt.Fprintf(stderr, "loadtest: files kept in %s\n", dir)
		return err
	}
	return os.RemoveAll(dir)
}

// botPackage is the bot's main package, which buildBot builds.
const botPackage = "github.com/tttbot/tttbot/cmd/bot"

// buildBot builds the bot into dir with the go command, so that a run
// measures the source it is run from rather than a binary left over from an
// older one. flags go to go build.
func buildBot(ctx context.Context, dir string, stderr io.Writer, flags ...string) (string, error) {
	bin := filepath.Join(dir, "bot")
	args := append(append([]string{"build", "-o", bin}, flags...), botPackage)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build the bot (or name one with -bot): %w", err)
	}
	return bin, nil
}
