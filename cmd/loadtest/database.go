package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// database is the store the bots share, as the load test checks it once
// they have stopped.
type database interface {
	// check runs the store's consistency check with the moves the bots
	// acknowledged.
	check(ctx context.Context, acked []tttbot.Move) ([]string, error)
	// games reads the games of ids.
	games(ctx context.Context, ids []int64) ([]*tttbot.Game, error)
	// tournament reads tournament id with its entrants and boards, and the
	// games played on its boards, by ID.
	tournament(ctx context.Context, id int64) (*tttbot.TournamentState, map[int64]*tttbot.Game, error)
	// commitSpeed is how many empty write transactions the database
	// commits in a second from commitConns connections, or 0 where it is
	// not measured.
	commitSpeed(ctx context.Context) (int, error)
	// transactions is how many transactions the database has committed or
	// rolled back so far, once the count has settled, or 0 where it is not
	// counted.
	transactions(ctx context.Context) (int64, error)
	// scratch opens an empty store of the same engine, removed by close,
	// for the floor's moves (floor.go).
	scratch(ctx context.Context, dir string) (s tttbot.GameStore, close func() error, err error)
}

// commitConns is how many connections commitSpeed commits from at once:
// two bots' default pools.
const commitConns = 8

// databaseOf returns the database of o: PostgreSQL's when -database-url is
// set, else the SQLite file's.
func databaseOf(o loadOptions) database {
	if o.databaseURL != "" {
		return postgresDB(o.databaseURL)
	}
	return sqliteDB(o.db)
}

// sqliteDB is the SQLite file at its path.
type sqliteDB string

func (path sqliteDB) check(ctx context.Context, acked []tttbot.Move) ([]string, error) {
	problems, err := sqlite.Check(ctx, string(path), acked)
	return texts(problems), err
}

// commitSpeed is not measured on SQLite, whose figures predate it.
func (sqliteDB) commitSpeed(context.Context) (int, error) { return 0, nil }

// transactions are not counted on SQLite.
func (sqliteDB) transactions(context.Context) (int64, error) { return 0, nil }

func (path sqliteDB) games(ctx context.Context, ids []int64) ([]*tttbot.Game, error) {
	db, err := sqlite.Open(ctx, string(path), sqlite.Options{})
	if err != nil {
		return nil, err
	}
	gs, err := readGames(ctx, db, ids)
	return gs, errors.Join(err, db.Close())
}

func (path sqliteDB) tournament(ctx context.Context, id int64) (*tttbot.TournamentState, map[int64]*tttbot.Game, error) {
	db, err := sqlite.Open(ctx, string(path), sqlite.Options{})
	if err != nil {
		return nil, nil, err
	}
	st, gs, err := readTournament(ctx, db, id)
	return st, gs, errors.Join(err, db.Close())
}

// postgresDB is the PostgreSQL database at its URL.
type postgresDB string

func (url postgresDB) check(ctx context.Context, acked []tttbot.Move) ([]string, error) {
	problems, err := postgres.Check(ctx, string(url), acked)
	return texts(problems), err
}

func (url postgresDB) games(ctx context.Context, ids []int64) ([]*tttbot.Game, error) {
	db, err := postgres.Open(ctx, string(url), postgres.Options{})
	if err != nil {
		return nil, err
	}
	gs, err := readGames(ctx, db, ids)
	return gs, errors.Join(err, db.Close())
}

// transactions reads PostgreSQL's count of the database's transactions
// once it has stopped changing: backends report theirs as they exit, a
// moment after their client (the bots, commitSpeed's pool) has closed its
// connections. It polls on one connection, which reports its own reads at
// most once a second and the last as it closes.
func (url postgresDB) transactions(ctx context.Context) (int64, error) {
	conn, err := pgx.Connect(ctx, string(url))
	if err != nil {
		return 0, fmt.Errorf("count transactions: %w", err)
	}
	defer conn.Close(ctx)
	read := func() (n int64, err error) {
		err = conn.QueryRow(ctx, `SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()`).Scan(&n)
		if err != nil {
			return 0, fmt.Errorf("count transactions: %w", err)
		}
		return n, nil
	}
	last, err := read()
	for i := 0; err == nil && i < 15; i++ {
		time.Sleep(200 * time.Millisecond)
		var n int64
		if n, err = read(); n == last {
			break
		}
		last = n
	}
	return last, err
}

func (url postgresDB) tournament(ctx context.Context, id int64) (*tttbot.TournamentState, map[int64]*tttbot.Game, error) {
	db, err := postgres.Open(ctx, string(url), postgres.Options{})
	if err != nil {
		return nil, nil, err
	}
	st, gs, err := readTournament(ctx, db, id)
	return st, gs, errors.Join(err, db.Close())
}

