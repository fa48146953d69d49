package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runDispatch calls dispatch as main does, with no environment.
func runDispatch(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	err = dispatch(t.Context(), e, args)
	return out.String(), errb.String(), err
}

// A subcommand that takes no arguments refuses them rather than ignore them
// (`bot run my.toml` ran on the defaults), and shows its usage.
func TestStrayArguments(t *testing.T) {
	file := filepath.Join(t.TempDir(), "settings")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "my.toml"}, `unexpected argument "my.toml" (did you mean -config my.toml?)`},
		{[]string{"register", "my.toml"}, `unexpected argument "my.toml" (did you mean -config my.toml?)`},
		{[]string{"healthcheck", "my.toml"}, `unexpected argument "my.toml" (did you mean -config my.toml?)`},
		{[]string{"run", file}, `unexpected argument "` + file + `" (did you mean -config ` + file + `?)`},
		{[]string{"-config", "a.toml", "run", "b"}, `unexpected argument "run"`},
		{[]string{"run", "now"}, `unexpected argument "now"`},
		{[]string{"arena", "-games", "1", "my.toml"}, `arena: unexpected argument "my.toml"`},
	}
	for _, tt := range tests {
		_, errOut, err := runDispatch(t, tt.args...)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: got error %v, want %q", tt.args, err, tt.want)
		}
		name := "run"
		if tt.args[0] != "-config" && tt.args[0] != "my.toml" {
			name = tt.args[0]
		}
		if !strings.HasPrefix(errOut, "usage: bot "+name+" ") {
			t.Errorf("%q: got %q on stderr, want the usage of bot %s", tt.args, errOut, name)
		}
	}
	if _, errOut, err := runDispatch(t, "my.toml"); !errors.As(err, new(exitError)) || !strings.HasPrefix(errOut, `bot: unknown command "my.toml" (did you mean -config my.toml?)`) {
		t.Errorf("got %v, %q; want an unknown command with a hint", err, errOut)
	}
}

// Help goes to stdout and exits 0; asking for a command's help shows that
// command's. An unknown command and a bad flag go to stderr.
func TestHelp(t *testing.T) {
	const commands = "commands:\n  run           run the bot (the default)\n"
	tests := []struct {
		args   []string
		stdout string // a part of it
		stderr string // a part of it; "" for empty
		err    error  // nil, flag.ErrHelp or exitError{}
	}{
		{[]string{"help"}, commands, "", nil},
		{[]string{"-h"}, commands, "", nil},
		{[]string{"-help"}, commands, "", nil},
		{[]string{"--help"}, commands, "", nil},
		{[]string{"help", "analyze"}, "usage: bot analyze [-k K]", "", flag.ErrHelp},
		{[]string{"analyze", "-h"}, "  -budget duration\n", "", flag.ErrHelp},
		{[]string{"analyze", "XO./.X./..O", "-h"}, "usage: bot analyze", "", flag.ErrHelp},
		{[]string{"help", "run"}, "usage: bot run [-config FILE]\n\nRuns the bot", "", flag.ErrHelp},
		{[]string{"run", "-h"}, "usage: bot run", "", flag.ErrHelp},
		{[]string{"migrate", "-h"}, "  down    roll back the latest migration", "", flag.ErrHelp},
		{[]string{"help", "nope"}, "", `bot: unknown command "nope"`, exitError{}},
		{[]string{"rnu"}, "", "bot: unknown command \"rnu\" (did you mean run?)\n\nusage: bot [command]", exitError{}},
		{[]string{"help", "migrat"}, "", `bot: unknown command "migrat" (did you mean migrate?)`, exitError{}},
		{[]string{"hepl"}, "", `bot: unknown command "hepl" (did you mean help?)`, exitError{}},
		{[]string{"nope"}, "", "\n\nusage: bot [command] [flags]\n\n" + commands + "  register      register", exitError{}},
		{[]string{"analyze", "-nope"}, "", "flag provided but not defined: -nope\nusage: bot analyze", errors.New("flag provided but not defined: -nope")},
	}
	for _, tt := range tests {
		out, errOut, err := runDispatch(t, tt.args...)
		if tt.stdout == "" && out != "" || !strings.Contains(out, tt.stdout) {
			t.Errorf("%q: got stdout %q, want %q in it", tt.args, out, tt.stdout)
		}
		if tt.stderr == "" && errOut != "" || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("%q: got stderr %q, want %q in it", tt.args, errOut, tt.stderr)
		}
		if fmtErr(err) != fmtErr(tt.err) {
			t.Errorf("%q: got error %v, want %v", tt.args, err, tt.err)
		}
	}
	// Every command has its own help.
	for _, c := range subcommands() {
		out, errOut, err := runDispatch(t, "help", c.name)
		if !errors.Is(err, flag.ErrHelp) || !strings.HasPrefix(out, "usage: bot "+c.name+" ") || !strings.Contains(out, "\nflags:\n") || errOut != "" {
			t.Errorf("help %s: got %v, stdout %q, stderr %q; want its usage and flags on stdout", c.name, err, out, errOut)
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// Backup, like every subcommand, takes flags after its argument.
func TestBackupCmdFlagsAfterPath(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, err := invoke(t, migrateCmd, dir, "up"); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	dest := filepath.Join(dir, "copy.db")
	out, errOut, err := runDispatch(t, "backup", dest, "-config", filepath.Join(dir, "bot.toml"))
	if err != nil || !strings.Contains(out, "to "+dest) {
		t.Fatalf("got %v, %q, %q; want the configured database backed up", err, out, errOut)
	}
	if _, err := os.Stat(dest); err != nil {
		t.Error(err)
	}
}

// A misspelt TTTBOT_ variable stops the subcommands that read the
// configuration, as a misspelt key in the file does, before they act.
func TestMisspeltVariable(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"run"}, {"migrate", "up"}, {"backup", filepath.Join(dir, "copy.db")}, {"healthcheck"}} {
		t.Run(args[0], func(t *testing.T) {
			var out, errb bytes.Buffer
			e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb,
				getenv: func(k string) string {
					if k == "TTTBOT_DATABASE_PATH" {
						return filepath.Join(dir, "tttbot.db")
					}
					return ""
				},
				environ: func() []string { return []string{"TTTBOT_GAME_TURN_TIMOUT=10m"} },
			}
			err := dispatch(t.Context(), e, args)
			want := "unknown variable TTTBOT_GAME_TURN_TIMOUT (did you mean TTTBOT_GAME_TURN_TIMEOUT?)"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want an error saying %q", err, want)
			}
			if _, err := os.Stat(filepath.Join(dir, "tttbot.db")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the database was touched: %v", err)
			}
		})
	}
}
