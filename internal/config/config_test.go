package config_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tttbot/tttbot/internal/config"
)

const secret = "MTIz.sEcReT.tOkEn"

// publicKey is an application public key as the Developer Portal shows it.
const publicKey = "e3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70"

// writeFile writes a config file in a temporary directory and returns its path.
func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// env returns a getenv over vars.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestExampleIsDefault(t *testing.T) {
	got, err := config.Load("../../config.example.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(config.Default(), got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("config.example.toml differs from Default() (-want +got):\n%s", diff)
	}
}

func TestDefault(t *testing.T) {
	d := config.Default()
	if err := d.Validate(); err != nil {
		t.Fatalf("Default().Validate(): %v", err)
	}
	tests := []struct {
		name      string
		got, want any
	}{
		{"api_url", d.Discord.APIURL, "https://discord.com/api/v9"},
		{"mode", d.Discord.Mode, "gateway"},
		{"public_key", d.Discord.PublicKey, ""},
		{"http.listen", d.HTTP.Listen, "127.0.0.1:8080"},
		{"http.path", d.HTTP.Path, "/interactions"},
		{"http.admin_listen", d.HTTP.AdminListen, ""},
		{"http.max_connections", d.HTTP.MaxConnections, 512},
		{"http.health_timeout", d.HTTP.HealthTimeout.Duration, 2 * time.Second},
		{"discord.defer_after", d.Discord.DeferAfter.Duration, 2 * time.Second},
		{"database.path", d.Database.Path, "tttbot.db"},
		{"database.wait", d.Database.Wait.Duration, time.Minute},
		{"challenge_timeout", d.Game.ChallengeTimeout.Duration, 2 * time.Minute},
		{"turn_timeout", d.Game.TurnTimeout.Duration, 5 * time.Minute},
		{"ai_time_budget", d.Game.AITimeBudget.Duration, time.Second},
		{"simultaneous_games", d.Game.SimultaneousGames, false},
		{"web.enabled", d.Web.Enabled, false},
		{"web.public_url", d.Web.PublicURL, ""},
		{"web.trust_forwarded", d.Web.TrustForwarded, false},
		{"web.rate_limit", d.Web.RateLimit, 10},
		{"log.level", d.Log.Level, "info"},
		{"log.format", d.Log.Format, "text"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestLoadNoFile(t *testing.T) {
	t.Chdir(t.TempDir())
	got, err := config.Load("", env(map[string]string{"DISCORD_TOKEN": secret}))
	if err != nil {
		t.Fatal(err)
	}
	want := config.Default()
	want.Discord.Token = secret
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadDefaultPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, config.DefaultPath), []byte("[log]\nlevel = \"debug\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	got, err := config.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Log.Level != "debug" {
		t.Errorf("got level %q, want debug from ./config.toml", got.Log.Level)
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.toml")
	_, err := config.Load(path, nil)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), path) {
		t.Errorf("got %v, want a not-exist error naming %s", err, path)
	}
}

func TestLoadFile(t *testing.T) {
	path := writeFile(t, `
[discord]
application_id = "123456789012345678"
guild_ids = ["111111111111111111", "222222222222222222"]

[game]
turn_timeout = "90s"
simultaneous_games = true

[log]
format = "json"
`)
	got, err := config.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Default()
	want.Discord.ApplicationID = "123456789012345678"
	want.Discord.GuildIDs = []string{"111111111111111111", "222222222222222222"}
	want.Game.TurnTimeout.Duration = 90 * time.Second
	want.Game.SimultaneousGames = true
	want.Log.Format = "json"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadHTTPMode(t *testing.T) {
	path := writeFile(t, `
[discord]
mode = "http"
public_key = "`+publicKey+`"

[http]
listen = ":8443"
path = "/discord/interactions"
admin_listen = "127.0.0.1:9090"
max_connections = 64
health_timeout = "500ms"
`)
	got, err := config.Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Default()
	want.Discord.Mode = config.ModeHTTP
	want.Discord.PublicKey = publicKey
	want.HTTP = config.HTTP{Listen: ":8443", Path: "/discord/interactions", AdminListen: "127.0.0.1:9090", MaxConnections: 64,
		HealthTimeout: config.Duration{Duration: 500 * time.Millisecond}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadEnv(t *testing.T) {
	path := writeFile(t, "[discord]\ntoken = \"from-file\"\n[database]\npath = \"file.db\"\n")
	tests := []struct {
		name            string
		getenv          func(string) string
		wantToken, want string
	}{
		{"no environment", nil, "from-file", "file.db"},
		{"empty environment", env(nil), "from-file", "file.db"},
		{"environment wins", env(map[string]string{"DISCORD_TOKEN": secret, "TTTBOT_DATABASE_PATH": "/data/ttt.db"}), secret, "/data/ttt.db"},
		{"token trimmed", env(map[string]string{"DISCORD_TOKEN": " " + secret + "\n"}), secret, "file.db"},
		{"other variables ignored", env(map[string]string{"TTTBOT_NOT_A_KEY": "debug", "TOKEN": "x"}), "from-file", "file.db"},
	}
	for _, tt := range tests {
		got, err := config.Load(path, tt.getenv)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if string(got.Discord.Token) != tt.wantToken || got.Database.Path != tt.want {
			t.Errorf("%s: got token %q path %q, want %q %q", tt.name, string(got.Discord.Token), got.Database.Path, tt.wantToken, tt.want)
		}
		if got.Log.Level != "info" {
			t.Errorf("%s: got level %q, want info", tt.name, got.Log.Level)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, file string
		want       []string // each must appear in the message
	}{
		{"unknown key", "[game]\nturn_timout = \"5m\"\n",
			[]string{`config.toml:2: unknown key "game.turn_timout" (did you mean "game.turn_timeout"?)`}},
		{"key in the wrong table", "[game]\nlevel = \"debug\"\n",
			[]string{`config.toml:2: unknown key "game.level" (did you mean "log.level"?)`}},
		{"token outside its table", "token = \"" + secret + "\"\n",
			[]string{`config.toml:1: unknown key "token" (did you mean "discord.token"?)`}},
		{"every unknown key", "[discord]\ntoken = \"" + secret + "\"\nguild = []\n[bar]\nx = 1\n",
			[]string{`config.toml:3: unknown key "discord.guild"`, `config.toml:4: unknown key "bar"`}},
		{"bool as string", "[game]\nsimultaneous_games = \"yes\"\n",
			[]string{`config.toml:2: game.simultaneous_games: want true or false`}},
		{"number IDs", "[discord]\nguild_ids = [123]\n",
			[]string{`config.toml:2: discord.guild_ids: want an array of IDs in quotes`}},
		{"ID as string", "[discord]\nguild_ids = \"123\"\n",
			[]string{`config.toml:2: discord.guild_ids: want an array of IDs in quotes`}},
		{"string as number", "[database]\npath = 5\n",
			[]string{`config.toml:2: database.path: want a string in quotes`}},
		{"table as value", "log = \"debug\"\n",
			[]string{`config.toml:1: log: want a table`}},
		{"bad duration", "[game]\nturn_timeout = \"5 minutes\"\n",
			[]string{`config.toml:2: game.turn_timeout: invalid duration "5 minutes"`, `"2m"`}},
		{"duration without unit", "[game]\nturn_timeout = 300\n",
			[]string{`config.toml:2: game.turn_timeout: invalid duration "300": want a number and a unit in quotes`}},
		{"duration as bool", "# timers\n[game]\nchallenge_timeout = \"1m\"\nturn_timeout = true\n",
			[]string{`config.toml:4: game.turn_timeout: invalid duration "true"`}},
		{"duration as float, dotted", "game.ai_time_budget = 1.5\n",
			[]string{`config.toml:1: game.ai_time_budget: invalid duration "1.5"`}},
		{"duration in an inline table", "# timers\n\ngame = { turn_timeout = \"1m\", challenge_timeout = 60 }\n[log]\nlevel = \"info\"\n",
			[]string{`config.toml:3: game.challenge_timeout: invalid duration "60"`}},
		{"zero duration", "[game]\nchallenge_timeout = \"0s\"\n",
			[]string{`config.toml:2: game.challenge_timeout: must be more than zero, got "0s"`}},
		{"negative duration", "[game]\nai_time_budget = \"-1s\"\n",
			[]string{`config.toml:2: game.ai_time_budget: must be more than zero, got "-1s"`}},
		{"ai budget too long", "[game]\nai_time_budget = \"5s\"\n",
			[]string{`config.toml:2: game.ai_time_budget: must be at most 2s (Discord waits 3s for an answer), got "5s"`}},
		{"level", "[log]\nlevel = \"verbose\"\n",
			[]string{`config.toml:2: log.level: want debug, info, warn or error, got "verbose"`}},
		{"format", "[log]\nformat = \"xml\"\n",
			[]string{`config.toml:2: log.format: want text or json, got "xml"`}},
		{"every invalid value", "[log]\nformat = \"xml\"\nlevel = \"\"\n",
			[]string{"config.toml:2: log.format: want text or json, got \"xml\"", "config.toml:3: log.level: want debug"}},
		{"api url scheme", "[discord]\napi_url = \"ftp://discord.com/api\"\n",
			[]string{`config.toml:2: discord.api_url: want an http or https URL, got "ftp://discord.com/api"`}},
		{"api url relative", "[discord]\napi_url = \"discord.com/api\"\n",
			[]string{`config.toml:2: discord.api_url`}},
		{"guild id", "[discord]\nguild_ids = [\"123\", \"my server\"]\n",
			[]string{`config.toml:2: discord.guild_ids: want numeric guild IDs, got "my server"`}},
		{"guild id empty", "[discord]\nguild_ids = [\"\"]\n",
			[]string{`config.toml:2: discord.guild_ids`}},
		{"application id", "[discord]\napplication_id = \"tttbot\"\n",
			[]string{`config.toml:2: discord.application_id: want a numeric ID or nothing, got "tttbot"`}},
		{"mode", "[discord]\nmode = \"webhook\"\n",
			[]string{`config.toml:2: discord.mode: want gateway or http, got "webhook"`}},
		{"http mode without key", "[discord]\nmode = \"http\"\n",
			[]string{`config.toml:1: discord.public_key: required in http mode (Developer Portal`}},
		{"short public key", "[discord]\npublic_key = \"abcd\"\n",
			[]string{`config.toml:2: discord.public_key: want 64 hex characters, got "abcd"`}},
		{"http mode without listen", "[discord]\nmode = \"http\"\npublic_key = \"" + publicKey + "\"\n[http]\nlisten = \"\"\n",
			[]string{`config.toml:5: http.listen: required in http mode`}},
		{"listen without port", "[http]\nlisten = \"localhost\"\n",
			[]string{`config.toml:2: http.listen: want host:port, e.g. "127.0.0.1:8080", got "localhost"`}},
		{"admin listen without port", "[http]\nadmin_listen = \"localhost\"\n",
			[]string{`config.toml:2: http.admin_listen: want host:port, e.g. "127.0.0.1:9090", or nothing, got "localhost"`}},
		{"admin listen on listen", "[http]\nadmin_listen = \"127.0.0.1:8080\"\n",
			[]string{`config.toml:2: http.admin_listen: must differ from http.listen`}},
		{"pprof on the public listener", "[http]\npprof = true\n",
			[]string{`config.toml:2: http.pprof: needs http.admin_listen, so that the profiles are never on the public listener`}},
		{"no connections", "[http]\nmax_connections = 0\n",
			[]string{`config.toml:2: http.max_connections: must be at least 1, got 0`}},
		{"negative database wait", "[database]\nwait = \"-1s\"\n",
			[]string{`config.toml:2: database.wait: must be zero (fail at once) or more, got "-1s"`}},
		{"no health timeout", "[http]\nhealth_timeout = \"0s\"\n",
			[]string{`config.toml:2: http.health_timeout: must be more than zero, got "0s"`}},
		{"no defer after", "[discord]\ndefer_after = \"0s\"\n",
			[]string{`config.toml:2: discord.defer_after: must be more than zero, got "0s"`}},
		{"defer after the answer window", "[discord]\ndefer_after = \"3s\"\n",
			[]string{`config.toml:2: discord.defer_after: must be less than 3s (Discord waits 3s for an answer, and the deferral must reach it), got "3s"`}},
		{"connections as string", "[http]\nmax_connections = \"many\"\n",
			[]string{`config.toml:2: http.max_connections: want a whole number, e.g. 512`}},
		{"relative path", "[http]\npath = \"interactions\"\n",
			[]string{`config.toml:2: http.path: want a URL path such as "/interactions", got "interactions"`}},
		{"path taken", "[http]\npath = \"/metrics\"\n",
			[]string{`config.toml:2: http.path: "/metrics" is taken by the bot's own endpoint`}},
		{"empty database path", "[database]\npath = \"\"\n",
			[]string{`config.toml:2: database.path: must not be empty`}},
		{"token unquoted", "[discord]\ntoken = " + secret + "\n",
			[]string{`config.toml:2:9: `}},
		{"token unterminated", "[discord]\ntoken = \"" + secret + "\n",
			[]string{`config.toml:2:`}},
		{"token twice", "[discord]\ntoken = \"" + secret + "\"\ntoken = \"" + secret + "\"\n",
			[]string{`config.toml:3:1: key token is already defined`}},
		{"level in an inline table", "# logs\nlog = { format = \"json\", level = \"loud\" }\n",
			[]string{`config.toml:2: log.level: want debug, info, warn or error, got "loud"`}},
		{"level in a later table", "[game]\nturn_timeout = \"1m\"\n\n[log]\nformat = \"json\"\nlevel = \"loud\"\n",
			[]string{`config.toml:6: log.level: want debug`}},
		{"level as a dotted key", "\nlog.level = \"loud\"\n",
			[]string{`config.toml:2: log.level: want debug`}},
		{"shard out of range", "[discord]\nshard_count = 4\nshard_ids = \"2-4\"\n\n[database]\nurl = \"postgres://db.example/tttbot\"\n\n[log]\nlevel = \"info\"\n",
			[]string{`config.toml:3: discord.shard_ids: shard 4 is out of range`}},
		{"no shard grace", "[discord]\nshard_down_grace = \"0s\"\n",
			[]string{`config.toml:2: discord.shard_down_grace: must be more than zero`}},
		{"a key the file leaves out, at its table", "# modes\n\n[discord]\nmode = \"http\"\n",
			[]string{`config.toml:3: discord.public_key: required in http mode`}},
	}
	for _, tt := range tests {
		path := writeFile(t, tt.file)
		_, err := config.Load(path, nil)
		if err == nil {
			t.Errorf("%s: got no error, want %q", tt.name, tt.want)
			continue
		}
		msg := err.Error()
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: got %q, want it to contain %q", tt.name, msg, w)
			}
		}
		if !strings.HasPrefix(msg, path) {
			t.Errorf("%s: got %q, want it to start with the file name", tt.name, msg)
		}
		if strings.Contains(msg, "sEcReT") || strings.Contains(msg, "struct") {
			t.Errorf("%s: got %q, want no token and no Go types", tt.name, msg)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*config.Config)
		ok     bool
	}{
		{"default", func(*config.Config) {}, true},
		{"http url", func(c *config.Config) { c.Discord.APIURL = "http://127.0.0.1:8080/api/v9" }, true},
		{"no host", func(c *config.Config) { c.Discord.APIURL = "https:///api" }, false},
		{"bad url", func(c *config.Config) { c.Discord.APIURL = "http://[::1" }, false},
		{"max snowflake", func(c *config.Config) { c.Discord.ApplicationID = "18446744073709551615" }, true},
		{"snowflake too big", func(c *config.Config) { c.Discord.ApplicationID = "18446744073709551616" }, false},
		{"signed snowflake", func(c *config.Config) { c.Discord.GuildIDs = []string{"+123"} }, false},
		{"zero snowflake", func(c *config.Config) { c.Discord.ApplicationID = "0" }, false},
		{"leading zero", func(c *config.Config) { c.Discord.GuildIDs = []string{"0123"} }, false},
		{"upper case level", func(c *config.Config) { c.Log.Level = "DEBUG" }, false},
		{"zero turn timeout", func(c *config.Config) { c.Game.TurnTimeout.Duration = 0 }, false},
		{"http mode", func(c *config.Config) { c.Discord.Mode, c.Discord.PublicKey = "http", publicKey }, true},
		{"upper case hex key", func(c *config.Config) { c.Discord.PublicKey = strings.ToUpper(publicKey) }, true},
		{"key not hex", func(c *config.Config) { c.Discord.PublicKey = "z" + publicKey[1:] }, false},
		{"key too long", func(c *config.Config) { c.Discord.PublicKey = publicKey + "00" }, false},
		{"upper case mode", func(c *config.Config) { c.Discord.Mode = "HTTP" }, false},
		{"gateway mode without server", func(c *config.Config) { c.HTTP.Listen = "" }, true},
		{"any interface, free port", func(c *config.Config) { c.HTTP.Listen = ":0" }, true},
		{"ipv6 listen", func(c *config.Config) { c.HTTP.Listen = "[::1]:8080" }, true},
		{"port too big", func(c *config.Config) { c.HTTP.Listen = "127.0.0.1:65536" }, false},
		{"port by name", func(c *config.Config) { c.HTTP.Listen = "127.0.0.1:http" }, false},
		{"admin listen", func(c *config.Config) { c.HTTP.AdminListen = "127.0.0.1:9090" }, true},
		{"admin listen, no public server", func(c *config.Config) { c.HTTP.Listen, c.HTTP.AdminListen = "", "[::]:9090" }, true},
		{"free ports", func(c *config.Config) { c.HTTP.Listen, c.HTTP.AdminListen = "127.0.0.1:0", "127.0.0.1:0" }, true},
		{"one connection", func(c *config.Config) { c.HTTP.MaxConnections = 1 }, true},
		{"pprof on admin listen", func(c *config.Config) { c.HTTP.AdminListen, c.HTTP.Pprof = "127.0.0.1:9090", true }, true},
		{"negative connections", func(c *config.Config) { c.HTTP.MaxConnections = -1 }, false},
		{"root path", func(c *config.Config) { c.HTTP.Path = "/" }, true},
		{"pattern in path", func(c *config.Config) { c.HTTP.Path = "/{id}" }, false},
		{"healthz path", func(c *config.Config) { c.HTTP.Path = "/healthz" }, false},
		{"web", func(c *config.Config) { c.Web.Enabled, c.Web.PublicURL = true, "https://ttt.example" }, true},
		{"web under a path", func(c *config.Config) { c.Web.Enabled, c.Web.PublicURL = true, "http://example.org/ttt/" }, true},
		{"web without public url", func(c *config.Config) { c.Web.Enabled = true }, false},
		{"web without listener", func(c *config.Config) {
			c.Web.Enabled, c.Web.PublicURL, c.HTTP.Listen, c.HTTP.AdminListen = true, "https://ttt.example", "", "127.0.0.1:9090"
		}, false},
		{"web on the endpoint's path", func(c *config.Config) {
			c.Web.Enabled, c.Web.PublicURL, c.HTTP.Path = true, "https://ttt.example", "/g"
		}, false},
		{"public url not http", func(c *config.Config) { c.Web.PublicURL = "ftp://ttt.example" }, false},
		{"public url with query", func(c *config.Config) { c.Web.PublicURL = "https://ttt.example/?a=1" }, false},
		{"no rate", func(c *config.Config) { c.Web.RateLimit = 0 }, false},
	}
	for _, tt := range tests {
		c := config.Default()
		tt.change(&c)
		if err := c.Validate(); (err == nil) != tt.ok {
			t.Errorf("%s: got %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

func TestRequireToken(t *testing.T) {
	c := config.Default()
	err := c.RequireToken()
	if err == nil || !strings.Contains(err.Error(), "DISCORD_TOKEN") || strings.Contains(err.Error(), "\n") {
		t.Errorf("got %v, want a one-line error naming DISCORD_TOKEN", err)
	}
	c.Discord.Token = secret
	if err := c.RequireToken(); err != nil {
		t.Errorf("got %v, want nil", err)
	}
}

func TestTokenRedacted(t *testing.T) {
	c := config.Default()
	c.Discord.Token = secret
	c.Discord.GuildIDs = []string{"123"}
	var outputs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d", "%T"} {
		outputs = append(outputs, fmt.Sprintf(verb, c), fmt.Sprintf(verb, c.Discord), fmt.Sprintf(verb, &c))
	}
	for _, format := range []string{"text", "json"} {
		c.Log.Format = format
		var buf bytes.Buffer
		log := c.NewLogger(&buf)
		log.Info("config", "config", c, "discord", c.Discord, "ptr", &c)
		log.Info("inline", slog.Any("c", c))
		outputs = append(outputs, buf.String())
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	outputs = append(outputs, string(b))
	for _, out := range outputs {
		if strings.Contains(out, secret) || strings.Contains(out, fmt.Sprintf("%x", secret)) {
			t.Errorf("token leaked: %s", out)
		}
	}
	if got := fmt.Sprintf("%v", c); !strings.Contains(got, "[redacted]") || !strings.Contains(got, "discord.com") {
		t.Errorf("got %s, want the token redacted and the other settings shown", got)
	}
	if got := fmt.Sprintf("%+v", config.Default().Discord); strings.Contains(got, "redacted") {
		t.Errorf("got %s, want an empty token shown as empty", got)
	}
}

func TestLogValue(t *testing.T) {
	c := config.Default()
	c.Discord.Token = secret
	var buf bytes.Buffer
	c.NewLogger(&buf).Info("config loaded", "config", c)
	got := buf.String()
	for _, want := range []string{"config.discord.token=[redacted]", "config.discord.api_url=https://discord.com/api/v9",
		"config.game.turn_timeout=5m", "config.database.path=tttbot.db", "config.log.level=info",
		"config.discord.mode=gateway", "config.http.listen=127.0.0.1:8080", "config.http.path=/interactions"} {
		if !strings.Contains(got, want) {
			t.Errorf("got %s, want it to contain %s", got, want)
		}
	}
}

// TestLogValueEveryKey: every key is logged, at its table and name, so a
// new key cannot be left out of the log of the configuration.
func TestLogValueEveryKey(t *testing.T) {
	var buf bytes.Buffer
	c := config.Default()
	c.Log.Format = "json"
	c.NewLogger(&buf).Info("config loaded", "config", c)
	var line struct {
		Config map[string]map[string]any `json:"config"`
	}
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, buf.Bytes())
	}
	n := 0
	for _, key := range config.Keys() {
		table, name, _ := strings.Cut(key, ".")
		if _, ok := line.Config[table][name]; !ok {
			t.Errorf("%s not logged: %s", key, buf.Bytes())
		}
	}
	for _, keys := range line.Config {
		n += len(keys)
	}
	if want := len(config.Keys()); n != want {
		t.Errorf("got %d keys logged, want %d: %s", n, want, buf.Bytes())
	}
	if got, want := line.Config["game"]["turn_timeout"], "5m"; got != want {
		t.Errorf("got game.turn_timeout logged as %v, want %q", got, want)
	}
}

func TestNewLogger(t *testing.T) {
	tests := []struct {
		level, format string
		wantDebug     bool
		wantInfo      bool
	}{
		{"debug", "text", true, true},
		{"info", "text", false, true},
		{"warn", "json", false, false},
		{"error", "json", false, false},
	}
	for _, tt := range tests {
		c := config.Default()
		c.Log.Level, c.Log.Format = tt.level, tt.format
		var buf bytes.Buffer
		log := c.NewLogger(&buf)
		log.Debug("d")
		log.Info("i")
		log.Error("e")
		out := buf.String()
		if got := strings.Contains(out, "msg=d") || strings.Contains(out, `"msg":"d"`); got != tt.wantDebug {
			t.Errorf("%s: got debug logged %v, want %v", tt.level, got, tt.wantDebug)
		}
		if got := strings.Contains(out, "msg=i") || strings.Contains(out, `"msg":"i"`); got != tt.wantInfo {
			t.Errorf("%s: got info logged %v, want %v", tt.level, got, tt.wantInfo)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		last := lines[len(lines)-1]
		if tt.format == "json" && !json.Valid([]byte(last)) {
			t.Errorf("%s: got %q, want a JSON object", tt.format, last)
		}
		if tt.format == "text" && !strings.Contains(last, "level=ERROR msg=e") {
			t.Errorf("%s: got %q, want a text line", tt.format, last)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		in   string
		d    time.Duration
		text string
	}{
		{"2m", 2 * time.Minute, "2m"},
		{"90s", 90 * time.Second, "1m30s"},
		{"10s", 10 * time.Second, "10s"},
		{"1h", time.Hour, "1h"},
		{"1h30m", 90 * time.Minute, "1h30m"},
		{"1h0m5s", time.Hour + 5*time.Second, "1h0m5s"},
		{"1.5s", 1500 * time.Millisecond, "1.5s"},
		{"250ms", 250 * time.Millisecond, "250ms"},
		{"-2m", -2 * time.Minute, "-2m"},
		{"0", 0, "0s"},
	}
	for _, tt := range tests {
		var d config.Duration
		if err := d.UnmarshalText([]byte(tt.in)); err != nil {
			t.Errorf("UnmarshalText(%q): %v", tt.in, err)
			continue
		}
		if d.Duration != tt.d {
			t.Errorf("UnmarshalText(%q): got %v, want %v", tt.in, d.Duration, tt.d)
		}
		text, err := d.MarshalText()
		if err != nil || string(text) != tt.text {
			t.Errorf("MarshalText(%v): got %q, %v, want %q", tt.d, text, err, tt.text)
		}
		var back config.Duration
		if err := back.UnmarshalText(text); err != nil || back != d {
			t.Errorf("round trip of %q: got %v, %v, want %v", text, back, err, d)
		}
	}
	for _, bad := range []string{"", "5", "5 minutes", "m", "1d"} {
		var d config.Duration
		if err := d.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q): got %v, want an error", bad, d)
		}
	}
}

// A logger's With attributes and groups come out as the standard handlers
// write them, though NewLogger's logger applies them only when it writes.
func TestLoggerWith(t *testing.T) {
	tests := []struct {
		name string
		log  func(*slog.Logger)
	}{
		{"plain", func(l *slog.Logger) { l.Info("m", "a", 1) }},
		{"with", func(l *slog.Logger) { l.With("a", 1).With("b", "x y").Info("m", "c", true) }},
		{"group after with", func(l *slog.Logger) { l.With("a", 1).WithGroup("g").With("b", 2).Info("m", "c", 3) }},
		{"siblings", func(l *slog.Logger) {
			base := l.With("a", 1)
			base.With("b", 2).Info("m1")
			base.With("c", 3).Info("m2")
			base.Info("m3")
		}},
		{"below the level", func(l *slog.Logger) { l.With("a", 1).Debug("hidden") }},
		{"a LogValuer, read once", func(l *slog.Logger) {
			w := l.With("n", new(reads))
			w.Info("m1")
			w.Info("m2")
		}},
	}
	for _, format := range []string{"text", "json"} {
		for _, tt := range tests {
			c := config.Default()
			c.Log.Format = format
			var got, want bytes.Buffer
			tt.log(c.NewLogger(&got))
			opts := &slog.HandlerOptions{}
			std := slog.New(slog.NewTextHandler(&want, opts))
			if format == "json" {
				std = slog.New(slog.NewJSONHandler(&want, opts))
			}
			tt.log(std)
			if g, w := withoutTime(got.String()), withoutTime(want.String()); g != w {
				t.Errorf("%s, %s: got\n%s\nwant\n%s", format, tt.name, g, w)
			}
		}
	}
}

// reads counts the times it is read as a log value.
type reads int

func (r *reads) LogValue() slog.Value {
	*r++
	return slog.IntValue(int(*r))
}

var timeField = regexp.MustCompile(`(time=\S+ |"time":"[^"]*",)`)

func withoutTime(s string) string { return timeField.ReplaceAllString(s, "") }

// BenchmarkLoggerWith is an interaction's logger that writes nothing.
func BenchmarkLoggerWith(b *testing.B) {
	c := config.Default()
	c.Log.Format = "json"
	log := c.NewLogger(io.Discard)
	b.ReportAllocs()
	for b.Loop() {
		l := log.With("interaction", "1234567890123456789", "guild", "1234567890123456789", "channel", "1234567890123456789")
		l.Debug("interaction answered", "type", 3)
	}
}
