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

var _ tttbot.TournamentStore = (*DB)(nil)

// CreateTournament inserts a tournament. See tttbot.TournamentStore.
func (db *DB) CreateTournament(ctx context.Context, t *tttbot.Tournament) error {
	if err := gamerow.CheckTournament(t); err != nil {
		return err
	}
	at := db.opts.At(time.Time{})
	var id int64
	err := stored(db.write(ctx, func(ctx context.Context, tx *tx) error {
		b := &pgx.Batch{}
		b.Queue(gamerow.QueryCreateTournament, gamerow.TournamentArgs(t, at)...).QueryRow(func(r pgx.Row) error { return r.Scan(&id) })
		if err := tx.all(ctx, b); err != nil {
			return fmt.Errorf("create tournament: %w", err)
		}
		return nil
	}))
	if err != nil {
		return err
	}
	t.ID, t.Version, t.CreatedAt, t.UpdatedAt = id, 1, at, at
	return nil
}

// Tournament returns a tournament with its entrants and games, read in one
// implicit transaction. See tttbot.TournamentStore.
func (db *DB) Tournament(ctx context.Context, id int64) (s *tttbot.TournamentState, err error) {
	err = db.read(ctx, func() error {
		s = &tttbot.TournamentState{}
		var terr error
		b := &pgx.Batch{}
		b.Queue(gamerow.QueryTournament, id).QueryRow(func(r pgx.Row) error {
			t, err := gamerow.Tournament(r)
			if err != nil {
				terr = err
				return nil
			}
			s.Tournament = *t
			return nil
		})
		b.Queue(gamerow.QueryEntrants, id).Query(func(rows pgx.Rows) (err error) {
			s.Entrants, err = gamerow.Entrants(rows)
			return err
		})
		b.Queue(gamerow.QueryTournamentGames, id).Query(func(rows pgx.Rows) (err error) {
			s.Games, err = gamerow.TournamentGames(rows)
			return err
		})
		if err := db.pool.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("read tournament: %w", err)
		}
		return terr
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// changeOne runs query as a transaction's first statement; when it changes no
// row, refuse says why, read in the same transaction, and nothing is
// committed. more, unless nil, runs after it in the same transaction.
func (db *DB) changeOne(ctx context.Context, what, query string, args []any, refuse func(ctx context.Context, t *tx) error, more *pgx.Batch) error {
	return stored(db.write(ctx, func(ctx context.Context, t *tx) error {
		var n int64
		b := &pgx.Batch{}
		b.Queue(query, args...).Exec(func(ct pgconn.CommandTag) error {
			n = ct.RowsAffected()
			return nil
		})
		if err := t.begin(ctx, b); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if n == 0 {
			return refuse(ctx, t)
		}
		if err := t.commit(ctx, more); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}))
}

// refusal reads, in t, why a change of tournament id's entrant player did
// nothing, through refuse.
func refusal(id int64, player string, refuse func(status string, entered bool) error) func(context.Context, *tx) error {
	return func(ctx context.Context, t *tx) error {
		var status string
		if err := t.c.QueryRow(ctx, gamerow.QueryTournamentStatus, id).Scan(&status); err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("read tournament: %w", err)
		}
		var withdrawn bool
		err := t.c.QueryRow(ctx, gamerow.QueryEntrantWithdrawn, id, player).Scan(&withdrawn)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("read entrant: %w", err)
		}
		return refuse(status, err == nil && !withdrawn)
	}
}

// Enter adds an entrant while the tournament signs up. See
// tttbot.TournamentStore.
func (db *DB) Enter(ctx context.Context, id int64, e tttbot.Entrant) error {
	e.JoinedAt = db.opts.At(e.JoinedAt)
	return db.changeOne(ctx, "enter tournament", gamerow.QueryEnter, []any{id, e.Player, e.Rating, e.JoinedAt.UnixMilli()},
		refusal(id, e.Player, gamerow.EnterRefusal), nil)
}

// Leave takes a player out of a tournament. See tttbot.TournamentStore.
func (db *DB) Leave(ctx context.Context, id int64, player string) error {
	return db.changeOne(ctx, "leave tournament", gamerow.QueryLeaveSignup, []any{id, player}, func(ctx context.Context, t *tx) error {
		ct, err := t.c.Exec(ctx, gamerow.QueryWithdraw, id, player)
		if err != nil {
			return fmt.Errorf("leave tournament: %w", err)
		}
		if ct.RowsAffected() == 0 {
			return refusal(id, player, gamerow.LeaveRefusal)(ctx, t)
		}
		if err := t.commit(ctx, nil); err != nil {
			return fmt.Errorf("leave tournament: %w", err)
		}
		return nil
	}, nil)
}

