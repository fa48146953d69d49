package main

import (
	"context"
	"fmt"

	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// backupCmd writes a consistent copy of the configured database while the
// bot keeps running. It neither migrates nor creates the database.
func backupCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot backup", "[-config FILE] PATH", "Writes a consistent copy of the database to PATH, which must not exist.")
	path := configFlag(fs)
	args, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if len(args) != 1 || args[0] == "" {
		fs.Usage()
		return exitError{}
	}
	cfg, err := loadConfig(*path, e)
	if err != nil {
		return err
	}
	if err := sqlite.Backup(ctx, cfg.Database.Path, args[0]); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s to %s\n", cfg.Database.Path, args[0])
	return nil
}
