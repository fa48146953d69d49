// Package config loads the bot's settings from a TOML file, strictly: a key
// the bot does not know is an error that names it and its line, so a typo
// never silently falls back to a default. Every key has a default, so with no
// file at all the bot runs on DISCORD_TOKEN alone.
//
// Environment variables override the file, one for every key (see EnvVar):
// TTTBOT_ and the key in capitals with "_" for ".", such as
// TTTBOT_GAME_TURN_TIMEOUT for game.turn_timeout, except discord.token,
// which is DISCORD_TOKEN. So a container is configured by its environment
// alone.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/tttbot/tttbot/internal/pgurl"
)

// DefaultPath is the file Load reads when no path is given, if it exists.
const DefaultPath = "config.toml"

// Config is every setting of the bot.
type Config struct {
	Discord  Discord  `toml:"discord"`
	HTTP     HTTP     `toml:"http"`
	Database Database `toml:"database"`
	Game     Game     `toml:"game"`
	Web      Web      `toml:"web"`
	Log      Log      `toml:"log"`
}

// Discord is how the bot reaches Discord.
type Discord struct {
	Token         Secret   `toml:"token"`
	ApplicationID string   `toml:"application_id"` // empty: learned from Discord at start-up
	GuildIDs      []string `toml:"guild_ids"`      // register commands here instead of globally
	APIURL        string   `toml:"api_url"`        // REST base; the gateway URL is discovered from it
	Mode          string   `toml:"mode"`           // how interactions arrive: ModeGateway or ModeHTTP
	PublicKey     string   `toml:"public_key"`     // hex; verifies the requests of ModeHTTP

	// Sharding, in ModeGateway: ShardCount 0 takes Discord's
	// recommendation; ShardIDs (see ParseShardIDs) are the shards this
	// process runs, empty for all of them.
	ShardCount     int      `toml:"shard_count"`
	ShardIDs       string   `toml:"shard_ids"`
	ShardDownGrace Duration `toml:"shard_down_grace"` // how long a shard may be down before /healthz fails

	// DeferAfter is how long an interaction's work may take before the
	// bot sends Discord the deferred answer (the bot "thinking") and
	// finishes with an edit once the work is done: less than the 3 s
	// Discord waits for the first answer.
	DeferAfter Duration `toml:"defer_after"`

	// RegisterCommands has the process overwrite the slash commands at
	// start-up: in ModeGateway only if it runs shard 0. Discord keeps one
	// set per application, so of several instances one registers, or
	// none and the deployment runs `bot register`.
	RegisterCommands bool `toml:"register_commands"`
}

// How interactions reach the bot.
const (
	ModeGateway = "gateway" // over the bot's gateway connection
	ModeHTTP    = "http"    // POSTed by Discord to the bot's HTTP endpoint
)

// HTTP is the bot's own HTTP server: /healthz and /metrics in both modes,
// and in ModeHTTP the interactions endpoint at Path. An empty Listen turns
// the server off in ModeGateway. With AdminListen set, /healthz and
// /metrics move there, so that a public endpoint need not expose them.
type HTTP struct {
	Listen         string `toml:"listen"`          // host:port
	Path           string `toml:"path"`            // the interactions endpoint
	AdminListen    string `toml:"admin_listen"`    // host:port of /healthz and /metrics; empty: Listen
	MaxConnections int    `toml:"max_connections"` // open connections per listener; more wait
	// HealthTimeout bounds each check of /healthz, and so its answer: a
	// check not done by then is reported as timed out.
	HealthTimeout Duration `toml:"health_timeout"`
	// Pprof serves Go's profiles at /debug/pprof/ on AdminListen, which it
	// needs: a profile costs the bot's CPU and shows its internals.
	Pprof bool `toml:"pprof"`
}

