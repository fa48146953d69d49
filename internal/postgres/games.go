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

// The queries of games that PostgreSQL runs alone (see TestQueryPlans for
// those that must stay on an index).
const (
	queryGameForUpdate = gamerow.QueryGame + " FOR UPDATE"
	// The settings of game $1's guild that a change applies. A statement of
	// its own, after the game's lock: a statement that waited for a row's
	// lock sees that row anew, and the rest as when it started.
	queryChangeSettings = "SELECT coalesce(role_id, ''), coalesce(turn_timeout, 0), simultaneous_games FROM guilds WHERE id = (SELECT guild_id FROM games WHERE id = $1)"

	// The due games no timer holds, oldest first, claimed until $3. A game
	// whose row a change holds is passed by: its deadline is moving. It
	// takes gamerow.DueArgs.
	queryDue = "UPDATE games SET claimed_until = $3 WHERE id IN (" +
		"SELECT id FROM games WHERE " + gamerow.Open + " AND deadline <= $4 AND (claimed_until IS NULL OR claimed_until <= $1)" +
		" ORDER BY deadline, id LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING " + gamerow.Columns

	// lockChannel serializes the transactions that check a channel's room
	// (StartGame, Accept) across every instance: under READ COMMITTED,
	// two of them would each find the channel free and both insert.
	lockChannel = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"

	querySaveGuild = "INSERT INTO guilds (id, updated_at) VALUES ($1, $2) ON CONFLICT DO NOTHING"
	// updateGame writes a game's columns from $2–$15 (see updateArgs), the
	// WHERE left to each query. Any change ends a timer's claim (see Due).
	updateGame = `UPDATE games SET x_player_id = $2, o_player_id = $3, status = $4, board = $5,
		turn_id = $6, version = $7, deadline = $8, winner_id = $9, reason = $10, updated_at = $11,
		finished_at = $12, message_id = coalesce(message_id, $13),
		token = CASE WHEN coalesce(token_expires, 0) <= $15 THEN $14 ELSE token END,
		token_expires = CASE WHEN coalesce(token_expires, 0) <= $15 THEN $15 ELSE token_expires END, claimed_until = NULL`
	// insertMoves inserts the moves, from arrays $16–$19 (see moveArrays),
	// of the game that the statement's g returns.
	insertMoves = `INSERT INTO moves (game_id, ply, cell, player_id, at)
		SELECT g.id, m.ply, m.cell, m.player_id, m.at FROM g, unnest($16::int[], $17::int[], $18::text[], $19::bigint[]) AS m (ply, cell, player_id, at)`

	queryUpdateGame = updateGame + " WHERE id = $1"
	// queryInsertGameMoves is gamerow.QueryInsertGame and its opening, from
	// arrays $27–$30 as insertMoves takes them, in one statement.
	queryInsertGameMoves = "WITH g AS (" + gamerow.QueryInsertGame + ` RETURNING id),
	mv AS (INSERT INTO moves (game_id, ply, cell, player_id, at)
		SELECT g.id, m.ply, m.cell, m.player_id, m.at FROM g, unnest($27::int[], $28::int[], $29::text[], $30::bigint[]) AS m (ply, cell, player_id, at))
	SELECT id FROM g`
	// queryUpdateGameMoves is queryUpdateGame and the moves it makes in one
	// statement.
	queryUpdateGameMoves = "WITH g AS (" + queryUpdateGame + " RETURNING id) " + insertMoves

	// queryPlaySeen is queryUpdateGameMoves and the interaction's record
	// ($22, or none when 0, seen at $23) in one statement, all written only
	// while the game is still at version $20 and its guild's turn timeout
	// is $21 seconds: see playSeen. It returns the columns that change
	// without a new version. Nor does it write when its transaction has
	// waited 200ms or more (on a lock, a stalled server): the next turn's
	// deadline, decided before the statement ran, would be short of that
	// wait, and the locking path times it after its lock (see
	// tttbot.Settings.Play).
	//
	// It locks the game's row before the interaction's key, the locking
	// path the other way round: a replay racing on both paths can
	// deadlock, which PostgreSQL breaks within deadlock_timeout, and the
	// retried loser is refused as the replay it is.
	queryPlaySeen = `WITH g AS (` + updateGame + `
		WHERE id = $1 AND version = $20 AND coalesce((SELECT turn_timeout FROM guilds WHERE id = games.guild_id), 0) = $21
			AND clock_timestamp() - now() < interval '200 milliseconds'
		RETURNING id, message_id, token, token_expires),
	i AS (INSERT INTO interactions (id, seen_at) SELECT $22::bigint, $23::bigint FROM g WHERE $22::bigint <> 0),
	mv AS (` + insertMoves + `)
	SELECT coalesce(message_id, ''), coalesce(token, ''), coalesce(token_expires, 0) FROM g`
)

