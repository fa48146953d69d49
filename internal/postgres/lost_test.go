package postgres

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/internal/storetest"
)

// TestConnLost: a connection's end is told from a statement's failure and
// from a timeout.
func TestConnLost(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"none", nil, false},
		{"backend terminated", &pgconn.PgError{Severity: "FATAL", Code: "57P01"}, true},
		{"connection failure", fmt.Errorf("read: %w", &pgconn.PgError{Code: "08006"}), true},
		{"starting up", &pgconn.PgError{Code: "57P03"}, true},
		{"unexpected EOF", fmt.Errorf("receive message: %w", io.ErrUnexpectedEOF), true},
		{"reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, true},
		{"duplicate key", &pgconn.PgError{Code: "23505"}, false},
		{"deadlock", &pgconn.PgError{Code: "40P01"}, false},
		{"query canceled", &pgconn.PgError{Code: "57014"}, false},
		{"deadline", fmt.Errorf("write: %w", context.DeadlineExceeded), false},
		{"canceled", context.Canceled, false},
		{"refusal", tttbot.ErrReplay, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := connLost(tt.err); got != tt.want {
				t.Errorf("connLost(%v): got %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

// syncBuffer is a log's buffer that its writers and the test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// withApp is rawURL with a new application_name, which tells the
// connections of one test's pool from every other's on the server.
func withApp(t *testing.T, rawURL string) (string, string) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	app := "tttbot_test_" + strings.ToLower(rand.Text()[:12])
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	return u.String(), app
}

// openLogged opens a store at rawURL whose log the test reads.
func openLogged(t *testing.T, rawURL string) (*DB, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	db, err := Open(t.Context(), rawURL, Options{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db, logs
}

// killBackends fills db's pool with n open connections, then ends their
// backends on the server, as pg_terminate_backend or a restart does, and
// waits until they are gone: the pool holds n dead connections.
func killBackends(t *testing.T, db *DB, app string, n int) {
	t.Helper()
	ctx := t.Context()
	var conns []*pgxpool.Conn
	for range n {
		c, err := db.pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		c.Release()
	}
	admin, err := pgx.Connect(ctx, os.Getenv(pgtest.Var))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var killed int
	err = admin.QueryRow(ctx, `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000))
		FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`, app).Scan(&killed)
	if err != nil {
		t.Fatal(err)
	}
	if killed < n {
		t.Fatalf("killed %d backends, want the pool's %d", killed, n)
	}
}

// TestKilledBackends: with every backend of the pool ended between two
// calls, a read and a write each succeed: the first run loses its
// connection, the pool is reset, and the second runs on a new one.
func TestKilledBackends(t *testing.T) {
	rawURL, app := withApp(t, pgtest.Store(t))
	db, _ := openLogged(t, rawURL)
	ctx := t.Context()
	g := storetest.StartGame(t, db, "c1", "alice", "bob")

	killBackends(t, db, app, 3)
	got, err := db.Game(ctx, g.ID)
	if err != nil || got.Version != g.Version {
		t.Fatalf("read after the backends were killed: got %v, %v; want version %d", got, err, g.Version)
	}

	killBackends(t, db, app, 3)
	// The click's one statement commits on its own: its outcome unknown,
	// the replay check finds it not committed, and it runs again.
	played, err := db.Play(tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: "8001"}), storetest.Click(g, "alice", 4), g)
	if err != nil || played.Version != g.Version+1 {
		t.Fatalf("click after the backends were killed: got %v, %v; want version %d", played, err, g.Version+1)
	}

	killBackends(t, db, app, 3)
	// A challenge, with no interaction: lost at its first round trip,
	// before COMMIT, it runs again.
	if err := db.StartGame(ctx, storetest.Challenge("c2", "carol", "dave"), nil); err != nil {
		t.Fatalf("write after the backends were killed: %v", err)
	}

	killBackends(t, db, app, 3)
	if _, err := db.Leaderboard(ctx, "", tttbot.Shape{Rows: 3, Cols: 3, K: 3}, 0, 10); err != nil {
		t.Fatalf("snapshot read after the backends were killed: %v", err)
	}
	moves, err := db.Moves(ctx, g.ID)
	if err != nil || len(moves) != 1 {
		t.Fatalf("moves: got %v, %v; want 1", moves, err)
	}
}

// TestCommitUnconfirmed: a click whose connection is lost after its commit
// was sent, with the commit made (delivered) or not, on the locking path
// (COMMIT) and on the one-statement path: the replay check tells which,
// and the click either runs again or reads the game it stored; either way
// it succeeds with one move. Without an interaction to check, the write
// reports that its outcome is unknown.
func TestCommitUnconfirmed(t *testing.T) {
	proxy, rawURL := newCutProxy(t, pgtest.Store(t))
	db, logs := openLogged(t, rawURL)
	tests := []struct {
		name    string
		deliver bool   // the server receives the commit
		seen    bool   // the click is on the game as read: one statement
		in      string // the interaction; "": none
		wantLog string // "": the write fails, its outcome unknown
	}{
		{"committed", true, false, "8101", "committed=true"},
		{"committed in one statement", true, true, "8102", "committed=true"},
		{"not committed", false, false, "8103", "committed=false"},
		{"not committed in one statement", false, true, "8104", "committed=false"},
		{"committed without interaction", true, false, "", ""},
		{"not committed without interaction", false, false, "", ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			g := storetest.StartGame(t, db, fmt.Sprint("c", i), "alice", "bob")
			if tt.in != "" {
				ctx = tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: tt.in})
			}
			var seen *tttbot.Game
			mark := "COMMIT"
			if tt.seen {
				seen, mark = g, queryPlaySeen
			}
			cuts, logged := proxy.cutCount(), strings.Count(logs.String(), tt.wantLog)
			proxy.arm(tt.deliver, mark)
			got, err := db.Play(ctx, storetest.Click(g, "alice", 4), seen)
			if n := proxy.cutCount(); n != cuts+1 {
				t.Fatalf("got %d connections cut, want 1", n-cuts)
			}
			moves := func() int {
				var n int
				if err := db.pool.QueryRow(t.Context(), "SELECT count(*) FROM moves WHERE game_id = $1", g.ID).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			if tt.wantLog == "" {
				want := 0
				if tt.deliver {
					want = 1
				}
				if !errors.As(err, new(*commitUnknown)) || moves() != want {
					t.Fatalf("got %v and %d moves stored, want the outcome unknown and %d", err, moves(), want)
				}
				return
			}
			if err != nil || got.Version != g.Version+1 || got.Board != ".../.X./..." || moves() != 1 {
				t.Fatalf("got %+v, %v, %d moves stored; want version %d with X on cell 4, one move", got, err, moves(), g.Version+1)
			}
			if n := strings.Count(logs.String(), tt.wantLog); n != logged+1 {
				t.Errorf("got %d log lines with %s, want 1:\n%s", n-logged, tt.wantLog, logs)
			}
			// The interaction is recorded: sent again, it changes nothing.
			_, err = db.Play(tttbot.WithInteraction(t.Context(), &tttbot.Interaction{ID: tt.in}), storetest.Click(g, "alice", 4), nil)
			storetest.WantCode(t, err, tttbot.EREPLAY)
			if n := moves(); n != 1 {
				t.Errorf("after the replay: got %d moves, want 1", n)
			}
		})
	}
}
