package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/schema"
)

// migrateCmd applies, rolls back or lists the schema migrations of the
// configured database. `bot run` applies them too, at start-up.
func migrateCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot migrate", "[-config FILE] [-yes] up|status|down",
		"  up      apply every pending migration\n"+
			"  status  list the migrations and which are applied\n"+
			"  down    roll back the latest migration, deleting what it added")
	path := configFlag(fs)
	yes := fs.Bool("yes", false, "roll back without asking: down deletes the tables of the migration it undoes")
	args, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		fs.Usage()
		return exitError{}
	}
	cfg, err := loadConfig(*path, e)
	if err != nil {
		return err
	}
	db, m := cfg.Database.Name(), migrationsOf(cfg.Database)

	switch args[0] {
	case "up":
		applied, err := m.up(ctx)
		if err != nil {
			return err
		}
		for _, m := range applied {
			fmt.Fprintf(e.stdout, "applied %s\n", m.Name)
		}
		st, err := m.status(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s is at version %d\n", db, st.Current)
	case "down":
		st, err := m.status(ctx)
		if err != nil {
			return err
		}
		if name := latestApplied(st); name != "" && !*yes {
			if err := confirm(e, fmt.Sprintf("roll back %s of %s, deleting what it added", name, db)); err != nil {
				return err
			}
		}
		undone, err := m.down(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "rolled back %s of %s\n", undone.Name, db)
	case "status":
		st, err := m.status(ctx)
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%w ('bot migrate up' creates it)", err)
		}
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
		fmt.Fprintf(e.stderr, "bot migrate: unknown action %q\n\n", args[0])
		fs.Usage()
		return exitError{}
	}
	return nil
}

// latestApplied names the migration that down would roll back, or is empty
// when down will refuse anyway.
func latestApplied(st schema.Status) string {
	for _, m := range st.Migrations {
		if m.Applied && m.Version == st.Current {
			return m.Name
		}
	}
	return ""
}

// confirm asks before an action that deletes data. Only a person at a
// terminal can answer; a script or a pipe must pass -yes instead, so that a
// stray line of input never confirms.
func confirm(e env, action string) error {
	f, ok := e.stdin.(*os.File)
	if ok {
		fi, err := f.Stat()
		ok = err == nil && fi.Mode()&os.ModeCharDevice != 0
	}
	if !ok {
		return fmt.Errorf("this would %s: add -yes to confirm", action)
	}
	fmt.Fprintf(e.stderr, "This will %s. Type yes to go on: ", action)
	line, _ := bufio.NewReader(f).ReadString('\n')
	if strings.TrimSpace(line) != "yes" {
		return errors.New("not confirmed: nothing changed")
	}
	return nil
}
