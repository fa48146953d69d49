package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
)

var _ tttbot.ForgetStore = (*DB)(nil)

const (
	// queryForgetPlayer locks the player's row: a game being created with
	// them records them first, so that none slips in while they are
	// forgotten.
	queryForgetPlayer = "SELECT name FROM players WHERE id = $1 FOR UPDATE"
	queryPlayerGames  = "SELECT " + gamerow.Columns + " FROM games WHERE challenger_id = $1 OR opponent_id = $1 ORDER BY id FOR UPDATE"
)

// ForgetPlayer erases a player in one transaction, their row and their
// games locked. See tttbot.ForgetStore.
func (db *DB) ForgetPlayer(ctx context.Context, user string, at time.Time) (*tttbot.Erasure, error) {
	if err := tttbot.CheckForget(user); err != nil {
		return nil, err
	}
	at = db.opts.At(at)
	var e *tttbot.Erasure
	err := db.write(ctx, func(ctx context.Context, t *tx) error {
		e = &tttbot.Erasure{Player: user}
		var name string
		var games []*tttbot.Game
		b := &pgx.Batch{}
		b.Queue(queryForgetPlayer, user).QueryRow(func(row pgx.Row) error {
			if err := row.Scan(&name); err != nil && !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			return nil
		})
		b.Queue(queryPlayerGames, user).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				g, err := gamerow.Game(rows)
				if err != nil {
					return err
				}
				games = append(games, g)
			}
			return rows.Err()
		})
		if err := t.begin(ctx, b); err != nil {
			return fmt.Errorf("find player's games: %w", err)
		}
		e.Named = name != ""
		w := &pgx.Batch{}
		for _, g := range games {
			if g.Status.Open() {
				// Each ending is sent before the next is rated, which
				// reads the ratings it may have changed.
				end := &pgx.Batch{}
				if err := changeGame(ctx, t, g, &tttbot.Settings{}, at, end, func(_ context.Context, _ *tx, g *tttbot.Game, _ *tttbot.Settings, _ *pgx.Batch) ([]tttbot.Move, error) {
					return nil, g.Leave(user, at)
				}); err != nil {
					return fmt.Errorf("end game %d: %w", g.ID, err)
				}
				if err := t.c.SendBatch(ctx, end).Close(); err != nil {
					return fmt.Errorf("end game %d: %w", g.ID, err)
				}
				e.Closed = append(e.Closed, g)
			}
			p := g.Forget(user)
			w.Queue(gamerow.QuerySavePlayer, p, "", "", tttbot.NewWebID(), at.UnixMilli())
			for _, q := range []string{gamerow.QueryAnonymizeGame, gamerow.QueryAnonymizeMoves, gamerow.QueryAnonymizeResults} {
				w.Queue(q, user, p, g.ID)
			}
		}
		e.Games = len(games)
		for _, scope := range tttbot.RatingScopes(games) {
			w.Queue("DELETE FROM ratings WHERE scope = $1 AND player_id = $2", scope, user).Exec(func(ct pgconn.CommandTag) error {
				e.Ratings += int(ct.RowsAffected())
				return nil
			})
			w.Queue(gamerow.QueryEraseRatingHistory, scope, user)
		}
		w.Queue("DELETE FROM bot_records WHERE player_id = $1", user).Exec(func(ct pgconn.CommandTag) error {
			e.Records = int(ct.RowsAffected())
			return nil
		})
		w.Queue(gamerow.QueryErasePuzzleAttempts, user)
		w.Queue(gamerow.QueryErasePuzzleRating, user)
		forgotten := gamerow.ForgottenTournamentPrefix(time.Now())
		for _, q := range gamerow.ForgetInTournaments {
			w.Queue(q, forgotten, user)
		}
		w.Queue("DELETE FROM players WHERE id = $1", user)
		if err := t.commit(ctx, w); err != nil {
			return fmt.Errorf("erase player: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}
