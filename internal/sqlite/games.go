package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
)

// The queries of games that SQLite runs alone (see TestQueryPlans for
// those that must stay on an index).
const (
	// A game and the settings of its guild that a change applies.
	queryGameToChange = "SELECT " + gamerow.Columns +
		", ifnull((SELECT role_id FROM guilds WHERE id = games.guild_id), '')" +
		", ifnull((SELECT turn_timeout FROM guilds WHERE id = games.guild_id), 0)" +
		", (SELECT simultaneous_games FROM guilds WHERE id = games.guild_id) FROM games WHERE id = ?"
	// The due games not claimed, oldest first: claimed until ?3. It takes
	// gamerow.DueArgs.
	queryDueGames = "SELECT id FROM games WHERE " + gamerow.Open + " AND deadline <= ?4 AND (claimed_until IS NULL OR claimed_until <= ?1)" +
		" ORDER BY deadline, id LIMIT ?2"
	queryAnyDue = "SELECT EXISTS (" + queryDueGames + ")"
	// The turn timeout of guild ?, for a move on a game as seen.
	queryTurnTimeout = "SELECT ifnull(turn_timeout, 0) FROM guilds WHERE id = ?"
	queryDue         = "UPDATE games SET claimed_until = ?3 WHERE id IN (" + queryDueGames + ") RETURNING " + gamerow.Columns
	// A guild, unless known already.
	queryAddGuild = "INSERT INTO guilds (id, updated_at) VALUES (?, ?) ON CONFLICT DO NOTHING"
)

// Game returns a game by ID.
func (db *DB) Game(ctx context.Context, id int64) (*tttbot.Game, error) {
	return gamerow.Game(db.r.QueryRowContext(uncancelled(ctx), gamerow.QueryGame, id))
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
func (db *DB) OpenGame(ctx context.Context, channelID, user string) (*tttbot.Game, error) {
	return gamerow.Game(db.r.QueryRowContext(uncancelled(ctx), gamerow.QueryOpenGame, channelID, user))
}

// StartGame inserts g as a pending challenge or, against the bot, an
// active game, with the empty board or its opening, once prepare has
// decided on it from the guild's settings, and records the display names
// of players. See tttbot.GameStore.
func (db *DB) StartGame(ctx context.Context, g *tttbot.Game, prepare func(*tttbot.Game, tttbot.Admission) (*tttbot.MoveRequest, error), players ...tttbot.Player) error {
	now := db.opts.At(time.Time{})
	var n tttbot.Game
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		n = *g
		adm, err := admission(ctx, tx, n.GuildID, n.Challenger)
		if err != nil {
			return err
		}
		if n.Rematch != 0 {
			if adm.Rematched, err = gamerow.Game(tx.QueryRowContext(ctx, gamerow.QueryGame, n.Rematch)); err != nil {
				return err
			}
		}
		opening, err := n.Start(adm, prepare, now)
		if err != nil {
			return err
		}
		gamerow.RoundTimes(&n)
		for _, p := range gamerow.Players(&n, players) {
			if err := savePlayer(ctx, tx, p, n.CreatedAt); err != nil {
				return err
			}
		}
		if n.GuildID != "" {
			if _, err := tx.ExecContext(ctx, queryAddGuild, n.GuildID, n.CreatedAt.UnixMilli()); err != nil {
				return fmt.Errorf("save guild: %w", err)
			}
		}
		room, err := readRoom(ctx, tx, &n, !adm.Settings.Shares(db.opts.SimultaneousGames))
		if err != nil {
			return err
		}
		excl, err := adm.Settings.Room(&n, n.Challenger, room, db.opts.SimultaneousGames)
		if err != nil {
			return err
		}
		// The last rowid, not RETURNING: see updateQuery.
		res, err := tx.ExecContext(ctx, gamerow.QueryInsertGame, gamerow.InsertArgs(&n, excl)...)
		if err == nil {
			n.ID, err = res.LastInsertId()
		}
		if err := gamerow.Inserted(err, channelTaken(err)); err != nil {
			return err
		}
		return insertMoves(ctx, tx, n.ID, opening)
	})
	if err == nil {
		*g = n
	}
	return err
}

// insertMoves writes moves, made in game id, in tx.
func insertMoves(ctx context.Context, tx *sql.Conn, id int64, moves []tttbot.Move) error {
	for _, mv := range moves {
		if _, err := tx.ExecContext(ctx, gamerow.QueryInsertMove, id, mv.Ply, mv.Cell, mv.Player, mv.At.UnixMilli()); err != nil {
			return fmt.Errorf("insert move: %w", err)
		}
	}
	return nil
}

