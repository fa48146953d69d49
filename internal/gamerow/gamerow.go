// Package gamerow is a game, its moves and what it leaves behind —
// results, ratings, records against the bot — as both stores keep them:
// the SQL text that internal/sqlite and internal/postgres both run, one
// scan of each row over an interface that database/sql's rows and pgx's
// both satisfy, the stored form of times, empty strings and interaction
// IDs, and the Options both stores open with. What stays in a store is
// what truly differs between the engines.
//
// The queries' placeholders are $1, $2…, each first written in that
// order (see TestPlaceholders): SQLite reads $N as a named parameter
// numbered by its first appearance, PostgreSQL by N.
package gamerow

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/tttbot/tttbot"
)

// Options tune a store. The zero value is ready to use.
type Options struct {
	// SimultaneousGames is the default for guilds that have not set it:
	// whether a channel may hold more than one open game.
	SimultaneousGames bool

	// Logger receives migration and lifecycle logs; nil discards them.
	Logger *slog.Logger

	// Now is the clock for times the caller does not pass; nil is time.Now.
	Now func() time.Time
}

// WithDefaults returns o with a clock and a logger: time.Now and a logger
// that discards, where o has none.
func (o Options) WithDefaults() Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// At returns t, or the clock's time when t is zero, as stored.
func (o Options) At(t time.Time) time.Time {
	if t.IsZero() {
		t = o.Now()
	}
	return Round(t)
}

// Move returns m with its times as stored, At the clock's time when
// unset, and its Answer's too, as well as those its Prepare sets.
func (o Options) Move(m tttbot.MoveRequest) tttbot.MoveRequest {
	m = o.moveTimes(m)
	m.Prepare = roundPrepared(m.Prepare, o.moveTimes)
	return m
}

func (o Options) moveTimes(m tttbot.MoveRequest) tttbot.MoveRequest {
	m.At, m.Deadline = o.At(m.At), Round(m.Deadline)
	m.Click.Token.Expires = Round(m.Click.Token.Expires)
	if m.Answer != nil {
		a := o.moveTimes(*m.Answer)
		m.Answer = &a
	}
	return m
}

// Accept returns r with its times as stored, At the clock's time when
// unset, as well as those its Prepare sets.
func (o Options) Accept(r tttbot.AcceptRequest) tttbot.AcceptRequest {
	r = o.acceptTimes(r)
	r.Prepare = roundPrepared(r.Prepare, o.acceptTimes)
	return r
}

func (o Options) acceptTimes(r tttbot.AcceptRequest) tttbot.AcceptRequest {
	r.At, r.Deadline = o.At(r.At), Round(r.Deadline)
	r.Click.Token.Expires = Round(r.Click.Token.Expires)
	return r
}

// roundPrepared is prepare, a request's Prepare (nil: none), with the
// times it sets given, by times, the precision they have as stored.
func roundPrepared[R any](prepare func(*R, *tttbot.Game) error, times func(R) R) func(*R, *tttbot.Game) error {
	if prepare == nil {
		return nil
	}
	return func(r *R, g *tttbot.Game) error {
		if err := prepare(r, g); err != nil {
			return err
		}
		*r = times(*r)
		return nil
	}
}

// Open is the condition of the games_open_* partial indexes; queries
// repeat it word for word so that both planners use them.
const Open = "status IN ('pending', 'active')"

// Columns are a game's columns, in the order Game scans them.
const Columns = `id, coalesce(guild_id, ''), channel_id, coalesce(message_id, ''),
	board_rows, board_cols, k, challenger_id, opponent_id, coalesce(bot_level, ''),
	coalesce(x_player_id, ''), coalesce(o_player_id, ''), status, board, coalesce(turn_id, ''),
	version, coalesce(deadline, 0), coalesce(winner_id, ''), coalesce(reason, ''),
	created_at, updated_at, coalesce(finished_at, 0), language,
	webhook, guest, coalesce(token, ''), coalesce(token_expires, 0), assisted, unrated, coalesce(turn_timeout, 0)`

