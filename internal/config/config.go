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
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

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
}

// Database is where games are kept: the SQLite file at Path (the
// default), or the PostgreSQL database at URL, which several instances
// may share. Setting both is an error.
type Database struct {
	Path string      `toml:"path"`
	URL  DatabaseURL `toml:"url"` // postgres://user:password@host:5432/dbname?sslmode=…
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

// Log sets the logger's level (debug, info, warn, error) and format (text, json).
type Log struct {
	Level  string `toml:"level"`
	Format string `toml:"format"`
}

// MaxAITimeBudget bounds game.ai_time_budget: every offered board is solved
// far faster, and a longer search would outlast Discord's 3 s answer window.
const MaxAITimeBudget = 2 * time.Second

// Default returns the settings used for every key a file leaves out.
func Default() Config {
	return Config{
		Discord: Discord{
			APIURL: "https://discord.com/api/v9", Mode: ModeGateway,
			ShardDownGrace: Duration{time.Minute}, RegisterCommands: true,
		},
		HTTP:     HTTP{Listen: "127.0.0.1:8080", Path: "/interactions", MaxConnections: 512},
		Database: Database{Path: "tttbot.db"},
		Game: Game{
			ChallengeTimeout: Duration{2 * time.Minute},
			TurnTimeout:      Duration{5 * time.Minute},
			AITimeBudget:     Duration{time.Second},
		},
		Log: Log{Level: "info", Format: "text"},
	}
}

// Load reads the file at path over the defaults, applies the environment
// overrides read through getenv (nil reads none) and validates the result.
// An empty path means DefaultPath if that file exists, else the defaults
// alone; a path that is given must exist.
func Load(path string, getenv func(string) string) (Config, error) {
	cfg, name := Default(), "config"
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
		name = file
	}
	set, err := cfg.applyEnv(getenv)
	if err != nil {
		return Config{}, fmt.Errorf("environment: %w", err)
	}
	if err := cfg.validate(set.name); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	if cfg.Database.URL != "" && (set["database.path"] || setsKey(data, "database", "path")) {
		return Config{}, fmt.Errorf("%s: %s and %s are both set: path keeps the games in SQLite, url in PostgreSQL; remove one",
			name, set.name("database.path"), set.name("database.url"))
	}
	return cfg, nil
}

// setsKey reports whether the TOML document data sets key in table.
func setsKey(data []byte, table, key string) bool {
	var doc map[string]any
	if toml.Unmarshal(data, &doc) != nil {
		return false
	}
	t, ok := doc[table].(map[string]any)
	if !ok {
		return false
	}
	_, ok = t[key]
	return ok
}

// parse decodes a file's contents over the defaults, strictly. Errors start
// with name and the line, one line per problem.
func parse(name string, data []byte) (Config, error) {
	cfg := Default()
	err := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().Decode(&cfg)
	var strict *toml.StrictMissingError
	var decode *toml.DecodeError
	switch {
	case err == nil:
		cfg.Discord.Token = Secret(strings.TrimSpace(string(cfg.Discord.Token)))
		return cfg, nil
	case errors.As(err, &strict):
		errs := make([]error, len(strict.Errors))
		for i, e := range strict.Errors {
			row, _ := e.Position()
			key := strings.Join(e.Key(), ".")
			errs[i] = fmt.Errorf("%s:%d: unknown key %q%s", name, row, key, suggest(key))
		}
		return Config{}, errors.Join(errs...)
	case errors.As(err, &decode):
		row, col := decode.Position()
		msg := strings.TrimPrefix(decode.Error(), "toml: ")
		key := strings.Join(decode.Key(), ".")
		// A bad value of a known key: say what the key takes rather than
		// go-toml's message, which names Go types. Other errors (syntax, a
		// duplicate key) carry no full key, and their column helps.
		t, ok := keyTypes()[key]
		switch {
		case ok && strings.HasPrefix(msg, "cannot decode"):
			return Config{}, fmt.Errorf("%s:%d: %s: want %s", name, row, key, describe(t))
		case ok:
			return Config{}, fmt.Errorf("%s:%d: %s: %s", name, row, key, msg)
		}
		return Config{}, fmt.Errorf("%s:%d:%d: %s", name, row, col, msg)
	}
	// go-toml hands a number, boolean or date given to a duration key to
	// Duration.UnmarshalText, and returns its error without the key or line.
	if key, row := nonString(data, reflect.TypeFor[Duration]()); key != "" {
		return Config{}, fmt.Errorf("%s:%d: %s: %w", name, row, key, err)
	}
	return Config{}, fmt.Errorf("%s: %w", name, err)
}

