package main

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// waitRun is serve started on a database that may be down: each wait
// between its attempts to open it is announced on waiting, and takes
// no time once the test has received it.
type waitRun struct {
	health  string // /healthz's URL
	waiting chan time.Duration
	ready   chan struct{}
	errc    chan error
	cancel  context.CancelFunc
}

func startWaiting(t *testing.T, cfg config.Config) *waitRun {
	t.Helper()
	log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithCancel(context.Background())
	r := &waitRun{waiting: make(chan time.Duration), ready: make(chan struct{}), errc: make(chan error, 1), cancel: cancel}
	addr := make(chan string, 1)
	go func() {
		r.errc <- serve(ctx, cfg, log, serveOptions{
			seed: 1, identifyInterval: identifyInterval,
			listening: func(a net.Addr) { addr <- a.String() },
			ready:     func() { close(r.ready) },
			dbSleep: func(ctx context.Context, d time.Duration) error {
				select {
				case r.waiting <- d:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			},
		})
	}()
	select {
	case a := <-addr:
		r.health = "http://" + a + "/healthz"
	case err := <-r.errc:
		// serve may end right after it listens (a database that
		// refuses, with no wait): it sent the address first.
		select {
		case a := <-addr:
			r.health = "http://" + a + "/healthz"
			r.errc <- err
		default:
			t.Fatalf("serve: %v", err)
		}
	}
	return r
}

// stop ends serve and returns its error, failing the test unless it
// returns at once: not a measure of speed, a guard against a wait that
// ignores its context.
func (r *waitRun) stop(t *testing.T) error {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.errc:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("serve still running 5s after its context ended")
		return nil
	}
}

// result waits for serve to end on its own, failing the test if it starts
// or, unless mayWait, waits for the database.
func (r *waitRun) result(t *testing.T, mayWait bool) error {
	t.Helper()
	for {
		select {
		case err := <-r.errc:
			return err
		case d := <-r.waiting:
			if !mayWait {
				t.Fatalf("serve waits %s for the database, want it to end at once", d)
			}
		case <-r.ready:
			t.Fatal("serve started, want it to end")
		}
	}
}

// waitReady lets serve try again until it is ready.
func (r *waitRun) waitReady(t *testing.T) {
	t.Helper()
	for {
		select {
		case <-r.waiting:
		case <-r.ready:
			return
		case err := <-r.errc:
			r.errc <- err
			t.Fatalf("serve: %v", err)
		}
	}
}

// startup is /healthz's state of the startup check, or of the database
// once the bot runs.
func (r *waitRun) startup(t *testing.T) (int, string) {
	t.Helper()
	code, body := get(t, r.health)
	return code, unhealthy(strings.TrimSpace(body))
}

// closedPort is a local address nothing listens on, until the test does.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// withHost is rawURL with its host and port replaced by addr.
func withHost(t *testing.T, rawURL, addr string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = addr
	return u.String()
}

