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

var _ tttbot.TournamentStore = (*DB)(nil)

// CreateTournament inserts a tournament. See tttbot.TournamentStore.
func (db *DB) CreateTournament(ctx context.Context, t *tttbot.Tournament) error {
	if err := gamerow.CheckTournament(t); err != nil {
		return err
	}
	at := db.opts.At(time.Time{})
	return db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		if err := tx.QueryRowContext(ctx, gamerow.QueryCreateTournament, gamerow.TournamentArgs(t, at)...).Scan(&t.ID); err != nil {
			return fmt.Errorf("create tournament: %w", err)
		}
		t.Version, t.CreatedAt, t.UpdatedAt = 1, at, at
		return nil
	})
}

// Tournament returns a tournament with its entrants and games. See
// tttbot.TournamentStore.
func (db *DB) Tournament(ctx context.Context, id int64) (*tttbot.TournamentState, error) {
	ctx = uncancelled(ctx)
	conn, err := db.r.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("read tournament: %w", err)
	}
	defer conn.Close()
	// One read transaction: the tournament, its entrants and games as of one moment.
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("read tournament: %w", err)
	}
	defer tx.Rollback()
	t, err := gamerow.Tournament(tx.QueryRowContext(ctx, gamerow.QueryTournament, id))
	if err != nil {
		return nil, err
	}
	s := &tttbot.TournamentState{Tournament: *t}
	rows, err := tx.QueryContext(ctx, gamerow.QueryEntrants, id)
	if err != nil {
		return nil, fmt.Errorf("read entrants: %w", err)
	}
	s.Entrants, err = gamerow.Entrants(rows)
	rows.Close()
	if err != nil {
		return nil, err
	}
	if rows, err = tx.QueryContext(ctx, gamerow.QueryTournamentGames, id); err != nil {
		return nil, fmt.Errorf("read tournament games: %w", err)
	}
	defer rows.Close()
	if s.Games, err = gamerow.TournamentGames(rows); err != nil {
		return nil, err
	}
	return s, nil
}

// refusal reads why a change of tournament id's entrant player did
// nothing, through refuse.
func refusal(ctx context.Context, tx *sql.Conn, id int64, player string, refuse func(status string, entered bool) error) error {
	var status string
	if err := tx.QueryRowContext(ctx, gamerow.QueryTournamentStatus, id).Scan(&status); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read tournament: %w", err)
	}
	var withdrawn bool
	err := tx.QueryRowContext(ctx, gamerow.QueryEntrantWithdrawn, id, player).Scan(&withdrawn)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read entrant: %w", err)
	}
	return refuse(status, err == nil && !withdrawn)
}

// changed runs one statement and reports whether it changed a row.
func changed(ctx context.Context, tx *sql.Conn, query string, args ...any) (bool, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Enter adds an entrant while the tournament signs up. See
// tttbot.TournamentStore.
func (db *DB) Enter(ctx context.Context, id int64, e tttbot.Entrant) error {
	e.JoinedAt = db.opts.At(e.JoinedAt)
	return db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		ok, err := changed(ctx, tx, gamerow.QueryEnter, id, e.Player, e.Rating, e.JoinedAt.UnixMilli())
		if err != nil {
			return fmt.Errorf("enter tournament: %w", err)
		}
		if !ok {
			return refusal(ctx, tx, id, e.Player, gamerow.EnterRefusal)
		}
		return nil
	})
}

// Leave takes a player out of a tournament. See tttbot.TournamentStore.
func (db *DB) Leave(ctx context.Context, id int64, player string) error {
	return db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		for _, q := range []string{gamerow.QueryLeaveSignup, gamerow.QueryWithdraw} {
			ok, err := changed(ctx, tx, q, id, player)
			if err != nil {
				return fmt.Errorf("leave tournament: %w", err)
			}
			if ok {
				return nil
			}
		}
		return refusal(ctx, tx, id, player, gamerow.LeaveRefusal)
	})
}

// Advance saves a tournament read at t.Version, with a new round's games.
// See tttbot.TournamentStore.
func (db *DB) Advance(ctx context.Context, t *tttbot.Tournament, games []tttbot.TournamentGame) error {
	if err := gamerow.CheckTournamentGames(games); err != nil {
		return err
	}
	at := db.opts.At(time.Time{})
	return db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		ok, err := changed(ctx, tx, gamerow.QueryAdvance, gamerow.AdvanceArgs(t, t.Version, at)...)
		if err != nil {
			return fmt.Errorf("advance tournament: %w", err)
		}
		if !ok {
			return tttbot.ErrTournamentMoved
		}
		for _, g := range games {
			if _, err := tx.ExecContext(ctx, gamerow.QueryAddTournamentGame, gamerow.TournamentGameArgs(t.ID, g)...); err != nil {
				return fmt.Errorf("add tournament game: %w", err)
			}
		}
		t.Version, t.UpdatedAt = t.Version+1, at
		return nil
	})
}

// LinkGame records a board's game. See tttbot.TournamentStore.
func (db *DB) LinkGame(ctx context.Context, id int64, round, board int, game int64) error {
	return db.setBoard(ctx, gamerow.QueryLinkGame, game, id, round, board)
}

// Decide records a board's result. See tttbot.TournamentStore.
func (db *DB) Decide(ctx context.Context, id int64, round, board int, r tttbot.TournamentResult) error {
	return db.setBoard(ctx, gamerow.QueryDecide, string(r), id, round, board)
}

func (db *DB) setBoard(ctx context.Context, query string, args ...any) error {
	return db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		ok, err := changed(ctx, tx, query, args...)
		if err != nil {
			return fmt.Errorf("set tournament game: %w", err)
		}
		if !ok {
			return tttbot.ErrGameDecided
		}
		return nil
	})
}

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
	err := db.r.QueryRowContext(uncancelled(ctx), gamerow.QueryWebTournament, webID).Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, tttbot.ErrNoTournament
	case err != nil:
		return nil, fmt.Errorf("read web tournament: %w", err)
	}
	return db.Tournament(ctx, id)
}

// TournamentOfGame returns the tournament of a game. See
// tttbot.TournamentStore.
func (db *DB) TournamentOfGame(ctx context.Context, game int64) (id int64, err error) {
	if err := db.r.QueryRowContext(uncancelled(ctx), gamerow.QueryTournamentOfGame, game).Scan(&id); err != nil {
		return 0, fmt.Errorf("read tournament of game: %w", err)
	}
	return id, nil
}

// DueTournaments claims the tournaments whose deadline passed. See
// tttbot.TournamentStore.
func (db *DB) DueTournaments(ctx context.Context, at time.Time, limit int) (ts []*tttbot.Tournament, err error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	err = db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		rows, err := tx.QueryContext(ctx, gamerow.QueryDueTournaments, at.Add(tttbot.ClaimLease).UnixMilli(), at.UnixMilli(), limit)
		if err != nil {
			return fmt.Errorf("due tournaments: %w", err)
		}
		defer rows.Close()
		ts, err = gamerow.Tournaments(rows)
		return err
	})
	return ts, err
}
