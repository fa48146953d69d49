package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// backupCmd writes a consistent copy of the configured database while the
// bot keeps running. It neither migrates nor creates the database.
func backupCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: bot backup [-config FILE] PATH\n\n"+
			"Writes a consistent copy of the database to PATH, which must not exist.\n\nflags:")
		fs.PrintDefaults()
	}
	path := configFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || fs.Arg(0) == "" {
		fs.Usage()
		return exitError{}
	}
	cfg, err := config.Load(*path, e.getenv)
	if err != nil {
		return err
	}
	if err := sqlite.Backup(ctx, cfg.Database.Path, fs.Arg(0)); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s to %s\n", cfg.Database.Path, fs.Arg(0))
	return nil
}
