package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/dbcheck"
	"github.com/tttbot/tttbot/internal/pgurl"
)

// Check reads the database at url in one read-only snapshot and reports
// what no sequence of store transactions can produce — the damage a bug,
// a hand edit or a bad copy would leave: what dbcheck.Run finds, and a
// games ID sequence that would hand out an ID already taken. It is safe to
// run beside live bots: the snapshot blocks no writer.
func Check(ctx context.Context, url string, acked []tttbot.Move) ([]dbcheck.Problem, error) {
	cfg, err := parse(url)
	if err != nil {
		return nil, err
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("check database %s: %w", pgurl.Redact(url), err)
	}
	defer tx.Rollback()
	return dbcheck.Run(ctx, tx, acked, checkSequence)
}

// checkSequence compares the next game ID with those taken.
func checkSequence(ctx context.Context, tx *sql.Tx, add func(dbcheck.Problem)) error {
	var maxID int64
	var last sql.NullInt64 // NULL until the sequence hands out its first ID
	err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0),
		pg_sequence_last_value(pg_get_serial_sequence('games', 'id')::regclass) FROM games`).Scan(&maxID, &last)
	if err != nil {
		return err
	}
	next := last.Int64 + 1
	if !last.Valid {
		next = 1
	}
	if next <= maxID {
		add(dbcheck.Problem{Text: fmt.Sprintf("the games ID sequence would hand out %d, and games go up to %d", next, maxID)})
	}
	return nil
}