// The queries of games and moves that both engines run. Those on every
// command and timer tick must stay on an index as games pile up (each
// store's TestQueryPlans).
const (
	QueryGame = "SELECT " + Columns + " FROM games WHERE id = $1"
	// Two seeks, one per index, rather than an OR that scans the channel.
	QueryOpenGame = "SELECT " + Columns + " FROM games WHERE id = (SELECT min(id) FROM (" +
		"SELECT id FROM games WHERE channel_id = $1 AND challenger_id = $2 AND " + Open + " UNION ALL " +
		"SELECT id FROM games WHERE channel_id = $1 AND opponent_id = $2 AND " + Open + ") AS mine)"
	// Another open game in channel $1 than game $2 of player $3 or $4.
	QueryPlayerBusy = "SELECT challenger_id, opponent_id FROM games WHERE channel_id = $1 AND " + Open +
		" AND id <> $2 AND (challenger_id IN ($3, $4) OR opponent_id IN ($3, $4)) LIMIT 1"
	QueryChannelBusy = "SELECT EXISTS (SELECT 1 FROM games WHERE channel_id = $1 AND " + Open + " AND id <> $2)"
	QueryLastStart   = "SELECT max(created_at) FROM games WHERE challenger_id = $1 AND guild_id = $2"
	QueryActiveGames = "SELECT count(*) FROM games WHERE " + Open + " AND status = 'active'"

	// QueryInsertGame takes InsertArgs; PostgreSQL reads the new ID with
	// " RETURNING id", SQLite as the last rowid inserted (see internal/sqlite).
	QueryInsertGame = `INSERT INTO games (guild_id, channel_id, message_id,
		board_rows, board_cols, k, challenger_id, opponent_id, bot_level, x_player_id, o_player_id,
		status, board, turn_id, version, deadline, created_at, updated_at, exclusive, language,
		webhook, guest, token, token_expires, unrated, turn_timeout)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
		$21, $22, $23, $24, $25, $26)`
	// QueryAssist marks game $2 as played with a hint ($1 is true).
	QueryAssist     = "UPDATE games SET assisted = $1 WHERE id = $2"
	QueryInsertMove = "INSERT INTO moves (game_id, ply, cell, player_id, at) VALUES ($1, $2, $3, $4, $5)"
	// QueryInsertResults takes ResultsArgs. A guest game counts on no
	// leaderboard of its guild.
	QueryInsertResults = `INSERT INTO results
		(game_id, player_id, opponent_id, guild_id, outcome, reason, bot_level, finished_at, guild_rated)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9), ($1, $3, $2, $4, $10, $6, $7, $8, $9)`
	// QueryMoves lists game $1's moves for Moves: one row of NULLs for a
	// game without any, none for no game.
	QueryMoves = "SELECT " + gameMoves
	// QueryGameMoves is QueryMoves with the game's Columns first on each
	// row: a game and its moves in one statement.
	QueryGameMoves = "SELECT " + Columns + ", " + gameMoves
	// gameMoves is the moves' columns (see move) and what follows them in
	// QueryMoves and QueryGameMoves.
	gameMoves = `m.ply, m.cell, m.player_id, m.at
		FROM games g LEFT JOIN moves m ON m.game_id = g.id
		WHERE g.id = $1 ORDER BY m.ply`

	// The placeholder $2 takes the place of player $1 in game $3.
	QueryAnonymizeGame = `UPDATE games SET
		challenger_id = CASE WHEN challenger_id = $1 THEN $2 ELSE challenger_id END,
		opponent_id = CASE WHEN opponent_id = $1 THEN $2 ELSE opponent_id END,
		x_player_id = CASE WHEN x_player_id = $1 THEN $2 ELSE x_player_id END,
		o_player_id = CASE WHEN o_player_id = $1 THEN $2 ELSE o_player_id END,
		turn_id = CASE WHEN turn_id = $1 THEN $2 ELSE turn_id END,
		winner_id = CASE WHEN winner_id = $1 THEN $2 ELSE winner_id END
		WHERE id = $3`
	QueryAnonymizeMoves = `UPDATE moves SET player_id = CASE WHEN player_id = $1 THEN $2 END
		WHERE game_id = $3 AND player_id = $1`
	QueryAnonymizeResults = `UPDATE results SET
		player_id = CASE WHEN player_id = $1 THEN $2 ELSE player_id END,
		opponent_id = CASE WHEN opponent_id = $1 THEN $2 ELSE opponent_id END
		WHERE game_id = $3`

	// QueryPruneInteractions deletes the interactions seen before $2 among
	// the $1 with the lowest IDs: a walk of $1 entries from the primary
	// key's left edge however large the table is. IDs grow with time, so
	// these are the oldest; one recorded out of order is deleted once it
	// is old itself.
	QueryPruneInteractions = `DELETE FROM interactions WHERE id IN
		(SELECT id FROM (SELECT id, seen_at FROM interactions ORDER BY id LIMIT $1) AS oldest WHERE seen_at < $2)`
)