// nonString finds the first key of type t in data whose value is not a
// string, and its line; the key is empty if there is none.
func nonString(data []byte, t reflect.Type) (key string, line int) {
	types := keyTypes()
	var p unstable.Parser
	p.Reset(data)
	// visit checks a key-value under the key parts in prefix, and those of
	// an inline table in turn.
	var visit func(prefix []string, kv *unstable.Node) bool
	visit = func(prefix []string, kv *unstable.Node) bool {
		k := slices.Clone(prefix)
		first := true
		for it := kv.Key(); it.Next(); {
			if first {
				line, first = p.Shape(it.Node().Raw).Start.Line, false
			}
			k = append(k, string(it.Node().Data))
		}
		switch v := kv.Value(); {
		case v.Kind == unstable.InlineTable:
			for it := v.Children(); it.Next(); {
				if visit(k, it.Node()) {
					return true
				}
			}
		case types[strings.Join(k, ".")] == t && v.Kind != unstable.String:
			key = strings.Join(k, ".")
			return true
		}
		return false
	}
	var table []string
	for p.NextExpression() {
		switch e := p.Expression(); e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = table[:0]
			for it := e.Key(); it.Next(); {
				table = append(table, string(it.Node().Data))
			}
		case unstable.KeyValue:
			if visit(table, e) {
				return key, line
			}
		}
	}
	return "", 0
}

// Validate checks every value, and reports all problems at once.
func (c Config) Validate() error { return c.validate(nil) }