// Game returns a game by ID.
func (db *DB) Game(ctx context.Context, id int64) (g *tttbot.Game, err error) {
	err = db.read(ctx, func() (err error) {
		g, err = gamerow.Game(db.pool.QueryRow(ctx, gamerow.QueryGame, id))
		return err
	})
	return g, err
}

// Moves lists the moves of a game in order.
func (db *DB) Moves(ctx context.Context, id int64) ([]tttbot.Move, error) {
	return gamerow.ReadMoves(ctx, db.query, id)
}

// GameMoves reads a game and its moves in order, in one statement.
func (db *DB) GameMoves(ctx context.Context, id int64) (*tttbot.Game, []tttbot.Move, error) {
	return gamerow.ReadGameMoves(ctx, db.query, id)
}

// OpenGame returns user's pending or active game in channel; the oldest if
// user is the bot, which may play several.
func (db *DB) OpenGame(ctx context.Context, channelID, user string) (g *tttbot.Game, err error) {
	err = db.read(ctx, func() (err error) {
		g, err = gamerow.Game(db.pool.QueryRow(ctx, gamerow.QueryOpenGame, channelID, user))
		return err
	})
	return g, err
}

// StartGame inserts g as a pending challenge or, against the bot, an
// active game, with the empty board or its opening, once prepare has
// decided on it from the guild's settings, and records the display names
// of players. See tttbot.GameStore. It costs three round trips: the
// guild's settings, the room, the insert.
func (db *DB) StartGame(ctx context.Context, g *tttbot.Game, prepare func(*tttbot.Game, tttbot.Admission) (*tttbot.MoveRequest, error), players ...tttbot.Player) error {
	now := db.opts.At(time.Time{})
	var n tttbot.Game
	err := db.write(ctx, func(ctx context.Context, t *tx) error {
		n = *g
		var adm admissionRead
		if err := t.begin(ctx, adm.queue(&n)); err != nil {
			return err
		}
		a, err := adm.admission()
		if err != nil {
			return err
		}
		opening, err := n.Start(a, prepare, now)
		if err != nil {
			return err
		}
		gamerow.RoundTimes(&n)
		b := &pgx.Batch{}
		// In ID order, so that two games of the same players lock their
		// rows in the same order.
		for _, p := range gamerow.Players(&n, players) {
			b.Queue(gamerow.QuerySavePlayer, p.ID, p.Name, p.Avatar, tttbot.NewWebID(), n.CreatedAt.UnixMilli())
			b.Queue(gamerow.QueryRenamePlayer, p.Name, p.Avatar, n.CreatedAt.UnixMilli(), p.ID)
		}
		if n.GuildID != "" {
			b.Queue(querySaveGuild, n.GuildID, n.CreatedAt.UnixMilli())
		}
		var r room
		r.queue(b, &n)
		if err := t.c.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		excl, err := a.Settings.Room(&n, n.Challenger, r.Room, db.opts.SimultaneousGames)
		if err != nil {
			return err
		}
		w := &pgx.Batch{}
		insert, args := gamerow.QueryInsertGame+" RETURNING id", gamerow.InsertArgs(&n, excl)
		if len(opening) > 0 {
			plies, cells, players, ats := moveArrays(opening)
			insert, args = queryInsertGameMoves, append(args, plies, cells, players, ats)
		}
		w.Queue(insert, args...).QueryRow(func(row pgx.Row) error {
			return row.Scan(&n.ID)
		})
		err = t.commit(ctx, w)
		return gamerow.Inserted(err, channelTaken(err))
	})
	if errors.Is(err, errCommitted) {
		// The game's ID was in the answer lost: the game stored is the
		// challenger's open one in the channel created at the same time.
		if got, gerr := db.OpenGame(ctx, n.ChannelID, n.Challenger); gerr == nil && got.CreatedAt.Equal(n.CreatedAt) {
			n, err = *got, nil
		}
	}
	if err == nil {
		*g = n
	}
	return err
}

