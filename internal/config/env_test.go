package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot/internal/config"
)

func TestEnvVar(t *testing.T) {
	tests := []struct{ key, want string }{
		{"discord.token", "DISCORD_TOKEN"},
		{"discord.guild_ids", "TTTBOT_DISCORD_GUILD_IDS"},
		{"http.listen", "TTTBOT_HTTP_LISTEN"},
		{"database.path", "TTTBOT_DATABASE_PATH"},
		{"game.turn_timeout", "TTTBOT_GAME_TURN_TIMEOUT"},
		{"discord.defer_after", "TTTBOT_DISCORD_DEFER_AFTER"},
	}
	for _, tt := range tests {
		if got := config.EnvVar(tt.key); got != tt.want {
			t.Errorf("EnvVar(%q): got %q, want %q", tt.key, got, tt.want)
		}
	}
}

func TestKeys(t *testing.T) {
	keys := config.Keys()
	for _, want := range []string{"discord.token", "discord.guild_ids", "http.listen", "database.path", "game.simultaneous_games", "log.format"} {
		found := false
		for _, k := range keys {
			found = found || k == want
		}
		if !found {
			t.Errorf("Keys(): got %q, want %s among them", keys, want)
		}
	}
}

// TestLoadEnvKeys sets keys of every type from the environment alone.
func TestLoadEnvKeys(t *testing.T) {
	want := config.Default()
	want.Discord.Token = secret
	want.Discord.GuildIDs = []string{"123", "456"}
	want.Discord.Mode = config.ModeHTTP
	want.Discord.PublicKey = publicKey
	want.HTTP.Listen = ":8080"
	want.Database.Path = "/data/tttbot.db"
	want.Game.TurnTimeout = config.Duration{90 * time.Second}
	want.Game.SimultaneousGames = true
	want.Log.Format = "json"
	want.Discord.DeferAfter = config.Duration{1500 * time.Millisecond}
	got, err := config.Load("", env(map[string]string{
		"TTTBOT_DISCORD_DEFER_AFTER":     "1.5s",
		"DISCORD_TOKEN":                  secret + "\n",
		"TTTBOT_DISCORD_GUILD_IDS":       " 123, 456,",
		"TTTBOT_DISCORD_MODE":            "http",
		"TTTBOT_DISCORD_PUBLIC_KEY":      publicKey,
		"TTTBOT_HTTP_LISTEN":             ":8080",
		"TTTBOT_DATABASE_PATH":           "/data/tttbot.db",
		"TTTBOT_GAME_TURN_TIMEOUT":       "90s",
		"TTTBOT_GAME_SIMULTANEOUS_GAMES": "true",
		"TTTBOT_LOG_FORMAT":              "json",
		"TTTBOT_LOG_LEVEL":               " ", // blank: the default stays
	}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadEnvWinsOverFile(t *testing.T) {
	path := writeFile(t, "[game]\nturn_timeout = \"1m\"\nchallenge_timeout = \"3m\"\n")
	got, err := config.Load(path, env(map[string]string{"TTTBOT_GAME_TURN_TIMEOUT": "10m"}))
	if err != nil {
		t.Fatal(err)
	}
	if got.Game.TurnTimeout.Duration != 10*time.Minute || got.Game.ChallengeTimeout.Duration != 3*time.Minute {
		t.Errorf("got turn %s challenge %s, want 10m 3m", got.Game.TurnTimeout, got.Game.ChallengeTimeout)
	}
}

func TestLoadEnvErrors(t *testing.T) {
	tests := []struct {
		name string
		vars map[string]string
		want []string // each must appear in the message
	}{
		{"not a duration", map[string]string{"TTTBOT_GAME_TURN_TIMEOUT": "5"},
			[]string{`environment: TTTBOT_GAME_TURN_TIMEOUT: want a number and a unit, e.g. 90s or 2m, got "5"`}},
		{"not a bool", map[string]string{"TTTBOT_GAME_SIMULTANEOUS_GAMES": "yes please"},
			[]string{`TTTBOT_GAME_SIMULTANEOUS_GAMES: want true or false, got "yes please"`}},
		{"every bad value at once", map[string]string{"TTTBOT_GAME_TURN_TIMEOUT": "soon", "TTTBOT_GAME_AI_TIME_BUDGET": "fast"},
			[]string{"TTTBOT_GAME_TURN_TIMEOUT: ", "TTTBOT_GAME_AI_TIME_BUDGET: "}},
		{"invalid value", map[string]string{"TTTBOT_GAME_TURN_TIMEOUT": "0s"},
			[]string{`TTTBOT_GAME_TURN_TIMEOUT (game.turn_timeout): must be more than zero, got "0s"`}},
		{"invalid name", map[string]string{"TTTBOT_LOG_LEVEL": "loud"},
			[]string{`TTTBOT_LOG_LEVEL (log.level): want debug, info, warn or error, got "loud"`}},
		{"invalid ID", map[string]string{"TTTBOT_DISCORD_GUILD_IDS": "123,abc"},
			[]string{`TTTBOT_DISCORD_GUILD_IDS (discord.guild_ids): want numeric guild IDs, got "abc"`}},
		{"invalid address", map[string]string{"TTTBOT_HTTP_LISTEN": "8080"},
			[]string{`environment: TTTBOT_HTTP_LISTEN (http.listen): want host:port`}},
		{"a key no one set", map[string]string{"TTTBOT_DISCORD_MODE": "http"},
			[]string{`config: discord.public_key: required in http mode`}},
	}
	for _, tt := range tests {
		_, err := config.Load("", env(tt.vars))
		if err == nil {
			t.Errorf("%s: got no error, want one", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: got %q, want it to contain %q", tt.name, err, w)
			}
		}
	}
}

func TestCheckEnviron(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		want    string // "" for no error
	}{
		{"none", nil, ""},
		{"known and foreign", []string{"TTTBOT_GAME_TURN_TIMEOUT=10m", "DISCORD_TOKEN=x", "HOME=/root", "TTTBOT_DATABASE_PATH=/data/tttbot.db"}, ""},
		{"misspelt", []string{"TTTBOT_GAME_TURN_TIMOUT=10m"}, "environment: unknown variable TTTBOT_GAME_TURN_TIMOUT (did you mean TTTBOT_GAME_TURN_TIMEOUT?)"},
		{"unlike any", []string{"TTTBOT_COLOUR=blue"}, "environment: unknown variable TTTBOT_COLOUR"},
		{"empty value", []string{"TTTBOT_LOG_LEVL="}, "environment: unknown variable TTTBOT_LOG_LEVL (did you mean TTTBOT_LOG_LEVEL?)"},
		{"the tests'", []string{"TTTBOT_TEST_POSTGRES=postgres://127.0.0.1/test"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := config.CheckEnviron(tt.environ)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
