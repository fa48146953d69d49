package config

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/pgurl"
)

// Validate checks every value, and reports all problems at once, one line
// each.
func (c Config) Validate() error { return c.validate(func(key string) string { return key }) }

// validate is Validate with each problem's key located by where, so that a
// bad value names the line or the variable that set it.
func (c Config) validate(where func(key string) string) error {
	var problems []string
	bad := func(key, format string, args ...any) {
		problems = append(problems, where(key)+": "+fmt.Sprintf(format, args...))
	}
	if c.Discord.ApplicationID != "" && !tttbot.Snowflake(c.Discord.ApplicationID) {
		bad("discord.application_id", "want a numeric ID or nothing, got %q", c.Discord.ApplicationID)
	}
	for _, id := range c.Discord.GuildIDs {
		if !tttbot.Snowflake(id) {
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
	if c.HTTP.Pprof && c.HTTP.AdminListen == "" {
		bad("http.pprof", "needs http.admin_listen, so that the profiles are never on the public listener")
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
	if c.Database.Wait.Duration < 0 {
		bad("database.wait", "must be zero (fail at once) or more, got %q", c.Database.Wait)
	}
	if u := string(c.Database.URL); u != "" {
		// The message never repeats the URL: it may hold a password.
		p, err := url.Parse(u)
		switch {
		case err != nil || (p.Scheme != "postgres" && p.Scheme != "postgresql") || p.Host == "":
			bad("database.url", "want a PostgreSQL URL, postgres://user:password@host:5432/dbname?sslmode=verify-full")
		default:
			if key, fix := rawParameter(p.RawQuery); key != "" {
				bad("database.url", "the value of parameter %s holds \"=\", which a URL must percent-encode, as PostgreSQL's own tools do: %s", key, fix)
			}
		}
	}
	for _, d := range []struct {
		key string
		d   Duration
	}{
		{"game.challenge_timeout", c.Game.ChallengeTimeout},
		{"game.turn_timeout", c.Game.TurnTimeout},
		{"game.ai_time_budget", c.Game.AITimeBudget},
		{"http.health_timeout", c.HTTP.HealthTimeout},
		{"discord.defer_after", c.Discord.DeferAfter},
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
	if c.Discord.DeferAfter.Duration >= AnswerWindow {
		bad("discord.defer_after", "must be less than %s (Discord waits %s for an answer, and the deferral must reach it), got %q",
			AnswerWindow, AnswerWindow, c.Discord.DeferAfter)
	}
	c.validateWeb(bad)
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
		return errors.New(strings.Join(problems, "\n"))
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

// validateWeb checks the [web] keys, reporting each problem to bad.
func (c Config) validateWeb(bad func(key, format string, args ...any)) {
	w := c.Web
	if u, err := url.Parse(w.PublicURL); w.PublicURL != "" &&
		(err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "") {
		bad("web.public_url", "want an http or https URL without query, e.g. \"https://ttt.example\", got %q", w.PublicURL)
	}
	if w.RateLimit < 1 {
		bad("web.rate_limit", "must be at least 1, got %d", w.RateLimit)
	}
	if !w.Enabled {
		return
	}
	if w.PublicURL == "" {
		bad("web.public_url", "required when web.enabled is true: the address people reach the pages at, used in links")
	}
	if c.HTTP.Listen == "" {
		bad("http.listen", "required when web.enabled is true: the pages are served there")
	}
	for _, prefix := range []string{"/s/", "/p/", "/g/", "/static/"} {
		if strings.HasPrefix(c.HTTP.Path+"/", prefix) {
			bad("http.path", "%q is taken by the web pages (web.enabled)", c.HTTP.Path)
		}
	}
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

// rawParameter finds the first parameter of a URL's query whose value holds
// a raw "=", which PostgreSQL's URLs refuse (libpq and pgx alike), such as
// options=-c statement_timeout=5s. fix is the parameter percent-encoded,
// options=-c%20statement_timeout%3D5s, or advice alone for a password,
// which a message must not show.
func rawParameter(query string) (key, fix string) {
	for pair := range strings.SplitSeq(query, "&") {
		k, v, _ := strings.Cut(pair, "=")
		if !strings.Contains(v, "=") {
			continue
		}
		if pgurl.Secret(k) {
			return k, "write its value percent-encoded"
		}
		if d, err := url.PathUnescape(v); err == nil {
			v = d
		}
		return k, "write " + k + "=" + strings.ReplaceAll(url.QueryEscape(v), "+", "%20")
	}
	return "", ""
}
