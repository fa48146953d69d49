package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/migratedata"
	"github.com/tttbot/tttbot/internal/pgurl"
)

// migrateDataCmd copies a SQLite database into an empty PostgreSQL one, for
// a bot that moves to several instances.
func migrateDataCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot migrate-data", "-from FILE -to URL",
		"Copies every game, move, player, rating, record and setting of the SQLite\n"+
			"database FILE into the PostgreSQL database at URL, which must hold none,\n"+
			"keeping their IDs so that the buttons of old boards keep working. The\n"+
			"target's schema is migrated first; the copy is one transaction, checked\n"+
			"for consistency before it commits. Stop the bot on FILE first: what it\n"+
			"writes after the copy began is not copied.")
	from := fs.String("from", "", "the SQLite database `file` to copy")
	to := fs.String("to", "", "the PostgreSQL database `URL` to copy into, postgres://user@host/db (default: $TTTBOT_DATABASE_URL, which keeps a password off the command line)")
	rest, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs(fs, rest); err != nil {
		return err
	}
	if *to == "" {
		*to = e.getenv("TTTBOT_DATABASE_URL")
	}
	switch {
	case *from == "":
		return errors.New("-from: name the SQLite database file to copy")
	case *to == "":
		return errors.New("-to: name the PostgreSQL database to copy into, as postgres://user@host/db, or set TTTBOT_DATABASE_URL")
	case !strings.HasPrefix(*to, "postgres://") && !strings.HasPrefix(*to, "postgresql://"):
		return fmt.Errorf("-to: want a postgres:// URL, got %s", pgurl.Redact(*to))
	case strings.HasPrefix(*from, "postgres://") || strings.HasPrefix(*from, "postgresql://"):
		return errors.New("-from: want the SQLite database file; the PostgreSQL database goes in -to")
	}
	fmt.Fprintf(e.stdout, "copying %s into %s\n", *from, pgurl.Redact(*to))
	opts := migratedata.Options{}
	var p *progress
	if terminal(e.stderr) {
		p = &progress{w: e.stderr}
		opts.Progress, opts.Checking = p.show, p.checking
	}
	res, err := migratedata.Copy(ctx, *from, *to, opts)
	p.clear()
	var ce *migratedata.CheckError
	if errors.As(err, &ce) {
		fmt.Fprintf(e.stderr, "bot migrate-data: %v:\n", err)
		for i, pr := range ce.Problems {
			if i == 20 {
				fmt.Fprintf(e.stderr, "  … and %d more\n", len(ce.Problems)-i)
				break
			}
			fmt.Fprintln(e.stderr, " ", pr)
		}
		fmt.Fprintf(e.stderr, "The copy is faithful, so %s probably has the same problems.\n", *from)
		return exitError{}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "copied in %s at schema version %d; the consistency check passed\n", res.Elapsed.Round(time.Millisecond), res.Version)
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, c := range res.Counts {
		note := ""
		if c.Derived {
			note = "  (rebuilt from the copied rows)"
		}
		fmt.Fprintf(tw, "  %s\t%d%s\n", c.Table, c.Rows, note)
	}
	return tw.Flush()
}

// terminal reports whether w is a terminal, where progress can redraw a line.
func terminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progress redraws one line on a terminal as a copy goes, at most every
// progressInterval.
type progress struct {
	w    io.Writer
	last time.Time
	line bool // a line is drawn
}

const progressInterval = 100 * time.Millisecond

func (p *progress) show(table string, done, total int64) {
	if done < total && time.Since(p.last) < progressInterval {
		return
	}
	p.last = time.Now()
	pct := 100.0
	if total > 0 {
		pct = float64(done) * 100 / float64(total)
	}
	fmt.Fprintf(p.w, "\r\033[Kcopying %s: %d of %d rows (%.0f%%)", table, done, total, pct)
	p.line = true
}

func (p *progress) checking() {
	fmt.Fprint(p.w, "\r\033[Kchecking the copy: every game replays, every rating counts its results")
	p.line = true
}

// clear removes the progress line, if any; p may be nil.
func (p *progress) clear() {
	if p != nil && p.line {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