// validate is Validate with each problem's key named by name, so that a bad
// value from the environment names its variable; nil names keys alone.
func (c Config) validate(name func(key string) string) error {
	var problems []string
	bad := func(key, format string, args ...any) {
		if name != nil {
			key = name(key)
		}
		problems = append(problems, key+": "+fmt.Sprintf(format, args...))
	}
	if c.Discord.ApplicationID != "" && !isSnowflake(c.Discord.ApplicationID) {
		bad("discord.application_id", "want a numeric ID or nothing, got %q", c.Discord.ApplicationID)
	}
	for _, id := range c.Discord.GuildIDs {
		if !isSnowflake(id) {
			bad("discord.guild_ids", "want numeric guild IDs, got %q", id)
		}
	}
	if u, err := url.Parse(c.Discord.APIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("discord.api_url", "want an http or https URL, got %q", c.Discord.APIURL)
	}
	switch c.Discord.Mode {
	case ModeGateway, ModeHTTP:
	default:
		bad("discord.mode", "want gateway or http, got %q", c.Discord.Mode)
	}
	switch k := c.Discord.PublicKey; {
	case k == "" && c.Discord.Mode == ModeHTTP:
		bad("discord.public_key", "required in http mode (Developer Portal → your application → General Information → Public Key)")
	case k != "" && !isPublicKey(k):
		bad("discord.public_key", "want 64 hex characters, got %q", k)
	}
	c.validateShards(bad)
	if c.HTTP.Listen == "" {
		if c.Discord.Mode == ModeHTTP {
			bad("http.listen", "required in http mode")
		}
	} else if !isHostPort(c.HTTP.Listen) {
		bad("http.listen", "want host:port, e.g. \"127.0.0.1:8080\", got %q", c.HTTP.Listen)
	}
	switch a := c.HTTP.AdminListen; {
	case a == "":
	case !isHostPort(a):
		bad("http.admin_listen", "want host:port, e.g. \"127.0.0.1:9090\", or nothing, got %q", a)
	case a == c.HTTP.Listen && !strings.HasSuffix(a, ":0"): // port 0 picks a free one each
		bad("http.admin_listen", "must differ from http.listen, or be left out to share it")
	}
	if c.HTTP.MaxConnections < 1 {
		bad("http.max_connections", "must be at least 1, got %d", c.HTTP.MaxConnections)
	}
	switch p := c.HTTP.Path; {
	case !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "{} \t\n?#"):
		bad("http.path", "want a URL path such as \"/interactions\", got %q", p)
	case p == "/healthz" || p == "/metrics":
		bad("http.path", "%q is taken by the bot's own endpoint", p)
	}
	if c.Database.Path == "" {
		bad("database.path", "must not be empty")
	}
	if u := string(c.Database.URL); u != "" {
		// The message never repeats the URL: it may hold a password.
		if p, err := url.Parse(u); err != nil || (p.Scheme != "postgres" && p.Scheme != "postgresql") || p.Host == "" {
			bad("database.url", "want a PostgreSQL URL, postgres://user:password@host:5432/dbname?sslmode=verify-full")
		}
	}
	for _, d := range []struct {
		key string
		d   Duration
	}{
		{"game.challenge_timeout", c.Game.ChallengeTimeout},
		{"game.turn_timeout", c.Game.TurnTimeout},
		{"game.ai_time_budget", c.Game.AITimeBudget},
	} {
		if d.d.Duration <= 0 {
			bad(d.key, "must be more than zero, got %q", d.d)
		}
	}
	// The bot's reply goes out in the click's own answer, which Discord
	// awaits for 3 s; the search must leave time for the rest.
	if c.Game.AITimeBudget.Duration > MaxAITimeBudget {
		bad("game.ai_time_budget", "must be at most %s (Discord waits 3s for an answer), got %q", MaxAITimeBudget, c.Game.AITimeBudget)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "want debug, info, warn or error, got %q", c.Log.Level)
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		bad("log.format", "want text or json, got %q", c.Log.Format)
	}
	if problems != nil {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// validateShards checks the sharding keys, reporting each problem to bad.
func (c Config) validateShards(bad func(key, format string, args ...any)) {
	d := c.Discord
	if d.Mode == ModeHTTP {
		// Discord POSTs every interaction to the endpoint: there are no
		// sessions to shard, and a key set for them is a mistake.
		if d.ShardCount != 0 {
			bad("discord.shard_count", "applies to gateway mode only")
		}
		if d.ShardIDs != "" {
			bad("discord.shard_ids", "applies to gateway mode only")
		}
	}
	if d.ShardCount < 0 || d.ShardCount > MaxShards {
		bad("discord.shard_count", "want 0 (Discord's recommendation) or a count up to %d, got %d", MaxShards, d.ShardCount)
	}
	ids, err := ParseShardIDs(d.ShardIDs)
	switch {
	case err != nil:
		bad("discord.shard_ids", "%v", err)
	case ids == nil:
	case d.ShardCount == 0:
		// Discord's recommendation can change between two processes'
		// starts, and processes that disagree on the count split the
		// guilds wrongly.
		bad("discord.shard_ids", "needs discord.shard_count: the processes that share the shards must agree on their number")
	case ids[len(ids)-1] >= d.ShardCount:
		bad("discord.shard_ids", "shard %d is out of range: with discord.shard_count %d the shards are 0-%d", ids[len(ids)-1], d.ShardCount, d.ShardCount-1)
	case len(ids) < d.ShardCount && !c.Database.Postgres():
		// The other shards' processes would keep their own games, ratings
		// and leaderboards, and only shard 0's would see DMs.
		bad("discord.shard_ids", "runs %d of the %d shards: processes that share the shards must share a PostgreSQL database (database.url)", len(ids), d.ShardCount)
	}
	if d.ShardDownGrace.Duration <= 0 {
		bad("discord.shard_down_grace", "must be more than zero, got %q", d.ShardDownGrace)
	}
}

// RequireToken reports a missing Discord token with how to get one. Commands
// that talk to Discord call it; the others run without a token.
func (c Config) RequireToken() error {
	if c.Discord.Token == "" {
		return errors.New("no Discord token: set DISCORD_TOKEN (Developer Portal → your application → Bot → Reset Token)")
	}
	return nil
}

// NewLogger returns a logger writing to w at the configured level and format.
func (c Config) NewLogger(w io.Writer) *slog.Logger {
	var level slog.Level
	// Validate has checked the name; anything else stays at info.
	_ = level.UnmarshalText([]byte(c.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// LogValue logs every setting, the token redacted.
func (c Config) LogValue() slog.Value {
	d := c.Discord
	return slog.GroupValue(
		slog.Group("discord",
			slog.Any("token", d.Token),
			slog.String("application_id", d.ApplicationID),
			slog.Any("guild_ids", d.GuildIDs),
			slog.String("api_url", d.APIURL),
			slog.String("mode", d.Mode),
			slog.String("public_key", d.PublicKey),
			slog.Int("shard_count", d.ShardCount),
			slog.String("shard_ids", d.ShardIDs),
			slog.String("shard_down_grace", d.ShardDownGrace.String()),
			slog.Bool("register_commands", d.RegisterCommands),
		),
		slog.String("http.listen", c.HTTP.Listen),
		slog.String("http.path", c.HTTP.Path),
		slog.String("http.admin_listen", c.HTTP.AdminListen),
		slog.Int("http.max_connections", c.HTTP.MaxConnections),
		slog.String("database.path", c.Database.Path),
		slog.Any("database.url", c.Database.URL),
		slog.String("game.challenge_timeout", c.Game.ChallengeTimeout.String()),
		slog.String("game.turn_timeout", c.Game.TurnTimeout.String()),
		slog.Bool("game.simultaneous_games", c.Game.SimultaneousGames),
		slog.String("game.ai_time_budget", c.Game.AITimeBudget.String()),
		slog.String("log.level", c.Log.Level),
		slog.String("log.format", c.Log.Format),
	)
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

// isPublicKey reports whether s is an Ed25519 public key in hex.
func isPublicKey(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 32
}

// isHostPort reports whether s is a listen address: host:port, the host
// possibly empty (every interface).
func isHostPort(s string) bool {
	_, port, err := net.SplitHostPort(s)
	return err == nil && isPort(port)
}

// isPort reports whether s is a TCP port number; 0 picks a free one.
func isPort(s string) bool {
	_, err := strconv.ParseUint(s, 10, 16)
	return err == nil
}

// isSnowflake reports whether s is a Discord ID: a decimal uint64.
func isSnowflake(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

// keyTypes maps every key, "game.turn_timeout", and table, "game", to its Go
// type, read from Config's toml tags.
func keyTypes() map[string]reflect.Type {
	keys := make(map[string]reflect.Type)
	ct := reflect.TypeFor[Config]()
	for i := range ct.NumField() {
		table := ct.Field(i)
		name := table.Tag.Get("toml")
		keys[name] = table.Type
		for j := range table.Type.NumField() {
			f := table.Type.Field(j)
			keys[name+"."+f.Tag.Get("toml")] = f.Type
		}
	}
	return keys
}

// describe says what a value of type t looks like in TOML.
func describe(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[Duration]():
		return `a duration in quotes, e.g. "90s" or "2m"`
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Int:
		return "a whole number, e.g. 512"
	case t.Kind() == reflect.String:
		return "a string in quotes"
	case t.Kind() == reflect.Slice:
		return `an array of IDs in quotes, e.g. ["123456789012345678"]`
	case t.Kind() == reflect.Struct:
		return "a table"
	}
	return t.String()
}

// suggest names the known key an unknown one was probably meant to be: one
// with the same last part (a key in the wrong table) or a near spelling.
func suggest(unknown string) string {
	last := unknown[strings.LastIndex(unknown, ".")+1:]
	best, bestDist := "", 3
	for key := range keyTypes() {
		d := distance(unknown, key)
		if key[strings.LastIndex(key, ".")+1:] == last {
			d = 0
		}
		if d < bestDist || d == bestDist && key < best {
			best, bestDist = key, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
