package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// Set by scripts/build.sh with -ldflags -X, which knows the release tag and
// the commit even where the build has no .git (a container build's context).
// They are the only package variables, written by the linker alone.
var (
	version string
	commit  string
)

// versionCmd prints what the binary was built from.
func versionCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot version", "", "Prints the version, commit, Go version, SQLite version and platform.")
	rest, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs(fs, rest); err != nil {
		return err
	}
	v, c := buildVersion(version, commit)
	fmt.Fprintf(e.stdout, "version  %s\ncommit   %s\ngo       %s\nsqlite   %s\nplatform %s/%s\n",
		v, c, runtime.Version(), sqlite.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}

// buildVersion fills in what the linker left empty from the build info:
// go install of a tagged module knows its version, and a build in a git
// checkout its commit.
func buildVersion(version, commit string) (string, string) {
	info, ok := debug.ReadBuildInfo()
	if ok && version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		version = info.Main.Version
	}
	if ok && commit == "" {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				commit = s.Value
			}
		}
	}
	if version == "" {
		version = "devel"
	}
	if commit == "" {
		commit = "unknown"
	}
	return version, commit
}
