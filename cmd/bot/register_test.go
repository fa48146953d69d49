package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

func TestRegisterCmd(t *testing.T) {
	srv := discordtest.NewServer(t)
	tests := []struct {
		name   string
		guilds string
		want   string // the guild whose commands are checked, "" for global
	}{
		{"global", `[]`, ""},
		{"guild", fmt.Sprintf("[%q]", srv.GuildID()), srv.GuildID()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := filepath.Join(t.TempDir(), "bot.toml")
			toml := fmt.Sprintf("[discord]\napi_url = %q\nguild_ids = %s\n", srv.URL(), tt.guilds)
			if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			e := env{stdin: strings.NewReader(""), stdout: &stderr, stderr: &stderr, getenv: func(k string) string {
				if k == "DISCORD_TOKEN" {
					return srv.Token()
				}
				return ""
			}}
			if err := registerCmd(context.Background(), e, []string{"-config", cfg}); err != nil {
				t.Fatalf("register: %v\n%s", err, stderr.String())
			}
			cmds := srv.Commands(tt.want)
			if len(cmds) != 2 || cmds[0].Name != "ttt" || cmds[1].Name != "ttt-admin" {
				t.Fatalf("got %d commands, want /ttt and /ttt-admin", len(cmds))
			}
			// Discord keeps where a command is offered as it was registered.
			if it, c := cmds[0].IntegrationTypes, cmds[0].Contexts; it == nil || len(*it) != 2 || c == nil || len(*c) != 3 {
				t.Errorf("/ttt registered with integration types %v and contexts %v, want both installs in all three contexts", it, c)
			}
			if strings.Contains(stderr.String(), srv.Token()) {
				t.Errorf("the token appears in the output:\n%s", stderr.String())
			}
		})
	}
}

func TestRunWithoutToken(t *testing.T) {
	var stderr bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &stderr, stderr: &stderr, getenv: func(string) string { return "" }}
	err := runCmd(context.Background(), e, []string{"-config", filepath.Join("testdata", "missing.toml")})
	if err == nil {
		t.Fatal("got no error for a missing config file")
	}
	err = runCmd(context.Background(), e, nil)
	if err == nil || !strings.Contains(err.Error(), "DISCORD_TOKEN") {
		t.Errorf("got %v, want an error that says to set DISCORD_TOKEN", err)
	}
}

// A stop asked for while a subcommand that reaches Discord starts is no
// failure: each exits 0, saying it stopped.
func TestStopWhileStarting(t *testing.T) {
	srv := discordtest.NewServer(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bot.toml")
	toml := fmt.Sprintf("[discord]\napi_url = %q\n[http]\nlisten = \"127.0.0.1:0\"\n[database]\npath = %q\n", srv.URL(), filepath.Join(dir, "tttbot.db"))
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"run", "register"} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			var stderr bytes.Buffer
			e := env{stdin: strings.NewReader(""), stdout: &stderr, stderr: &stderr, getenv: func(k string) string {
				if k == "DISCORD_TOKEN" {
					return srv.Token()
				}
				return ""
			}}
			if err := dispatch(ctx, e, []string{name, "-config", cfg}); err != nil {
				t.Errorf("got %v, want nil\n%s", err, stderr.String())
			}
			if !strings.Contains(stderr.String(), "stopped while starting") {
				t.Errorf("got %q, want it to say it stopped while starting", stderr.String())
			}
		})
	}
}
