package config

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pelletier/go-toml/v2"
)

// TestExampleSetsEveryKey keeps config.example.toml a full reference: it
// must write out every key the bot reads, not lean on defaults.
func TestExampleSetsEveryKey(t *testing.T) {
	data, err := os.ReadFile("../../config.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for table, keys := range doc {
		got = append(got, table)
		for key := range keys {
			got = append(got, table+"."+key)
		}
	}
	for key := range keyTypes() {
		want = append(want, key)
	}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keys of config.example.toml (-want +got):\n%s", diff)
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct{ unknown, want string }{
		{"game.turn_timout", "game.turn_timeout"},
		{"game.turntimeout", "game.turn_timeout"},
		{"discord.guilds_ids", "discord.guild_ids"},
		{"discord.guild_id", "discord.guild_ids"},
		{"logs", "log"},
		{"game.format", "log.format"},
		{"path", "database.path"},
		{"server.port", ""},
		{"x", ""},
	}
	for _, tt := range tests {
		got := suggest(tt.unknown)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, `"`+tt.want+`"`) {
			t.Errorf("suggest(%q): got %q, want %q", tt.unknown, got, tt.want)
		}
	}
}

// FuzzParse checks that no file makes parsing or validation panic, and that
// a config that parses writes back to TOML that parses to the same config.
func FuzzParse(f *testing.F) {
	for _, path := range []string{"../../config.example.toml"} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"",
		"[game]\nturn_timout = \"5m\"\n",
		"[game]\nturn_timeout = 300\n",
		"game = { turn_timeout = 1.5 }\ngame.challenge_timeout = true\n",
		"[game]\nturn_timeout = \"-5m\"\n",
		"[discord]\nguild_ids = [123, \"456\"]\n",
		"[discord]\ntoken = \"abc\"\ntoken = \"abc\"\n",
		"log = \"debug\"\n",
		"[log]\nlevel = \"debug\"\nformat = \"json\"\n[database]\npath = \"/tmp/x.db\"\n",
		"[discord.sub]\nx = 1\n",
		"[[discord]]\n",
		"discord.token = \"\\u0000\"\n",
		"[game]\nsimultaneous_games = true\nai_time_budget = \"1.5s\"\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := parse("fuzz.toml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.toml") {
				t.Fatalf("got %q, want it to start with the file name", err)
			}
			if strings.Contains(err.Error(), "invalid duration") && !regexp.MustCompile(`^fuzz\.toml:\d+: `).MatchString(err.Error()) {
				t.Fatalf("got %q, want the bad duration's line", err)
			}
			return
		}
		_ = cfg.Validate()
		out, err := toml.Marshal(cfg)
		if err != nil {
			t.Fatalf("marshal %+v: %v", cfg, err)
		}
		back, err := parse("fuzz.toml", out)
		if err != nil {
			t.Fatalf("parse of marshaled %q: %v", out, err)
		}
		if diff := cmp.Diff(cfg, back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip (-first +second):\n%s", diff)
		}
	})
}

// TestEnvSetsEveryKey holds every key to having a variable that sets it, so
// a key of a type setEnv does not know fails here, not in a deployment.
func TestEnvSetsEveryKey(t *testing.T) {
	// A bool gets both values, since one of them is its default.
	values := map[reflect.Type][]string{
		reflect.TypeFor[Duration]():    {"7m"},
		reflect.TypeFor[string]():      {"set"},
		reflect.TypeFor[Secret]():      {"set"},
		reflect.TypeFor[DatabaseURL](): {"postgres://db.example/tttbot"},
		reflect.TypeFor[bool]():        {"true", "false"},
		reflect.TypeFor[int]():         {"7"},
		reflect.TypeFor[[]string]():    {"7,8"},
	}
	for key, typ := range keyTypes() {
		if typ.Kind() == reflect.Struct && typ != reflect.TypeFor[Duration]() {
			continue // a table
		}
		candidates, ok := values[typ]
		if !ok {
			t.Errorf("%s: got type %s, want one the environment can set", key, typ)
			continue
		}
		changed := false
		for _, value := range candidates {
			cfg := Default()
			set, err := cfg.applyEnv(func(name string) string {
				if name == EnvVar(key) {
					return value
				}
				return ""
			})
			if err != nil {
				t.Errorf("%s: %v", key, err)
				continue
			}
			changed = changed || set[key] && !reflect.DeepEqual(cfg, Default())
		}
		if !changed {
			t.Errorf("%s: %s=%v changed nothing", key, EnvVar(key), candidates)
		}
	}
}
