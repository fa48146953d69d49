package cli_test

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/cli"
)

func TestParseArgs(t *testing.T) {
	tests := []struct {
		args       []string
		positional []string
		k          int
		json       bool
	}{
		{nil, nil, 0, false},
		{[]string{"-k", "4", "a"}, []string{"a"}, 4, false},
		{[]string{"XO./.X./..O", "-k", "9"}, []string{"XO./.X./..O"}, 9, false},
		{[]string{"a", "-json", "b", "-k=5", "c"}, []string{"a", "b", "c"}, 5, true},
		{[]string{"a", "--", "-k", "5"}, []string{"a", "-k", "5"}, 0, false},
		{[]string{"--", "a", "-json"}, []string{"a", "-json"}, 0, false},
		{[]string{"-json", "--"}, nil, 0, true},
		{[]string{"-", "-k", "3"}, []string{"-"}, 3, false},
	}
	for _, tt := range tests {
		fs := cli.NewFlagSet("test", "", "")
		k := fs.Int("k", 0, "")
		asJSON := fs.Bool("json", false, "")
		got, err := cli.Parse(fs, io.Discard, io.Discard, tt.args)
		if err != nil || !slices.Equal(got, tt.positional) || *k != tt.k || *asJSON != tt.json {
			t.Errorf("%q: got %q, -k %d, -json %v, %v; want %q, -k %d, -json %v", tt.args, got, *k, *asJSON, err, tt.positional, tt.k, tt.json)
		}
	}
}

// Help goes to stdout with flag.ErrHelp; a bad flag's error and the usage
// go to stderr.
func TestParseUsage(t *testing.T) {
	tests := []struct {
		args           []string
		stdout, stderr string
		err            string
	}{
		{[]string{"-h"}, "usage: prog [-n N] ARG\n\nDoes things.\n\nflags:\n  -n int\n    \ta number\n", "", flag.ErrHelp.Error()},
		{[]string{"a", "--help"}, "usage: prog [-n N] ARG\n", "", flag.ErrHelp.Error()},
		{[]string{"a", "-x"}, "", "flag provided but not defined: -x\nusage: prog [-n N] ARG\n", "flag provided but not defined: -x"},
	}
	for _, tt := range tests {
		fs := cli.NewFlagSet("prog", "[-n N] ARG", "Does things.")
		fs.Int("n", 0, "a number")
		var stdout, stderr bytes.Buffer
		_, err := cli.Parse(fs, &stdout, &stderr, tt.args)
		if err == nil || err.Error() != tt.err {
			t.Errorf("%q: got error %v, want %s", tt.args, err, tt.err)
		}
		if !strings.HasPrefix(stdout.String(), tt.stdout) || tt.stdout == "" && stdout.Len() > 0 {
			t.Errorf("%q: got stdout %q, want it to start with %q", tt.args, stdout.String(), tt.stdout)
		}
		if !strings.HasPrefix(stderr.String(), tt.stderr) || tt.stderr == "" && stderr.Len() > 0 {
			t.Errorf("%q: got stderr %q, want it to start with %q", tt.args, stderr.String(), tt.stderr)
		}
	}
}

// A stray argument is an error, with a hint when it names a config file and
// the command has -config, after the command's usage.
func TestNoArgs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "settings")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	withConfig := cli.NewFlagSet("with", "", "")
	withConfig.String("config", "", "")
	without := cli.NewFlagSet("without", "", "")
	tests := []struct {
		fs   *flag.FlagSet
		args []string
		want string // "" for no error
	}{
		{withConfig, nil, ""},
		{withConfig, []string{"my.toml"}, `unexpected argument "my.toml" (did you mean -config my.toml?)`},
		{withConfig, []string{file, "b"}, `unexpected argument "` + file + `" (did you mean -config ` + file + `?)`},
		{withConfig, []string{dir}, `unexpected argument "` + dir + `"`},
		{withConfig, []string{"now"}, `unexpected argument "now"`},
		{without, []string{"my.toml"}, `unexpected argument "my.toml"`},
	}
	for _, tt := range tests {
		var out strings.Builder
		tt.fs.SetOutput(&out)
		err := cli.NoArgs(tt.fs, tt.args)
		if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && got != tt.want {
			t.Errorf("%s %q: got %v, want %q", tt.fs.Name(), tt.args, err, tt.want)
		}
		if got, want := strings.HasPrefix(out.String(), "usage: "+tt.fs.Name()), tt.want != ""; got != want {
			t.Errorf("%s %q: printed %q; want the usage: %t", tt.fs.Name(), tt.args, out.String(), want)
		}
	}
}