// Scanner is a row: *sql.Row, *sql.Rows, pgx.Row and pgx.Rows all are.
type Scanner interface{ Scan(dest ...any) error }

// Rows are the rows of a query: *sql.Rows and pgx.Rows both are.
type Rows interface {
	Scanner
	Next() bool
	Err() error
}

// Query runs a read query with args and hands its rows to read, on a
// store's own connections: database/sql's in SQLite, pgx's in PostgreSQL.
type Query func(ctx context.Context, read func(Rows) error, query string, args ...any) error

// ReadMoves lists the moves of game id in order, through q.
func ReadMoves(ctx context.Context, q Query, id int64) (moves []tttbot.Move, err error) {
	err = q(ctx, func(rows Rows) (err error) {
		moves, err = Moves(rows, id)
		return err
	}, QueryMoves, id)
	if err != nil {
		return nil, fmt.Errorf("read moves: %w", err)
	}
	if moves == nil {
		return nil, tttbot.ErrNotFound
	}
	return moves, nil
}

// ReadGameMoves reads game id and its moves in order, through q, in one
// statement.
func ReadGameMoves(ctx context.Context, q Query, id int64) (*tttbot.Game, []tttbot.Move, error) {
	var g *tttbot.Game
	var moves []tttbot.Move
	err := q(ctx, func(rows Rows) error {
		g, moves = nil, []tttbot.Move{} // a read run again starts over
		for rows.Next() {
			var m move
			row, err := Game(rows, m.dest()...)
			if err != nil {
				return err
			}
			g, moves = row, m.appendTo(moves, id)
		}
		return rows.Err()
	}, QueryGameMoves, id)
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("read game and moves: %w", err)
	case g == nil:
		return nil, nil, tttbot.ErrNotFound
	}
	return g, moves, nil
}

// move is a row's move of QueryMoves or QueryGameMoves: NULLs for a game
// without any.
type move struct {
	ply, cell, at *int64
	player        *string
}

func (m *move) dest() []any { return []any{&m.ply, &m.cell, &m.player, &m.at} }

// appendTo appends m, a move of game id, to moves, unless it is NULLs.
func (m *move) appendTo(moves []tttbot.Move, id int64) []tttbot.Move {
	if m.ply == nil {
		return moves
	}
	return append(moves, tttbot.Move{GameID: id, Ply: int(*m.ply), Cell: int(*m.cell), Player: *m.player, At: FromMS(*m.at)})
}

