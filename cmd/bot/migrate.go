package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// migrateCmd applies, rolls back or lists the schema migrations of the
// configured database. `bot run` applies them too, at start-up.
func migrateCmd(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: bot migrate [-config FILE] up|status|down\n\n"+
			"  up      apply every pending migration\n"+
			"  status  list the migrations and which are applied\n"+
			"  down    roll back the latest migration\n\nflags:")
		fs.PrintDefaults()
	}
	path := configFlag(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitError{}
	}
	cfg, err := config.Load(*path, e.getenv)
	if err != nil {
		return err
	}
	db := cfg.Database.Path

	switch fs.Arg(0) {
	case "up":
		applied, err := sqlite.MigrateUp(ctx, db)
		if err != nil {
			return err
		}
		for _, m := range applied {
			fmt.Fprintf(e.stdout, "applied %s\n", m.Name)
		}
		st, err := sqlite.MigrationStatus(ctx, db)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s is at version %d\n", db, st.Current)
	case "down":
		m, err := sqlite.MigrateDown(ctx, db)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "rolled back %s\n", m.Name)
	case "status":
		st, err := sqlite.MigrationStatus(ctx, db)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s is at version %d; this binary knows up to %d\n", db, st.Current, st.Latest)
		if st.Current > st.Latest {
			fmt.Fprintln(e.stdout, "The database is newer than this binary: run a newer bot on it.")
		}
		for _, m := range st.Migrations {
			state, at := "pending", ""
			if m.Applied {
				state, at = "applied", m.AppliedAt.UTC().Format("2006-01-02 15:04:05 UTC")
			}
			fmt.Fprintf(e.stdout, "  %-7s  %-23s  %s\n", state, at, m.Name)
		}
	default:
		fmt.Fprintf(e.stderr, "bot migrate: unknown action %q\n", fs.Arg(0))
		fs.Usage()
		return exitError{}
	}
	return nil
}