// Advance saves a tournament read at t.Version, with a new round's games.
// See tttbot.TournamentStore.
func (db *DB) Advance(ctx context.Context, t *tttbot.Tournament, games []tttbot.TournamentGame) error {
	if err := gamerow.CheckTournamentGames(games); err != nil {
		return err
	}
	at := db.opts.At(time.Time{})
	more := &pgx.Batch{}
	for _, g := range games {
		more.Queue(gamerow.QueryAddTournamentGame, gamerow.TournamentGameArgs(t.ID, g)...)
	}
	err := db.changeOne(ctx, "advance tournament", gamerow.QueryAdvance, gamerow.AdvanceArgs(t, t.Version, at),
		func(context.Context, *tx) error { return tttbot.ErrTournamentMoved }, more)
	if err != nil {
		return err
	}
	t.Version, t.UpdatedAt = t.Version+1, at
	return nil
}

// LinkGame records a board's game. See tttbot.TournamentStore.
func (db *DB) LinkGame(ctx context.Context, id int64, round, board int, game int64) error {
	return db.changeOne(ctx, "link tournament game", gamerow.QueryLinkGame, []any{game, id, round, board}, decided, nil)
}

// Decide records a board's result. See tttbot.TournamentStore.
func (db *DB) Decide(ctx context.Context, id int64, round, board int, r tttbot.TournamentResult) error {
	return db.changeOne(ctx, "decide tournament game", gamerow.QueryDecide, []any{string(r), id, round, board}, decided, nil)
}

func decided(context.Context, *tx) error { return tttbot.ErrGameDecided }

// PlayerTournaments lists a player's finished tournaments. See
// tttbot.TournamentStore.
func (db *DB) PlayerTournaments(ctx context.Context, guildID, player string, limit int) (ids []int64, err error) {
	err = db.query(ctx, func(rows gamerow.Rows) (err error) {
		ids, err = gamerow.IDs(rows)
		return err
	}, gamerow.QueryPlayerTournaments, guildID, player, limit)
	if err != nil {
		return nil, fmt.Errorf("read player's tournaments: %w", err)
	}
	return ids, nil
}

// WebTournament returns the tournament of a web page. See
// tttbot.TournamentStore.
func (db *DB) WebTournament(ctx context.Context, webID string) (*tttbot.TournamentState, error) {
	if !tttbot.ValidWebID(webID) {
		return nil, tttbot.ErrNoTournament
	}
	var id int64
	err := db.read(ctx, func() error { return db.pool.QueryRow(ctx, gamerow.QueryWebTournament, webID).Scan(&id) })
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, tttbot.ErrNoTournament
	case err != nil:
		return nil, fmt.Errorf("read web tournament: %w", err)
	}
	return db.Tournament(ctx, id)
}

// TournamentOfGame returns the tournament of a game. See
// tttbot.TournamentStore.
func (db *DB) TournamentOfGame(ctx context.Context, game int64) (id int64, err error) {
	err = db.read(ctx, func() error { return db.pool.QueryRow(ctx, gamerow.QueryTournamentOfGame, game).Scan(&id) })
	if err != nil {
		return 0, fmt.Errorf("read tournament of game: %w", err)
	}
	return id, nil
}

// DueTournaments claims the tournaments whose deadline passed. See
// tttbot.TournamentStore.
func (db *DB) DueTournaments(ctx context.Context, at time.Time, limit int) (ts []*tttbot.Tournament, err error) {
	var lim any // NULL: no limit
	if limit > 0 {
		lim = limit
	}
	err = db.write(ctx, func(ctx context.Context, t *tx) error {
		b := &pgx.Batch{}
		b.Queue(gamerow.QueryDueTournamentsSkipLocked, at.Add(tttbot.ClaimLease).UnixMilli(), at.UnixMilli(), lim).Query(func(rows pgx.Rows) (err error) {
			ts, err = gamerow.Tournaments(rows)
			return err
		})
		if err := t.all(ctx, b); err != nil {
			return fmt.Errorf("due tournaments: %w", err)
		}
		return nil
	})
	return ts, err
}