// channelTaken reports whether err is the schema refusing a second
// exclusive open game in a channel.
func channelTaken(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "games_one_open_per_channel"
}

// room is what the room rules read of a channel, in the transaction that
// would open a game in it.
type room struct{ tttbot.Room }

// queue adds to b the lock on g's channel and the reads of the room rules,
// whose results fill r.
func (r *room) queue(b *pgx.Batch, g *tttbot.Game) {
	p := g.RoomPlayers()
	b.Queue(lockChannel, g.ChannelID)
	b.Queue(gamerow.QueryPlayerBusy, g.ChannelID, g.ID, p[0], p[1]).QueryRow(func(row pgx.Row) error {
		var c, o string
		err := row.Scan(&c, &o)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		r.PlayerGame = []string{c, o}
		return err
	})
	b.Queue(gamerow.QueryChannelBusy, g.ChannelID, g.ID).QueryRow(func(row pgx.Row) error {
		return row.Scan(&r.Occupied)
	})
}

// change runs fn on game id in one write transaction, the game's row
// locked, then saves the game as tttbot.Game.Change leaves it, with the
// moves fn made and, if fn finished it, its results and the ratings or
// records they change. fn changes the game through its domain methods,
// which refuse with an *tttbot.Error, and may queue writes of its own on
// w. st are the settings of the game's guild that a change applies — its
// role, turn timeout and simultaneous games —, read in the round trip that
// reads the game.
func (db *DB) change(ctx context.Context, id int64, at time.Time, fn changeFunc) (*tttbot.Game, error) {
	var g *tttbot.Game
	err := db.write(ctx, func(ctx context.Context, t *tx) error {
		b := &pgx.Batch{}
		b.Queue(queryGameForUpdate, id).QueryRow(func(row pgx.Row) (err error) {
			g, err = gamerow.Game(row)
			return err
		})
		var st tttbot.Settings
		var turn int64
		b.Queue(queryChangeSettings, id).QueryRow(func(row pgx.Row) error {
			err := row.Scan(&st.Role, &turn, &st.Simultaneous)
			if errors.Is(err, pgx.ErrNoRows) {
				return nil
			}
			return err
		})
		if err := t.begin(ctx, b); err != nil {
			return err
		}
		st.GuildID, st.TurnTimeout = g.GuildID, time.Duration(turn)*time.Second
		db.turnTimeouts.Put(g.GuildID, st.TurnTimeout)
		w := &pgx.Batch{}
		if err := changeGame(ctx, t, g, &st, at, w, fn); err != nil {
			return err
		}
		return t.commit(ctx, w)
	})
	if errors.Is(err, errCommitted) {
		return db.Game(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	return g, nil
}

// changeFunc changes game g, whose guild has settings st, in transaction t,
// and returns the moves it made; it may queue writes of its own on w.
type changeFunc func(ctx context.Context, t *tx, g *tttbot.Game, st *tttbot.Settings, w *pgx.Batch) ([]tttbot.Move, error)

// changeGame is change's work on g, locked in t: it queues the writes on w.
func changeGame(ctx context.Context, t *tx, g *tttbot.Game, st *tttbot.Settings, at time.Time, w *pgx.Batch, fn changeFunc) error {
	var moves []tttbot.Move
	finished, err := g.Change(at, func(g *tttbot.Game) (err error) {
		moves, err = fn(ctx, t, g, st, w)
		return err
	})
	if err != nil {
		return err
	}
	if len(moves) > 0 {
		plies, cells, players, ats := moveArrays(moves)
		w.Queue(queryUpdateGameMoves, append(updateArgs(g), plies, cells, players, ats)...)
	} else {
		w.Queue(queryUpdateGame, updateArgs(g)...)
	}
	if finished {
		w.Queue(gamerow.QueryInsertResults, gamerow.ResultsArgs(g)...)
		if err := rate(ctx, t, g, w); err != nil {
			return err
		}
	}
	return nil
}

// moveArrays are the columns of moves, as arrays for unnest.
func moveArrays(moves []tttbot.Move) (plies, cells []int, players []string, ats []int64) {
	for _, mv := range moves {
		plies, cells = append(plies, mv.Ply), append(cells, mv.Cell)
		players, ats = append(players, mv.Player), append(ats, mv.At.UnixMilli())
	}
	return plies, cells, players, ats
}

// updateArgs are the values of updateGame for g.
func updateArgs(g *tttbot.Game) []any {
	return []any{g.ID, gamerow.NullString(g.XPlayer), gamerow.NullString(g.OPlayer), string(g.Status), g.Board,
		gamerow.NullString(g.Turn), g.Version, gamerow.ToMS(g.Deadline), gamerow.NullString(g.Winner),
		gamerow.NullString(string(g.Reason)), g.UpdatedAt.UnixMilli(), gamerow.ToMS(g.FinishedAt),
		gamerow.NullString(g.MessageID), gamerow.NullString(g.Token.Value), gamerow.ToMS(g.Token.Expires)}
}

// Play applies a move and, when it ends the game, the result; then
// m.Answer, as tttbot.Game.PlayAnswered decides. See tttbot.GameStore. A
// move on a game seen that does not end it costs one round trip (see
// playSeen); any other, three.
func (db *DB) Play(ctx context.Context, m tttbot.MoveRequest, seen *tttbot.Game) (*tttbot.Game, error) {
	m = db.opts.Move(m)
	if seen != nil {
		g, err := db.playSeen(ctx, m, seen)
		if !errors.Is(err, errMovedOn) {
			return g, err
		}
	}
	return db.change(ctx, m.GameID, m.At, func(ctx context.Context, t *tx, g *tttbot.Game, st *tttbot.Settings, w *pgx.Batch) ([]tttbot.Move, error) {
		// Run with the game locked: its time is the write's.
		return st.Play(g, m, db.opts.At(time.Time{}))
	})
}

// errMovedOn is playSeen's word that it wrote nothing, and Play must read
// the game under a lock to apply the move, or to say why not.
var errMovedOn = errors.New("move not played on the game as read")

// playSeen is Play on seen, the game as the caller read it, in one
// statement: the game's update, the interaction's record and the moves,
// written only while the game is still at m.Version and its guild's turn
// timeout is the one this DB last read for it (see turnTimeouts). The
// version makes the check of the move against seen as good as one
// under the game's lock: every change bumps it. errMovedOn, with nothing
// written, when either has changed, when the domain refuses the move (the
// locking path refuses it too, a replay first), and when the move ends the
// game, whose ratings need their rows read first.
func (db *DB) playSeen(ctx context.Context, m tttbot.MoveRequest, seen *tttbot.Game) (*tttbot.Game, error) {
	if seen.ID != m.GameID || seen.Version != m.Version {
		return nil, errMovedOn
	}
	turn, ok := db.turnTimeouts.Get(seen.GuildID)
	if !ok {
		return nil, errMovedOn
	}
	g := *seen
	st := tttbot.Settings{GuildID: g.GuildID, TurnTimeout: turn}
	var moves []tttbot.Move
	finished, err := g.Change(m.At, func(g *tttbot.Game) (err error) {
		moves, err = st.Play(g, m, db.opts.At(time.Time{}))
		return err
	})
	if err != nil || finished {
		return nil, errMovedOn
	}
	plies, cells, players, ats := moveArrays(moves)
	var expires int64
	err = db.write(ctx, func(ctx context.Context, t *tx) error {
		args := append(updateArgs(&g), plies, cells, players, ats, m.Version, int64(turn/time.Second), t.in, t.now.UnixMilli())
		t.committing = true // one statement: it commits on its own
		err := t.c.QueryRow(ctx, queryPlaySeen, args...).Scan(&g.MessageID, &g.Token.Value, &expires)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return errMovedOn
		case replay(err):
			return tttbot.ErrReplay
		case err != nil:
			return fmt.Errorf("play move: %w", err)
		}
		t.closed = true // one statement: committed on its own
		return nil
	})
	if errors.Is(err, errCommitted) {
		return db.Game(ctx, g.ID)
	}
	if err != nil {
		return nil, err
	}
	g.Token.Expires = gamerow.FromMS(expires)
	return &g, nil
}

// Accept starts a pending challenge. See tttbot.GameStore.
func (db *DB) Accept(ctx context.Context, r tttbot.AcceptRequest) (*tttbot.Game, error) {
	r = db.opts.Accept(r)
	return db.change(ctx, r.GameID, r.At, func(ctx context.Context, t *tx, g *tttbot.Game, st *tttbot.Settings, w *pgx.Batch) ([]tttbot.Move, error) {
		var rm room
		b := &pgx.Batch{}
		rm.queue(b, g)
		if err := t.c.SendBatch(ctx, b).Close(); err != nil {
			return nil, fmt.Errorf("read channel's games: %w", err)
		}
		return nil, st.Accept(g, r, rm.Room, db.opts.SimultaneousGames, db.opts.At(time.Time{}))
	})
}

// Decline ends a pending challenge: declined by its Opponent, cancelled by
// its Challenger.
func (db *DB) Decline(ctx context.Context, id int64, user string, version int, at time.Time, check tttbot.Check) (*tttbot.Game, error) {
	at = db.opts.At(at)
	return db.change(ctx, id, at, func(ctx context.Context, t *tx, g *tttbot.Game, st *tttbot.Settings, w *pgx.Batch) ([]tttbot.Move, error) {
		if err := check.On(g); err != nil {
			return nil, err
		}
		return nil, g.Decline(user, version, at)
	})
}

// Resign ends user's active game as a loss for user.
func (db *DB) Resign(ctx context.Context, id int64, user string, at time.Time, check tttbot.Check) (*tttbot.Game, error) {
	at = db.opts.At(at)
	return db.change(ctx, id, at, func(ctx context.Context, t *tx, g *tttbot.Game, st *tttbot.Settings, w *pgx.Batch) ([]tttbot.Move, error) {
		if err := check.On(g); err != nil {
			return nil, err
		}
		return nil, g.Resign(user, at)
	})
}

// RoundOver ends a game whose tournament round ran out. See
// tttbot.GameStore.
func (db *DB) RoundOver(ctx context.Context, id int64, at time.Time) (*tttbot.Game, error) {
	at = db.opts.At(at)
	return db.change(ctx, id, at, func(ctx context.Context, t *tx, g *tttbot.Game, st *tttbot.Settings, w *pgx.Batch) ([]tttbot.Move, error) {
		return nil, g.RoundOver(at)
	})
}

// Assist marks game id as played with a hint. See tttbot.GameStore.
func (db *DB) Assist(ctx context.Context, id int64, user string, version int) (*tttbot.Game, error) {
	var g *tttbot.Game
	err := db.write(ctx, func(ctx context.Context, t *tx) error {
		b := &pgx.Batch{}
		b.Queue(queryGameForUpdate, id).QueryRow(func(row pgx.Row) (err error) {
			g, err = gamerow.Game(row)
			return err
		})
		if err := t.begin(ctx, b); err != nil {
			return err
		}
		if err := g.Assist(user, version); err != nil {
			return err
		}
		w := &pgx.Batch{}
		w.Queue(gamerow.QueryAssist, true, id)
		return t.commit(ctx, w)
	})
	if errors.Is(err, errCommitted) {
		return db.Game(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	return g, nil
}

// Expire ends a game whose deadline has passed: a pending challenge expires;
// in an active game the player to move loses on time. A bot's turn carries a
// deadline too, so that Due finds a reply interrupted by a crash; the caller
// should let the bot move rather than expire it.
func (db *DB) Expire(ctx context.Context, id int64, version int, at time.Time) (*tttbot.Game, error) {
	at = db.opts.At(at)
	return db.change(ctx, id, at, func(ctx context.Context, t *tx, g *tttbot.Game, st *tttbot.Settings, w *pgx.Batch) ([]tttbot.Move, error) {
		return nil, g.Expire(version, at)
	})
}

// Due claims and lists open games due at time at (see tttbot.Game.Due),
// oldest first; a limit of 0 or less means all of them. See
// tttbot.GameStore.
func (db *DB) Due(ctx context.Context, at time.Time, limit int) ([]*tttbot.Game, error) {
	var n *int // NULL: no limit
	if limit > 0 {
		n = &limit
	}
	var out []*tttbot.Game
	// A claim is a write: not run again after a lost connection, which
	// might have claimed the games already. The timers' next tick does.
	err := db.queryOnce(ctx, func(rows gamerow.Rows) (err error) {
		out, err = gamerow.Due(rows)
		return err
	}, queryDue, gamerow.DueArgs(at, n)...)
	if err != nil {
		return nil, fmt.Errorf("find due games: %w", err)
	}
	return out, nil
}

// SetMessage records the board message of a game. It leaves the version
// alone: the message holds the board, it does not change it. It is one
// statement, which writes the game only when it holds another message
// (the same one again costs no row version), and records the interaction
// whenever the game exists, as every write of it does: the interaction's
// later changes, which then do not record it, are refused when replayed.
func (db *DB) SetMessage(ctx context.Context, id int64, messageID string) error {
	at := db.opts.At(time.Time{})
	return stored(db.write(ctx, func(ctx context.Context, t *tx) error {
		var found bool
		t.committing = true // one statement: it commits on its own
		err := t.c.QueryRow(ctx, `WITH u AS (UPDATE games SET message_id = $1, updated_at = $2
				WHERE id = $3 AND message_id IS DISTINCT FROM $1 RETURNING id),
			i AS (INSERT INTO interactions (id, seen_at) SELECT $4::bigint, $2::bigint
				WHERE $4::bigint <> 0 AND EXISTS (SELECT 1 FROM games WHERE id = $3))
			SELECT EXISTS (SELECT 1 FROM games WHERE id = $3)`, gamerow.NullString(messageID), at.UnixMilli(), id, t.in).Scan(&found)
		switch {
		case replay(err):
			return tttbot.ErrReplay
		case err != nil:
			return fmt.Errorf("set message: %w", err)
		case !found:
			return tttbot.ErrNotFound
		}
		t.closed = true // one statement: committed on its own
		return nil
	}))
}

// SetToken records t as game id's latest interaction token unless the game
// holds one that expires later. Like SetMessage, it leaves the version
// alone: the token reaches the board, it does not change it.
func (db *DB) SetToken(ctx context.Context, id int64, tok tttbot.Token) error {
	if err := tok.Check(); err != nil {
		return err
	}
	expires := gamerow.Round(tok.Expires).UnixMilli()
	return stored(db.write(ctx, func(ctx context.Context, t *tx) error {
		b := &pgx.Batch{}
		b.Queue(`WITH changed AS (UPDATE games SET token = $1, token_expires = $2
				WHERE id = $3 AND coalesce(token_expires, 0) <= $2 RETURNING id)
			SELECT EXISTS (SELECT 1 FROM games WHERE id = $3)`,
			tok.Value, expires, id).QueryRow(func(row pgx.Row) error {
			var found bool
			if err := row.Scan(&found); err != nil {
				return fmt.Errorf("set token: %w", err)
			}
			if !found {
				return tttbot.ErrNotFound
			}
			return nil
		})
		if err := t.begin(ctx, b); err != nil {
			return err
		}
		return t.commit(ctx, nil)
	}))
}

// ActiveGames counts the games being played, for the metrics.
func (db *DB) ActiveGames(ctx context.Context) (int, error) {
	var n int
	// The status IN (...) term lets the planner use a partial index of open games.
	err := db.read(ctx, func() error { return db.pool.QueryRow(ctx, gamerow.QueryActiveGames).Scan(&n) })
	if err != nil {
		return 0, fmt.Errorf("count active games: %w", err)
	}
	return n, nil
}