// Database is where games are kept: the SQLite file at Path (the
// default), or the PostgreSQL database at URL, which several instances
// may share. Setting both is an error.
type Database struct {
	Path string      `toml:"path"`
	URL  DatabaseURL `toml:"url"` // postgres://user:password@host:5432/dbname?sslmode=…
	// Wait bounds how long `bot run` waits at start-up for a database that
	// is down, hung or locked; 0 fails at once.
	Wait Duration `toml:"wait"`
}

// Postgres reports whether the games are kept in PostgreSQL.
func (d Database) Postgres() bool { return d.URL != "" }

// Name is the database for logs and messages: the SQLite file, or the
// PostgreSQL URL without its password.
func (d Database) Name() string {
	if d.Postgres() {
		return d.URL.String()
	}
	return d.Path
}

// DatabaseURL is a PostgreSQL connection URL. It prints, logs and marshals
// with its password replaced, so that a log of the configuration shows
// where the database is but not how to get in.
type DatabaseURL string

// String returns the URL with its password and secret parameters
// replaced (see pgurl.Redact).
func (u DatabaseURL) String() string { return pgurl.Redact(string(u)) }

// Format prints u as String does, whatever the verb.
func (u DatabaseURL) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), u.String())
}

// LogValue logs u as String does.
func (u DatabaseURL) LogValue() slog.Value { return slog.StringValue(u.String()) }

// MarshalText encodes u as String does.
func (u DatabaseURL) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// Game holds the timers and defaults of play.
type Game struct {
	ChallengeTimeout  Duration `toml:"challenge_timeout"`
	TurnTimeout       Duration `toml:"turn_timeout"`
	SimultaneousGames bool     `toml:"simultaneous_games"` // for guilds that have not chosen
	AITimeBudget      Duration `toml:"ai_time_budget"`
}

// Web is the public web pages (a server's leaderboard, a player's
// profile, a game's replay), served on [http] listen beside the rest.
type Web struct {
	Enabled bool `toml:"enabled"`
	// PublicURL is where people reach the pages, such as
	// "https://ttt.example": the base of the links the bot posts.
	PublicURL string `toml:"public_url"`
	// TrustForwarded takes the client's address and scheme from a
	// reverse proxy's X-Forwarded-For and X-Forwarded-Proto, which a
	// client reaching the bot directly could forge.
	TrustForwarded bool `toml:"trust_forwarded"`
	// RateLimit is how many pages a second one client address may load,
	// on average; a burst of twice as many passes.
	RateLimit int `toml:"rate_limit"`
}

// Log sets the logger's level (debug, info, warn, error) and format (text, json).
type Log struct {
	Level  string `toml:"level"`
	Format string `toml:"format"`
}

// AnswerWindow is how long Discord waits for an interaction's first
// answer; discord.defer_after must leave the deferral time to reach it.
const AnswerWindow = 3 * time.Second

// MaxAITimeBudget bounds game.ai_time_budget: every offered board is solved
// far faster, and a longer search would outlast Discord's 3 s answer window.
const MaxAITimeBudget = 2 * time.Second

// Default returns the settings used for every key a file leaves out.
func Default() Config {
	return Config{
		Discord: Discord{
			APIURL: "https://discord.com/api/v9", Mode: ModeGateway,
			ShardDownGrace: Duration{time.Minute}, DeferAfter: Duration{2 * time.Second}, RegisterCommands: true,
		},
		HTTP: HTTP{Listen: "127.0.0.1:8080", Path: "/interactions", MaxConnections: 512,
			HealthTimeout: Duration{2 * time.Second}},
		Database: Database{Path: "tttbot.db", Wait: Duration{time.Minute}},
		Game: Game{
			ChallengeTimeout: Duration{2 * time.Minute},
			TurnTimeout:      Duration{5 * time.Minute},
			AITimeBudget:     Duration{time.Second},
		},
		Web: Web{RateLimit: 10},
		Log: Log{Level: "info", Format: "text"},
	}
}