// admission reads, in tx, what a guild's rules decide a new game of
// challenger on: its settings and, when it has a cooldown, the
// challenger's last game there.
func admission(ctx context.Context, tx *sql.Conn, guildID, challenger string) (tttbot.Admission, error) {
	s, err := readSettings(ctx, tx, guildID)
	if err != nil {
		return tttbot.Admission{}, err
	}
	adm := tttbot.Admission{Settings: *s}
	if s.Cooldown > 0 {
		if adm.LastStart, err = lastStart(ctx, tx, guildID, challenger); err != nil {
			return tttbot.Admission{}, err
		}
	}
	return adm, nil
}

// readRoom reads, inside the caller's transaction, what the room rules
// know of g's channel: whether it is occupied only when channel is set,
// as the rules ask it only then (see tttbot.Room).
func readRoom(ctx context.Context, tx *sql.Conn, g *tttbot.Game, channel bool) (tttbot.Room, error) {
	var r tttbot.Room
	p := g.RoomPlayers()
	var c, o string
	err := tx.QueryRowContext(ctx, gamerow.QueryPlayerBusy, g.ChannelID, g.ID, p[0], p[1]).Scan(&c, &o)
	switch {
	case err == nil:
		r.PlayerGame = []string{c, o}
	case !errors.Is(err, sql.ErrNoRows):
		return r, fmt.Errorf("find player's games: %w", err)
	}
	if !channel {
		return r, nil
	}
	if err := tx.QueryRowContext(ctx, gamerow.QueryChannelBusy, g.ChannelID, g.ID).Scan(&r.Occupied); err != nil {
		return r, fmt.Errorf("find channel's games: %w", err)
	}
	return r, nil
}

// channelTaken reports whether err is the schema refusing a second
// exclusive open game in a channel (games_one_open_per_channel).
func channelTaken(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintUnique &&
		strings.Contains(se.Error(), "games.channel_id")
}