// proxy forwards the connections made to addr to target, until stop or
// the end of the test; stop closes the listener and every connection.
func proxy(t *testing.T, addr, target string) (stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		conns  []net.Conn
		closed bool
		wg     sync.WaitGroup
	)
	keep := func(c net.Conn) bool {
		mu.Lock()
		defer mu.Unlock()
		if closed {
			c.Close()
			return false
		}
		conns = append(conns, c)
		return true
	}
	pipe := func(dst, src net.Conn) {
		defer wg.Done()
		io.Copy(dst, src)
		dst.Close()
	}
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			if keep(c) && keep(b) {
				wg.Add(2)
				go pipe(b, c)
				go pipe(c, b)
			}
		}
	})
	stop = sync.OnceFunc(func() {
		ln.Close()
		mu.Lock()
		closed = true
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	t.Cleanup(stop)
	return stop
}

// With PostgreSQL down, the bot waits for it, says so on /healthz, and
// starts once it answers.
func TestServeWaitsForPostgres(t *testing.T) {
	real := pgtest.URL(t)
	addr := closedPort(t)
	cfg := botConfigFor(t, discordtest.NewServer(t))
	cfg.Database.URL = config.DatabaseURL(withHost(t, real, addr))
	r := startWaiting(t, cfg)
	defer func() {
		if err := r.stop(t); err != nil {
			t.Errorf("serve: %v", err)
		}
	}()

	<-r.waiting
	code, got := r.startup(t)
	if want := "startup: waiting for the database: "; code != 503 || !strings.HasPrefix(got, want) || !strings.Contains(got, "connection refused") {
		t.Errorf("healthz while the database is down: got %d %q, want 503 %q and the reason", code, got, want)
	}
	u, err := url.Parse(real)
	if err != nil {
		t.Fatal(err)
	}
	proxy(t, addr, u.Host)
	r.waitReady(t)
	if code, got := r.startup(t); code != 200 {
		t.Errorf("healthz once started: got %d %q, want 200", code, got)
	}
}

// A PostgreSQL that takes connections but does not answer is waited for
// too, each attempt ending at the URL's connect_timeout.
func TestServeWaitsForHungPostgres(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	defer func() { ln.Close(); wg.Wait() }()
	wg.Go(func() {
		var conns []net.Conn // held open, unanswered, until the listener closes
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	})
	cfg := botConfigFor(t, discordtest.NewServer(t))
	cfg.Database.URL = config.DatabaseURL("postgres://tttbot@" + ln.Addr().String() + "/tttbot?sslmode=disable&connect_timeout=1")
	r := startWaiting(t, cfg)
	<-r.waiting
	if code, got := r.startup(t); code != 503 || !strings.HasPrefix(got, "startup: waiting for the database: ") || !strings.Contains(got, "timeout") {
		t.Errorf("healthz while the database hangs: got %d %q, want 503 waiting for the database, and the timeout", code, got)
	}
	if err := r.stop(t); err != nil {
		t.Errorf("serve: %v", err)
	}
}

// A stop asked for while the bot waits for its database ends the wait at
// once, as a stop, not a failure.
func TestServeStopsWaitingForDatabase(t *testing.T) {
	cfg := botConfigFor(t, discordtest.NewServer(t))
	cfg.Database.URL = config.DatabaseURL("postgres://tttbot@" + closedPort(t) + "/tttbot?sslmode=disable")
	r := startWaiting(t, cfg)
	<-r.waiting
	if err := r.stop(t); err != nil {
		t.Errorf("stopped while waiting for the database: got %v, want nil", err)
	}
}

// database.wait bounds the wait, and 0 waits not at all; a mistake that
// waiting cannot mend fails at once, however long the bound.
func TestServeDatabaseFailsAtOnce(t *testing.T) {
	closed := "postgres://tttbot@" + closedPort(t) + "/tttbot?sslmode=disable"
	tests := []struct {
		name    string
		url     func(t *testing.T) string
		wait    time.Duration
		mayWait bool
		want    string
	}{
		{"bound", func(*testing.T) string { return closed }, time.Millisecond, true,
			"gave up waiting for the database after 1ms (database.wait): "},
		{"no wait", func(*testing.T) string { return closed }, 0, false, "connection refused"},
		{"no such database", func(t *testing.T) string {
			u, err := url.Parse(pgtest.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			u.Path = "/tttbot_no_such_database"
			return u.String()
		}, time.Hour, false, `database "tttbot_no_such_database" does not exist`},
		{"no such role", func(t *testing.T) string {
			u, err := url.Parse(pgtest.URL(t))
			if err != nil {
				t.Fatal(err)
			}
			u.User = url.User("tttbot_no_such_role")
			return u.String()
		}, time.Hour, false, `role "tttbot_no_such_role" does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := botConfigFor(t, discordtest.NewServer(t))
			cfg.Database.URL = config.DatabaseURL(tt.url(t))
			cfg.Database.Wait = config.Duration{Duration: tt.wait}
			r := startWaiting(t, cfg)
			err := r.result(t, tt.mayWait)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// A SQLite file that another process holds locked past the busy timeout
// is waited for too.
func TestServeWaitsForLockedSQLite(t *testing.T) {
	cfg := botConfigFor(t, discordtest.NewServer(t))
	db, err := sqlite.Open(t.Context(), cfg.Database.Path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	other, err := sql.Open("sqlite3", "file:"+cfg.Database.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	c, err := other.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecContext(t.Context(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	r := startWaiting(t, cfg)
	defer func() {
		if err := r.stop(t); err != nil {
			t.Errorf("serve: %v", err)
		}
	}()

	<-r.waiting
	if code, got := r.startup(t); code != 503 || !strings.Contains(got, "waiting for the database: ") || !strings.Contains(got, "database is locked") {
		t.Errorf("healthz while the file is locked: got %d %q, want 503 waiting for the database, locked", code, got)
	}
	if _, err := c.ExecContext(t.Context(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	c.Close()
	r.waitReady(t)
}