// Load reads the file at path over the defaults, applies the environment
// overrides read through getenv (nil reads none) and validates the result.
// An empty path means DefaultPath if that file exists, else the defaults
// alone; a path that is given must exist. Each problem is a line that says
// where its key was set: the file and line, or the variable.
func Load(path string, getenv func(string) string) (Config, error) {
	cfg, src := Default(), sources{file: "config"}
	file := path
	if file == "" {
		file = DefaultPath
	}
	data, err := os.ReadFile(file)
	switch {
	case path == "" && errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return Config{}, fmt.Errorf("read config: %w", err)
	default:
		if cfg, err = parse(file, data); err != nil {
			return Config{}, err
		}
		src.file, src.lines = file, lines(data)
	}
	fileURL := cfg.Database.URL != ""
	if src.env, err = cfg.applyEnv(getenv); err != nil {
		return Config{}, fmt.Errorf("environment: %w", err)
	}
	if err := cfg.chooseDatabase(src, fileURL); err != nil {
		return Config{}, err
	}
	if err := cfg.validate(src.where); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// chooseDatabase applies the one choice that database.path and
// database.url make together. The environment overrides the file and the
// file the defaults, for this choice as for every key: a layer that sets
// either key replaces the choice of those below it, so that a URL in the
// environment wins over the path of a copied example file or the default.
// A layer that sets both is refused, since no one can tell which was
// meant. fileURL reports whether the file set a URL.
func (c *Config) chooseDatabase(src sources, fileURL bool) error {
	both := func(path, url string) error {
		return fmt.Errorf("%s and %s are both set: path keeps the games in SQLite, url in PostgreSQL; remove one", path, url)
	}
	switch {
	case src.lines["database.path"] != 0 && fileURL:
		return both(src.where("database.path"), "database.url")
	case src.env["database.path"] && src.env["database.url"]:
		return both(src.where("database.path"), src.name("database.url"))
	case src.env["database.path"]:
		c.Database.URL = ""
	}
	return nil
}

// sources says where each key was set, so that a problem with a value
// points at it.
type sources struct {
	file  string         // the file's name, or "config" without one
	lines map[string]int // each key and table of the file, by its line
	env   envSet
}

// name is key, after its variable when the environment set it.
func (s sources) name(key string) string {
	if s.env[key] {
		return EnvVar(key) + " (" + key + ")"
	}
	return key
}

// where locates key for a message: "environment: VARIABLE (key)" when the
// environment set it, else "file:line: key" at the key's line in the file,
// or its table's when the file leaves the key out.
func (s sources) where(key string) string {
	if s.env[key] {
		return "environment: " + s.name(key)
	}
	line, ok := s.lines[key]
	if !ok {
		line, ok = s.lines[key[:max(strings.Index(key, "."), 0)]]
	}
	if !ok {
		return s.file + ": " + key
	}
	return fmt.Sprintf("%s:%d: %s", s.file, line, key)
}

// RequireToken reports a missing Discord token with how to get one. Commands
// that talk to Discord call it; the others run without a token.
func (c Config) RequireToken() error {
	if c.Discord.Token == "" {
		return errors.New("no Discord token: set DISCORD_TOKEN (Developer Portal → your application → Bot → Reset Token)")
	}
	return nil
}

// Duration is a time.Duration written in TOML as a string, e.g. "2m".
type Duration struct{ time.Duration }

// String is the duration without zero trailing units: "2m", not "2m0s".
func (d Duration) String() string {
	s := d.Duration.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// LogValue logs the duration as String does.
func (d Duration) LogValue() slog.Value { return slog.StringValue(d.String()) }

// MarshalText writes the duration as String does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a duration as time.ParseDuration does.
func (d *Duration) UnmarshalText(text []byte) error {
	v, err := time.ParseDuration(string(text))
	if err != nil {
		// go-toml also calls this with a bare number, which needs quotes
		// and a unit.
		return fmt.Errorf("invalid duration %q: want a number and a unit in quotes, e.g. \"90s\" or \"2m\"", text)
	}
	d.Duration = v
	return nil
}
