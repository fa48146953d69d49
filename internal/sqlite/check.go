package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/dbcheck"
)

// Check reads the database at path read-only, in one snapshot, and reports
// what no sequence of store transactions can produce — the damage a crash,
// a bug or a hand edit would leave: what dbcheck.Run finds, and what
// SQLite's own integrity and foreign-key checks find.
//
// It is safe to run beside a live bot: WAL readers do not block writers.
func Check(ctx context.Context, path string, acked []tttbot.Move) ([]dbcheck.Problem, error) {
	c, err := sql.Open("sqlite3", dsn(path, map[string]string{"mode": "ro"}))
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	defer c.Close()
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("check database: %w", err)
	}
	defer tx.Rollback()
	return dbcheck.Run(ctx, tx, acked, checkIntegrity)
}

// checkIntegrity runs SQLite's integrity and foreign-key checks.
func checkIntegrity(ctx context.Context, tx *sql.Tx, add func(dbcheck.Problem)) error {
	err := dbcheck.Each(ctx, tx, "PRAGMA integrity_check", func(r *sql.Rows) error {
		var s string
		if err := r.Scan(&s); err != nil {
			return err
		}
		if s != "ok" {
			add(dbcheck.Problem{Text: "integrity check: " + s})
		}
		return nil
	})
	if err != nil {
		return err
	}
	return dbcheck.Each(ctx, tx, "PRAGMA foreign_key_check", func(r *sql.Rows) error {
		var table, parent string
		var rowid sql.NullInt64
		var fk int
		if err := r.Scan(&table, &rowid, &parent, &fk); err != nil {
			return err
		}
		add(dbcheck.Problem{Text: fmt.Sprintf("a row of %s refers to a row of %s that does not exist", table, parent)})
		return nil
	})
}
