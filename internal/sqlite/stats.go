package sqlite

import (
	"context"
	"fmt"

	"github.com/tttbot/tttbot/internal/gamerow"
)

// ActiveGames counts the games being played, for the metrics.
func (db *DB) ActiveGames(ctx context.Context) (int, error) {
	var n int
	// The status IN (...) term lets SQLite use a partial index of open games.
	err := db.r.QueryRowContext(uncancelled(ctx), gamerow.QueryActiveGames).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count active games: %w", err)
	}
	return n, nil
}
