package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
)

var _ tttbot.ForgetStore = (*DB)(nil)

// queryPlayerGames finds a player's games. No index leads there from the
// opponent's side, so it reads the table, on a reader, before the
// writer is taken: forgetting is rare, moves are not.
const queryPlayerGames = "SELECT id FROM games WHERE challenger_id = ?1 OR opponent_id = ?1 ORDER BY id"

// ForgetPlayer erases a player. See tttbot.ForgetStore.
func (db *DB) ForgetPlayer(ctx context.Context, user string, at time.Time) (*tttbot.Erasure, error) {
	if err := tttbot.CheckForget(user); err != nil {
		return nil, err
	}
	at = db.opts.At(at)
	ids, top, err := db.playerGames(ctx, user)
	if err != nil {
		return nil, err
	}
	var e *tttbot.Erasure
	err = db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		e = &tttbot.Erasure{Player: user}
		// A game's players change only in an erasure, and rowids only
		// grow: the games started since the scan are those after its last.
		later, err := gameIDs(ctx, tx, "SELECT id FROM games WHERE id > ?2 AND (challenger_id = ?1 OR opponent_id = ?1) ORDER BY id", user, top)
		if err != nil {
			return err
		}
		ids := append(ids[:len(ids):len(ids)], later...)
		var games []*tttbot.Game
		for _, id := range ids {
			g, err := gamerow.Game(tx.QueryRowContext(ctx, gamerow.QueryGame, id))
			if err != nil {
				return err
			}
			if !g.HasPlayer(user) {
				continue // forgotten since the scan, by another erasure
			}
			open := g.Status.Open()
			if open {
				if err := changeGame(ctx, tx, g, at, nil, func(g *tttbot.Game) error { return g.Leave(user, at) }); err != nil {
					return fmt.Errorf("end game %d: %w", id, err)
				}
			}
			games = append(games, g)
			if err := anonymize(ctx, tx, g, user, at); err != nil {
				return err
			}
			e.Games++
			if open {
				e.Closed = append(e.Closed, g)
			}
		}
		return erase(ctx, tx, e, tttbot.RatingScopes(games))
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// playerGames lists user's games, and the last game ID of the same
// snapshot.
func (db *DB) playerGames(ctx context.Context, user string) (ids []int64, top int64, err error) {
	ctx = uncancelled(ctx)
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("find player's games: %w", err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, "SELECT ifnull(max(id), 0) FROM games").Scan(&top); err != nil {
		return nil, 0, fmt.Errorf("find player's games: %w", err)
	}
	ids, err = gameIDs(ctx, tx, queryPlayerGames, user)
	return ids, top, err
}

type rowsQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func gameIDs(ctx context.Context, q rowsQuerier, query string, args ...any) ([]int64, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("find player's games: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("find player's games: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("find player's games: %w", err)
	}
	return ids, nil
}

// anonymize replaces user by their placeholder in game g, its moves and
// its results, and in g itself. The version stays: the game is the same
// game.
func anonymize(ctx context.Context, tx *sql.Conn, g *tttbot.Game, user string, at time.Time) error {
	p := g.Forget(user)
	if err := savePlayer(ctx, tx, tttbot.Player{ID: p}, at); err != nil {
		return err
	}
	for _, q := range []string{gamerow.QueryAnonymizeGame, gamerow.QueryAnonymizeMoves, gamerow.QueryAnonymizeResults} {
		if _, err := tx.ExecContext(ctx, q, user, p, g.ID); err != nil {
			return fmt.Errorf("anonymize game %d: %w", g.ID, err)
		}
	}
	return nil
}

// erase deletes e.Player's ratings and their history in scopes, records
// against the bot, puzzle rating and attempts and name, and counts the
// ratings and records in e.
func erase(ctx context.Context, tx *sql.Conn, e *tttbot.Erasure, scopes []string) error {
	var name string
	err := tx.QueryRowContext(ctx, "SELECT name FROM players WHERE id = ?", e.Player).Scan(&name)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read player: %w", err)
	}
	e.Named = name != ""
	count := func(res sql.Result, err error) (int, error) {
		if err != nil {
			return 0, fmt.Errorf("erase player: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, fmt.Errorf("erase player: %w", err)
		}
		return int(n), nil
	}
	for _, scope := range scopes {
		n, err := count(tx.ExecContext(ctx, "DELETE FROM ratings WHERE scope = ? AND player_id = ?", scope, e.Player))
		if err != nil {
			return err
		}
		e.Ratings += n
		if _, err := count(tx.ExecContext(ctx, gamerow.QueryEraseRatingHistory, scope, e.Player)); err != nil {
			return err
		}
	}
	if e.Records, err = count(tx.ExecContext(ctx, "DELETE FROM bot_records WHERE player_id = ?", e.Player)); err != nil {
		return err
	}
	for _, q := range []string{gamerow.QueryErasePuzzleAttempts, gamerow.QueryErasePuzzleRating} {
		if _, err := count(tx.ExecContext(ctx, q, e.Player)); err != nil {
			return err
		}
	}
	forgotten := gamerow.ForgottenTournamentPrefix(time.Now())
	for _, q := range gamerow.ForgetInTournaments {
		if _, err := count(tx.ExecContext(ctx, q, forgotten, e.Player)); err != nil {
			return err
		}
	}
	_, err = count(tx.ExecContext(ctx, "DELETE FROM players WHERE id = ?", e.Player))
	return err
}