// commitSpeed times transactions that take a transaction ID and commit:
// each waits for the write-ahead log to reach the disk, as every click's
// does. It is a yardstick for the server, which others may share: a load
// test's figures compare only beside it.
func (url postgresDB) commitSpeed(ctx context.Context) (int, error) {
	cfg, err := pgxpool.ParseConfig(string(url))
	if err != nil {
		return 0, fmt.Errorf("time commits: %w", err)
	}
	cfg.MaxConns, cfg.MinConns = commitConns, commitConns
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return 0, fmt.Errorf("time commits: %w", err)
	}
	defer pool.Close()
	var n atomic.Int64
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	end := time.Now().Add(time.Second)
	for range commitConns {
		wg.Go(func() {
			for time.Now().Before(end) {
				if _, err := pool.Exec(ctx, "BEGIN; SELECT txid_current(); COMMIT"); err != nil {
					once.Do(func() { first = err })
					return
				}
				n.Add(1)
			}
		})
	}
	wg.Wait()
	if first != nil {
		return 0, fmt.Errorf("time commits: %w", first)
	}
	return int(n.Load()), nil
}

// readGames reads each game of ids from store.
func readGames(ctx context.Context, store tttbot.GameStore, ids []int64) ([]*tttbot.Game, error) {
	out := make([]*tttbot.Game, 0, len(ids))
	for _, id := range ids {
		g, err := store.Game(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("read game %d: %w", id, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// readTournament reads tournament id from store, and the game of each of
// its boards that has one.
func readTournament(ctx context.Context, store interface {
	tttbot.GameStore
	tttbot.TournamentStore
}, id int64) (*tttbot.TournamentState, map[int64]*tttbot.Game, error) {
	st, err := store.Tournament(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("read tournament %d: %w", id, err)
	}
	var ids []int64
	for _, tg := range st.Games {
		if tg.GameID != 0 {
			ids = append(ids, tg.GameID)
		}
	}
	gs, err := readGames(ctx, store, ids)
	if err != nil {
		return nil, nil, err
	}
	byID := make(map[int64]*tttbot.Game, len(gs))
	for _, g := range gs {
		byID[g.ID] = g
	}
	return st, byID, nil
}

func texts[T fmt.Stringer](s []T) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = v.String()
	}
	return out
}

// firedGrace is how long a deadline may have passed without firing when the
// check runs: it is due tttbot.DeadlineGrace after it, and the timers look
// once a second.
const firedGrace = tttbot.DeadlineGrace + 2*timerInterval

// checkDeadlines checks that each deadline of games fired exactly once, as
// the board edits at the REST stub show. edits counts, by message ID, the
// versions of the game that edits showed closed: the timers' edit after a
// deadline, and a /ttt resign's (a stale click's refresh shows the game
// open, and a click's refresh of an ended game redraws the version the
// timers' edit showed, so neither counts). A game
// ended by its deadline must have had its board edited so once, any other
// at most once, and no open game's deadline may have passed more than
// firedGrace before now unfired. After a kill, an
// ended game's board may lack its edit, lost with the killed bot: those are
// counted in unedited. fired counts the games ended by their deadline.
func checkDeadlines(games []*tttbot.Game, board func(*tttbot.Game) string, edits map[string]int, now time.Time, kill bool) (fired, unedited int, problems []string) {
	add := func(g *tttbot.Game, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("game %d: ", g.ID)+fmt.Sprintf(format, args...))
	}
	known := map[string]bool{}
	for _, g := range games {
		n := 0
		msg := board(g)
		if msg != "" {
			known[msg] = true
			n = edits[msg]
		}
		ended := g.Status == tttbot.StatusExpired || g.Status == tttbot.StatusFinished && g.Reason == tttbot.ReasonTimeout
		open := g.Status == tttbot.StatusPending || g.Status == tttbot.StatusActive
		switch {
		case ended:
			fired++
			switch {
			case msg == "":
				add(g, "%s by its deadline, and its board out of the timers' reach: no message, no token", g.Status)
			case n == 0 && kill:
				unedited++
			case n != 1:
				add(g, "%s by its deadline, and its board edited %d times by the timers, want once", g.Status, n)
			}
		case n > 1:
			add(g, "%s, not by its deadline, and its board edited %d times to show it closed, want at most once", g.Status, n)
		case open && !g.Deadline.IsZero() && g.Deadline.Before(now.Add(-firedGrace)):
			add(g, "%s, its deadline %s past and never fired", g.Status, now.Sub(g.Deadline).Round(time.Millisecond))
		}
	}
	var other []string
	for m, n := range edits {
		if !known[m] && n > 1 {
			other = append(other, m)
		}
	}
	slices.Sort(other)
	for _, m := range other {
		problems = append(problems, fmt.Sprintf("message %s, of a game the driver never saw, edited %d times by the timers", m, edits[m]))
	}
	return fired, unedited, problems
}
