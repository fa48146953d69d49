package postgres

import (
	"context"
	"database/sql"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/dbcheck"
)

// CheckTx runs Check's checks in tx, which may be writing: for a copy that
// is checked before it commits (internal/migratedata).
func CheckTx(ctx context.Context, tx *sql.Tx, acked []tttbot.Move) ([]dbcheck.Problem, error) {
	return dbcheck.Run(ctx, tx, acked, checkSequence)
}
