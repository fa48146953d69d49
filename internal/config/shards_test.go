package config_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/config"
)

func TestParseShardIDs(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr string // a part of the error
	}{
		{"", nil, ""},
		{"  ", nil, ""},
		{"0", []int{0}, ""},
		{"0-3", []int{0, 1, 2, 3}, ""},
		{"2-2", []int{2}, ""},
		{"0,2,5-7", []int{0, 2, 5, 6, 7}, ""},
		{" 5-6 , 0 ", []int{0, 5, 6}, ""},
		{"0 - 1", []int{0, 1}, ""},
		{"007", []int{7}, ""},
		{"65535", []int{65535}, ""},
		{"3-1", nil, `range "3-1" runs backwards`},
		{"0-3,2", nil, "shard 2 is listed twice"},
		{"1,1", nil, "shard 1 is listed twice"},
		{"0,,1", nil, "empty item"},
		{"0,", nil, "empty item"},
		{"-1", nil, `"-1": want a shard ID`},
		{"+1", nil, `"+1": want a shard ID`},
		{"1-", nil, `"1-": want a shard ID`},
		{"0-1-2", nil, `"0-1-2": want a shard ID`},
		{"0x1", nil, `"0x1": want a shard ID`},
		{"one", nil, `"one": want a shard ID`},
		{"0 1", nil, `"0 1": want a shard ID`},
		{"0;1", nil, `"0;1": want a shard ID`},
		{"65536", nil, "must be below 65536"},
		{"99999999999999999999", nil, "must be below 65536"},
	}
	for _, tt := range tests {
		got, err := config.ParseShardIDs(tt.in)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("ParseShardIDs(%q): got error %v, want %v", tt.in, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("ParseShardIDs(%q): got %v, %v; want an error with %q", tt.in, got, err, tt.wantErr)
		case !slices.Equal(got, tt.want):
			t.Errorf("ParseShardIDs(%q): got %v, want %v", tt.in, got, tt.want)
		}
	}
}

// FuzzParseShardIDs holds the parser to its contract on any input: either
// an error, or sorted distinct IDs below MaxShards that read back the same
// when written out again.
func FuzzParseShardIDs(f *testing.F) {
	for _, s := range []string{"", "0-3", "0,2,5-7", " 1 , 3-4", "3-1", "1,1", "-", "65535", "0-65535"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, err := config.ParseShardIDs(s)
		if err != nil {
			if ids != nil {
				t.Errorf("ParseShardIDs(%q): got %v with error %v, want nothing", s, ids, err)
			}
			return
		}
		for i, id := range ids {
			if id < 0 || id >= config.MaxShards || i > 0 && id <= ids[i-1] {
				t.Fatalf("ParseShardIDs(%q): got %v, want sorted distinct IDs below %d", s, ids, config.MaxShards)
			}
		}
		if ids == nil && strings.TrimSpace(s) != "" {
			t.Errorf("ParseShardIDs(%q): got every shard for a non-empty list", s)
		}
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = strconv.Itoa(id)
		}
		back, err := config.ParseShardIDs(strings.Join(parts, ","))
		if err != nil || !slices.Equal(back, ids) {
			t.Errorf("ParseShardIDs(%q) = %v, written out and read again: got %v, %v", s, ids, back, err)
		}
	})
}

func TestValidateShards(t *testing.T) {
	const pg = config.DatabaseURL("postgres://tttbot@db.example/tttbot")
	shards := func(count int, ids string, url config.DatabaseURL) func(*config.Config) {
		return func(c *config.Config) {
			c.Discord.ShardCount, c.Discord.ShardIDs, c.Database.URL = count, ids, url
		}
	}
	tests := []struct {
		name    string
		change  func(*config.Config)
		wantErr string // a part of the error; "" for none
	}{
		{"default: Discord's count, every shard", func(*config.Config) {}, ""},
		{"a count", shards(4, "", ""), ""},
		{"every shard, listed", shards(4, "0-3", ""), ""},
		{"some shards on PostgreSQL", shards(4, "2-3", pg), ""},
		{"the last shard on PostgreSQL", shards(4, "3", pg), ""},
		{"some shards on SQLite", shards(4, "2-3", ""),
			"discord.shard_ids: runs 2 of the 4 shards: processes that share the shards must share a PostgreSQL database (database.url)"},
		{"shard out of range", shards(4, "2-4", pg), "shard 4 is out of range: with discord.shard_count 4 the shards are 0-3"},
		{"shards without a count", shards(0, "0-1", pg), "discord.shard_ids: needs discord.shard_count"},
		{"bad list", shards(4, "0,x", pg), `discord.shard_ids: "x": want a shard ID`},
		{"negative count", shards(-1, "", ""), "discord.shard_count: want 0 (Discord's recommendation) or a count up to 65536, got -1"},
		{"count too big", shards(config.MaxShards+1, "", ""), "discord.shard_count"},
		{"no grace", func(c *config.Config) { c.Discord.ShardDownGrace.Duration = 0 }, "discord.shard_down_grace: must be more than zero"},
		{"count in http mode", func(c *config.Config) {
			c.Discord.Mode, c.Discord.PublicKey, c.Discord.ShardCount = config.ModeHTTP, publicKey, 2
		}, "discord.shard_count: applies to gateway mode only"},
		{"shards in http mode", func(c *config.Config) {
			c.Discord.Mode, c.Discord.PublicKey, c.Discord.ShardIDs = config.ModeHTTP, publicKey, "0"
		}, "discord.shard_ids: applies to gateway mode only"},
	}
	for _, tt := range tests {
		c := config.Default()
		tt.change(&c)
		err := c.Validate()
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: got %v, want no error", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: got %v, want an error with %q", tt.name, err, tt.wantErr)
		}
	}
}

// The sharding keys come from the environment like any other, and a bad
// list names its variable.
func TestLoadShardEnv(t *testing.T) {
	env := map[string]string{
		"TTTBOT_DISCORD_SHARD_COUNT": "8", "TTTBOT_DISCORD_SHARD_IDS": "4-7", "TTTBOT_DISCORD_SHARD_DOWN_GRACE": "30s",
		"TTTBOT_DATABASE_URL": "postgres://tttbot@db.example/tttbot",
	}
	cfg, err := config.Load("", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if d := cfg.Discord; d.ShardCount != 8 || d.ShardIDs != "4-7" || d.ShardDownGrace.String() != "30s" {
		t.Errorf("got count %d, shards %q, grace %s; want 8, \"4-7\", 30s", d.ShardCount, d.ShardIDs, d.ShardDownGrace)
	}
	env["TTTBOT_DISCORD_SHARD_IDS"] = "4-8"
	_, err = config.Load("", func(k string) string { return env[k] })
	if want := "TTTBOT_DISCORD_SHARD_IDS (discord.shard_ids): shard 8 is out of range"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error with %q", err, want)
	}
}
