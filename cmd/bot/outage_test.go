package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// logBuffer keeps log lines for a test to read while the bot writes them.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitLine waits for a line of logs containing s, and returns the lines
// up to it.
func waitLine(t *testing.T, logs *logBuffer, s string) []string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		lines := strings.Split(logs.String(), "\n")
		for i, l := range lines {
			if strings.Contains(l, s) {
				return lines[:i+1]
			}
		}
	}
	t.Fatalf("no log line with %q in\n%s", s, logs)
	return nil
}

// During an outage of PostgreSQL the log has one line when it becomes
// unavailable and one when it is back, with the interactions that failed
// meanwhile, and each failed interaction only at debug level; /metrics
// says the database's state.
func TestOutageLogs(t *testing.T) {
	real := pgtest.URL(t)
	u, err := url.Parse(real)
	if err != nil {
		t.Fatal(err)
	}
	addr := closedPort(t)
	stop := proxy(t, addr, u.Host)
	var logs logBuffer
	h := &harness{
		t:     t,
		srv:   discordtest.NewServerWith(t, discordtest.Options{IdentifyInterval: identifyInterval}),
		clock: &clock{now: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)},
		db:    filepath.Join(t.TempDir(), "tttbot.db"),
		log:   slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		configure: func(c *config.Config) {
			c.Database.URL = config.DatabaseURL(withHost(t, real, addr))
		},
	}
	h.start()
	t.Cleanup(h.stop)
	alice, ch := h.srv.NewUser("alice"), h.srv.NewChannel()
	h.srv.Slash(t, alice, ch, "ttt stats").Wait(t)
	metric := func(want string) {
		t.Helper()
		if _, body := get(t, "http://"+h.addr+"/metrics"); !strings.Contains(body, want) {
			t.Errorf("/metrics does not say %q", want)
		}
	}
	metric("tttbot_database_up 1\n")

	stop()
	// The timers' calls fail meanwhile, and tell the outage first.
	before := len(waitLine(t, &logs, `msg="database unavailable"`))
	metric("tttbot_database_up 0\n")
	const burst = 20
	for range burst {
		wantEphemeral(t, h.srv.Slash(t, alice, ch, "ttt stats").Wait(t), "Something went wrong")
	}

	h.clock.Advance(3 * time.Second) // the outage's length, by the bot's clock
	proxy(t, addr, u.Host)
	// The database answers again, and goes on answering for 5s by the
	// bot's clock.
	for range 10 {
		h.srv.Slash(t, alice, ch, "ttt stats").Wait(t)
		if strings.Contains(logs.String(), `msg="database back"`) {
			break
		}
		h.clock.Advance(6 * time.Second)
	}
	lines := waitLine(t, &logs, `msg="database back"`)
	back := lines[len(lines)-1]
	if want := fmt.Sprintf("down_for=3s failed_interactions=%d deferred_interactions=0", burst); !strings.Contains(back, want) {
		t.Errorf("got %s, want it to say %s", back, want)
	}
	var failed int
	for _, l := range lines[before : len(lines)-1] {
		switch {
		case strings.Contains(l, "level=ERROR") || strings.Contains(l, "level=WARN"):
			t.Errorf("during the outage: %s", l)
		case strings.Contains(l, `level=DEBUG msg="interaction failed"`):
			failed++
		}
	}
	if failed != burst {
		t.Errorf("got %d interactions failed at debug level, want %d", failed, burst)
	}
	if n := strings.Count(logs.String(), `msg="database unavailable"`); n != 1 {
		t.Errorf("got %d lines saying the database is unavailable, want 1", n)
	}
	metric("tttbot_database_up 1\n")
	metric("tttbot_database_outages_total 1\n")
}