// change runs fn on game id in one write transaction, then saves the game
// as tttbot.Game.Change leaves it and, if fn finished it, its results and
// the ratings or records they change. fn changes the game through its
// domain methods, which refuse with an *tttbot.Error. st are the settings
// of the game's guild that a change applies — its role, turn timeout and
// simultaneous games —, read with the game in one statement: a move pays
// for no second one.
func (db *DB) change(ctx context.Context, id int64, at time.Time, fn changeFunc) (*tttbot.Game, error) {
	var g *tttbot.Game
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) (err error) {
		g, err = db.changeRead(ctx, tx, id, at, fn)
		return err
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// changeFunc changes game g, whose guild has settings st, in transaction tx.
type changeFunc func(ctx context.Context, tx *sql.Conn, g *tttbot.Game, st *tttbot.Settings) error

// changeRead is change's work in tx: it reads the game and its guild's
// settings, and changes it. It remembers the guild's turn timeout for
// playSeen.
func (db *DB) changeRead(ctx context.Context, tx *sql.Conn, id int64, at time.Time, fn changeFunc) (*tttbot.Game, error) {
	var st tttbot.Settings
	var turn int64
	g, err := gamerow.Game(tx.QueryRowContext(ctx, queryGameToChange, id), &st.Role, &turn, &st.Simultaneous)
	if err != nil {
		return nil, err
	}
	st.GuildID, st.TurnTimeout = g.GuildID, time.Duration(turn)*time.Second
	db.turnTimeouts.Put(g.GuildID, st.TurnTimeout)
	if err := changeGame(ctx, tx, g, at, nil, func(g *tttbot.Game) error { return fn(ctx, tx, g, &st) }); err != nil {
		return nil, err
	}
	return g, nil
}

// changeGame is change's work on g, read in tx. turn, unless nil, is the
// turn timeout fn assumed g's guild has, which the update checks.
func changeGame(ctx context.Context, tx *sql.Conn, g *tttbot.Game, at time.Time, turn *time.Duration, fn func(g *tttbot.Game) error) error {
	before := *g
	finished, err := g.Change(at, fn)
	if err != nil {
		return err
	}
	if err := update(ctx, tx, &before, g, turn); err != nil {
		return err
	}
	if finished {
		if err := writeResults(ctx, tx, g); err != nil {
			return err
		}
		if err := rate(ctx, tx, g); err != nil {
			return err
		}
	}
	return nil
}

// update saves the columns of g that differ from before, and only those:
// SQLite then maintains only the indexes on them (a move touches none but
// the deadline's), which keeps a move's commit small. It writes only while
// the game is still at before's version and holds before's message, token
// and hint mark, which change without a new version, and while its guild
// has turn timeout turn, unless nil; else it returns errMovedOn. g then
// gets the values the statement leaves in those.
func update(ctx context.Context, tx *sql.Conn, before, g *tttbot.Game, turn *time.Duration) error {
	query, args := updateQuery(before, g, turn)
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("update game: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("update game: %w", err)
	} else if n == 0 {
		return errMovedOn
	}
	// As the statement's SET leaves them: the message kept once known,
	// the token that expires last.
	g.MessageID = cmp.Or(before.MessageID, g.MessageID)
	if g.Token.Value == before.Token.Value || !g.Token.Supersedes(before.Token) {
		g.Token = before.Token
	}
	g.Token.Expires = gamerow.Round(g.Token.Expires)
	g.Assisted = before.Assisted
	return nil
}

// storedMS is t as the columns that store it read, 0 for none.
func storedMS(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// updateQuery is update's statement, and its arguments, for the change
// of before into g, in a guild with turn timeout turn unless nil. It has
// no RETURNING: SQLite buffers the rows of one in a temporary table, which
// costs a page cache allocated and freed per statement; update knows what
// it wrote without one.
func updateQuery(before, g *tttbot.Game, turn *time.Duration) (string, []any) {
	ms := func(t time.Time) any { // comparable, nil for NULL
		if p := gamerow.ToMS(t); p != nil {
			return *p
		}
		return nil
	}
	cols := []struct {
		name     string
		old, new any
	}{
		{"x_player_id", before.XPlayer, g.XPlayer},
		{"o_player_id", before.OPlayer, g.OPlayer},
		{"status", string(before.Status), string(g.Status)},
		{"board", before.Board, g.Board},
		{"turn_id", before.Turn, g.Turn},
		{"deadline", ms(before.Deadline), ms(g.Deadline)},
		{"winner_id", before.Winner, g.Winner},
		{"reason", string(before.Reason), string(g.Reason)},
		{"finished_at", ms(before.FinishedAt), ms(g.FinishedAt)},
	}
	var set strings.Builder
	// Any change ends a timer's claim (see Due).
	set.WriteString("UPDATE games SET version = ?, updated_at = ?, claimed_until = NULL")
	args := []any{g.Version, g.UpdatedAt.UnixMilli()}
	for _, c := range cols {
		if c.old == c.new {
			continue
		}
		fmt.Fprintf(&set, ", %s = ?", c.name)
		if s, ok := c.new.(string); ok {
			c.new = gamerow.NullString(s)
		}
		args = append(args, c.new)
	}
	// What a click told of its board (tttbot.BoardClick), which a game seen
	// by the caller may hold already, or hold newer: a board is one
	// message, and the token that expires last is kept.
	if g.MessageID != before.MessageID {
		set.WriteString(", message_id = coalesce(message_id, ?)")
		args = append(args, g.MessageID)
	}
	if g.Token.Value != before.Token.Value {
		expires := g.Token.Expires.UnixMilli()
		set.WriteString(", token = iif(ifnull(token_expires, 0) <= ?, ?, token), token_expires = max(ifnull(token_expires, 0), ?)")
		args = append(args, expires, g.Token.Value, expires)
	}
	set.WriteString(" WHERE id = ? AND version = ? AND ifnull(message_id, '') = ? AND ifnull(token, '') = ? AND ifnull(token_expires, 0) = ? AND assisted = ?")
	args = append(args, g.ID, before.Version, before.MessageID, before.Token.Value, storedMS(before.Token.Expires), before.Assisted)
	if turn != nil {
		set.WriteString(" AND ifnull((SELECT turn_timeout FROM guilds WHERE id = games.guild_id), 0) = ?")
		args = append(args, int64(*turn/time.Second))
	}
	return set.String(), args
}

// writeResults records the result of a finished game once per player.
func writeResults(ctx context.Context, tx *sql.Conn, g *tttbot.Game) error {
	if _, err := tx.ExecContext(ctx, gamerow.QueryInsertResults, gamerow.ResultsArgs(g)...); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

// Play applies a move and, when it ends the game, the result; then
// m.Answer, as tttbot.Game.PlayAnswered decides. See tttbot.GameStore. A
// move on a game seen that has not moved on reads no game (see playSeen).
func (db *DB) Play(ctx context.Context, m tttbot.MoveRequest, seen *tttbot.Game) (*tttbot.Game, error) {
	m = db.opts.Move(m)
	var moves []tttbot.Move
	play := func(_ context.Context, _ *sql.Conn, g *tttbot.Game, st *tttbot.Settings) (err error) {
		// Run in the write, with its lock taken: its time is the write's.
		moves, err = st.Play(g, m, db.opts.At(time.Time{}))
		return err
	}
	var g *tttbot.Game
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) (err error) {
		g, err = db.playSeen(ctx, tx, m, seen, play)
		if errors.Is(err, errMovedOn) {
			g, err = db.changeRead(ctx, tx, m.GameID, m.At, play)
		}
		if err != nil {
			return err
		}
		return insertMoves(ctx, tx, g.ID, moves)
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// errMovedOn is the word of playSeen, and of update, that nothing was
// written: the game must be read to apply the move, or to say why not.
var errMovedOn = errors.New("move not played on the game as read")

// playSeen is Play's change of seen, the game as the caller read it, in
// tx, without reading the game again: the write of the game checks that it
// is still at seen's version, which every change bumps. The guild's turn
// timeout is the one remembered (see changeRead), which the write checks
// too, or else read. errMovedOn, with nothing written, when there is no
// seen at m.Version, when the domain refuses the move on it (the game as
// read says why), or when the game or its guild's turn timeout has changed.
func (db *DB) playSeen(ctx context.Context, tx *sql.Conn, m tttbot.MoveRequest, seen *tttbot.Game, fn changeFunc) (*tttbot.Game, error) {
	if seen == nil || seen.ID != m.GameID || seen.Version != m.Version {
		return nil, errMovedOn
	}
	st := tttbot.Settings{GuildID: seen.GuildID}
	var assumed *time.Duration
	if turn, ok := db.turnTimeouts.Get(seen.GuildID); ok {
		st.TurnTimeout = turn
		if seen.GuildID != "" {
			assumed = &st.TurnTimeout
		}
	} else {
		var turn int64
		err := tx.QueryRowContext(ctx, queryTurnTimeout, seen.GuildID).Scan(&turn)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("read guild settings: %w", err)
		}
		st.TurnTimeout = time.Duration(turn) * time.Second
		db.turnTimeouts.Put(seen.GuildID, st.TurnTimeout)
	}
	g := *seen
	err := changeGame(ctx, tx, &g, m.At, assumed, func(g *tttbot.Game) error {
		if fn(ctx, tx, g, &st) != nil {
			return errMovedOn
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// Accept starts a pending challenge. See tttbot.GameStore.
func (db *DB) Accept(ctx context.Context, r tttbot.AcceptRequest) (*tttbot.Game, error) {
	r = db.opts.Accept(r)
	return db.change(ctx, r.GameID, r.At, func(ctx context.Context, tx *sql.Conn, g *tttbot.Game, st *tttbot.Settings) error {
		room, err := readRoom(ctx, tx, g, !st.Shares(db.opts.SimultaneousGames))
		if err != nil {
			return err
		}
		return st.Accept(g, r, room, db.opts.SimultaneousGames, db.opts.At(time.Time{}))
	})
}

// Decline ends a pending challenge: declined by its Opponent, cancelled by
// its Challenger.
func (db *DB) Decline(ctx context.Context, id int64, user string, version int, at time.Time, check tttbot.Check) (*tttbot.Game, error) {
	at = db.opts.At(at)
	return db.change(ctx, id, at, func(ctx context.Context, tx *sql.Conn, g *tttbot.Game, st *tttbot.Settings) error {
		if err := check.On(g); err != nil {
			return err
		}
		return g.Decline(user, version, at)
	})
}

// Resign ends user's active game as a loss for user.
func (db *DB) Resign(ctx context.Context, id int64, user string, at time.Time, check tttbot.Check) (*tttbot.Game, error) {
	at = db.opts.At(at)
	return db.change(ctx, id, at, func(ctx context.Context, tx *sql.Conn, g *tttbot.Game, st *tttbot.Settings) error {
		if err := check.On(g); err != nil {
			return err
		}
		return g.Resign(user, at)
	})
}

// RoundOver ends a game whose tournament round ran out. See
// tttbot.GameStore.
func (db *DB) RoundOver(ctx context.Context, id int64, at time.Time) (*tttbot.Game, error) {
	at = db.opts.At(at)
	return db.change(ctx, id, at, func(ctx context.Context, tx *sql.Conn, g *tttbot.Game, st *tttbot.Settings) error {
		return g.RoundOver(at)
	})
}

// Assist marks game id as played with a hint. See tttbot.GameStore.
func (db *DB) Assist(ctx context.Context, id int64, user string, version int) (*tttbot.Game, error) {
	var g *tttbot.Game
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) (err error) {
		if g, err = gamerow.Game(tx.QueryRowContext(ctx, gamerow.QueryGame, id)); err != nil {
			return err
		}
		if err := g.Assist(user, version); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, gamerow.QueryAssist, true, id); err != nil {
			return fmt.Errorf("mark assisted: %w", err)
		}
		return nil
	})
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
	return db.change(ctx, id, at, func(ctx context.Context, tx *sql.Conn, g *tttbot.Game, st *tttbot.Settings) error {
		return g.Expire(version, at)
	})
}

// Due claims and lists open games due at time at (see tttbot.Game.Due),
// oldest first; a limit of 0 or less means all of them. See
// tttbot.GameStore. It reads first and writes only when a game is due, so
// that an idle bot's timers do not queue for the writer every second.
func (db *DB) Due(ctx context.Context, at time.Time, limit int) ([]*tttbot.Game, error) {
	if limit <= 0 {
		limit = -1
	}
	var due bool
	if err := db.r.QueryRowContext(uncancelled(ctx), queryAnyDue, gamerow.DueArgs(at, 1)...).Scan(&due); err != nil {
		return nil, fmt.Errorf("find due games: %w", err)
	}
	if !due {
		return nil, nil
	}
	var out []*tttbot.Game
	err := db.upkeep(ctx, func(ctx context.Context, tx *sql.Conn) error {
		rows, err := tx.QueryContext(ctx, queryDue, gamerow.DueArgs(at, limit)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		out, err = gamerow.Due(rows)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("find due games: %w", err)
	}
	return out, nil
}

// SetMessage records the board message of a game. It leaves the version
// alone: the message holds the board, it does not change it. It writes
// only when the game holds another message: the same one again leaves the
// game's page out of the commit.
func (db *DB) SetMessage(ctx context.Context, id int64, messageID string) error {
	at := db.opts.At(time.Time{})
	return db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		res, err := tx.ExecContext(ctx, "UPDATE games SET message_id = ?1, updated_at = ?2 WHERE id = ?3 AND message_id IS NOT ?1",
			gamerow.NullString(messageID), at.UnixMilli(), id)
		if err != nil {
			return fmt.Errorf("set message: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("set message: %w", err)
		} else if n > 0 {
			return nil
		}
		var found bool
		if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM games WHERE id = ?)", id).Scan(&found); err != nil {
			return fmt.Errorf("set message: %w", err)
		}
		if !found {
			return tttbot.ErrNotFound
		}
		return nil
	})
}

// SetToken records t as game id's latest interaction token unless the game
// holds one that expires later. Like SetMessage, it leaves the version
// alone: the token reaches the board, it does not change it.
func (db *DB) SetToken(ctx context.Context, id int64, t tttbot.Token) error {
	if err := t.Check(); err != nil {
		return err
	}
	expires := gamerow.Round(t.Expires).UnixMilli()
	return db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET token = ?, token_expires = ?
			WHERE id = ? AND ifnull(token_expires, 0) <= ?`, t.Value, expires, id, expires)
		if err != nil {
			return fmt.Errorf("set token: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("set token: %w", err)
		} else if n > 0 {
			return nil
		}
		var found bool
		if err := tx.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM games WHERE id = ?)", id).Scan(&found); err != nil {
			return fmt.Errorf("set token: %w", err)
		}
		if !found {
			return tttbot.ErrNotFound
		}
		return nil
	})
}

// savePlayer adds a player and, when p has a name, records it and the
// avatar if either differs from those stored. An unchanged player costs no
// write.
func savePlayer(ctx context.Context, tx *sql.Conn, p tttbot.Player, at time.Time) error {
	if _, err := tx.ExecContext(ctx, gamerow.QuerySavePlayer, p.ID, p.Name, p.Avatar, tttbot.NewWebID(), at.UnixMilli()); err != nil {
		return fmt.Errorf("save player: %w", err)
	}
	if _, err := tx.ExecContext(ctx, gamerow.QueryRenamePlayer, p.Name, p.Avatar, at.UnixMilli(), p.ID); err != nil {
		return fmt.Errorf("save player: %w", err)
	}
	return nil
}
