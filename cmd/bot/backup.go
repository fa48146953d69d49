package main

import (
	"context"
	"fmt"

	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/postgres"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// backupCmd writes a consistent copy of the configured SQLite database
// while the bot keeps running. It neither migrates nor creates the
// database. A PostgreSQL database is the server's to back up: it prints
// the pg_dump command that does it.
func backupCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot backup", "[-config FILE] PATH", "Writes a consistent copy of the database to PATH, which must not exist.\n"+
		"With database.url set, prints the pg_dump command that does it instead.")
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
	if cfg.Database.Postgres() {
		cmd, err := postgres.DumpCommand(string(cfg.Database.URL), args[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "bot backup copies SQLite databases; backing up PostgreSQL is pg_dump's job (or your\n"+
			"provider's). This dumps the configured database, asking for its password\n"+
			"(or reading PGPASSWORD or ~/.pgpass), while the bots keep running:\n\n  %s\n", cmd)
		return exitError{}
	}
	if err := sqlite.Backup(ctx, cfg.Database.Path, args[0]); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s to %s\n", cfg.Database.Path, args[0])
	return nil
}