// Game reads the Columns of row, then any extra columns into extra;
// tttbot.ErrNotFound when there is no row.
func Game(row Scanner, extra ...any) (*tttbot.Game, error) {
	var g tttbot.Game
	var deadline, created, updated, finished, expires, turn int64
	err := row.Scan(append([]any{&g.ID, &g.GuildID, &g.ChannelID, &g.MessageID,
		&g.Rows, &g.Cols, &g.K, &g.Challenger, &g.Opponent, &g.BotLevel,
		&g.XPlayer, &g.OPlayer, &g.Status, &g.Board, &g.Turn,
		&g.Version, &deadline, &g.Winner, &g.Reason,
		&created, &updated, &finished, &g.Language,
		&g.Webhook, &g.Guest, &g.Token.Value, &expires, &g.Assisted, &g.Unrated, &turn}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) { // pgx.ErrNoRows is sql.ErrNoRows too
		return nil, tttbot.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read game: %w", err)
	}
	g.Deadline, g.CreatedAt, g.UpdatedAt, g.FinishedAt = FromMS(deadline), FromMS(created), FromMS(updated), FromMS(finished)
	g.Token.Expires = FromMS(expires)
	g.TurnTimeout = time.Duration(turn) * time.Second
	return &g, nil
}

// DueArgs are the arguments of a store's query of the games due at time
// at, up to limit: $1 the time, $2 the limit, $3 the end of the claims it
// makes (tttbot.ClaimLease), $4 the latest deadline due (tttbot.DueBy).
func DueArgs(at time.Time, limit any) []any {
	return []any{at.UnixMilli(), limit, at.Add(tttbot.ClaimLease).UnixMilli(), tttbot.DueBy(at).UnixMilli()}
}

// Due reads the games of rows, claimed as due, oldest deadline first:
// RETURNING gives them in no promised order.
func Due(rows Rows) ([]*tttbot.Game, error) {
	out, err := collect(rows, func(row Scanner) (*tttbot.Game, error) { return Game(row) })
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b *tttbot.Game) int {
		return cmp.Or(a.Deadline.Compare(b.Deadline), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// collect reads every row of rows with scan.
func collect[T any](rows Rows, scan func(Scanner) (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Moves reads the rows of QueryMoves for game id: nil when there is no
// such game.
func Moves(rows Rows, id int64) ([]tttbot.Move, error) {
	var moves []tttbot.Move
	for rows.Next() {
		if moves == nil {
			moves = []tttbot.Move{}
		}
		var m move
		if err := rows.Scan(m.dest()...); err != nil {
			return nil, err
		}
		moves = m.appendTo(moves, id)
	}
	return moves, rows.Err()
}

// InsertArgs are the values of QueryInsertGame for g, new, and whether it
// holds its channel alone (see migration 00007: exclusive is NULL or true).
func InsertArgs(g *tttbot.Game, exclusive bool) []any {
	var excl *bool
	if exclusive {
		excl = &exclusive
	}
	return []any{NullString(g.GuildID), g.ChannelID, NullString(g.MessageID),
		g.Rows, g.Cols, g.K, g.Challenger, g.Opponent, NullString(g.BotLevel),
		NullString(g.XPlayer), NullString(g.OPlayer),
		string(g.Status), g.Board, NullString(g.Turn), g.Version, ToMS(g.Deadline),
		g.CreatedAt.UnixMilli(), g.UpdatedAt.UnixMilli(), excl, g.Language,
		g.Webhook, g.Guest, NullString(g.Token.Value), ToMS(g.Token.Expires), g.Unrated, turnTimeout(g)}
}

// turnTimeout is g's own turn timeout as stored: whole seconds, NULL for
// none.
func turnTimeout(g *tttbot.Game) any {
	if g.TurnTimeout <= 0 {
		return nil
	}
	return int64(g.TurnTimeout / time.Second)
}

// ResultsArgs are the values of QueryInsertResults for finished game g:
// its result once per player.
func ResultsArgs(g *tttbot.Game) []any {
	return []any{g.ID, g.Challenger, g.Opponent, NullString(g.GuildID),
		string(g.Outcome(g.Challenger)), string(g.Reason), NullString(g.BotLevel), g.FinishedAt.UnixMilli(), !g.Guest,
		string(g.Outcome(g.Opponent))}
}

// InteractionID reads an interaction's ID as stored, a positive bigint.
func InteractionID(id string) (int64, error) {
	n, err := tttbot.ParseID(id)
	if err != nil || int64(n) <= 0 {
		return 0, tttbot.Errorf(tttbot.EINVALID, "I can't read this interaction's ID.")
	}
	return int64(n), nil
}

// Times are stored as Unix milliseconds; the zero time as NULL.

// ToMS is t as stored.
func ToMS(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	ms := t.UnixMilli()
	return &ms
}

// FromMS reads a time as stored, 0 for NULL.
func FromMS(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// Round gives t the precision it will have once read back.
func Round(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return time.UnixMilli(t.UnixMilli()).UTC()
}

// NullString stores "" as NULL.
func NullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// RoundTimes gives the times of new game g that its creator set the
// precision they will have once read back.
func RoundTimes(g *tttbot.Game) {
	g.Deadline, g.Token.Expires = Round(g.Deadline), Round(g.Token.Expires)
}

// Players are g's two players in ID order, as new games lock their rows,
// each with the name and avatar that names gives them, "" for none.
func Players(g *tttbot.Game, names []tttbot.Player) []tttbot.Player {
	ids := []string{g.Challenger, g.Opponent}
	slices.Sort(ids)
	out := make([]tttbot.Player, len(ids))
	for i, id := range ids {
		out[i].ID = id
		for _, q := range names {
			if q.ID == id {
				out[i] = q
			}
		}
	}
	return out
}

// Inserted is the outcome of a new game's insert that failed with err, or
// not: tttbot.ErrChannelBusy when taken, the schema refusing a second
// exclusive open game in its channel (games_one_open_per_channel).
func Inserted(err error, taken bool) error {
	switch {
	case taken:
		return tttbot.ErrChannelBusy
	case err != nil:
		return fmt.Errorf("insert game: %w", err)
	}
	return nil
}
