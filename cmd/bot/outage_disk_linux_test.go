//go:build linux

package main

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/diskfault"
)

// A full disk under SQLite is an outage like PostgreSQL's: one line when
// the writes start failing, with SQLite's reason, one when they commit
// again, with the interactions that failed meanwhile, each of those only at
// debug level; /metrics says the database's state.
func TestOutageLogsDiskFull(t *testing.T) {
	if !diskfault.Isolate(t) {
		return
	}
	var logs logBuffer
	h := startHarnessWith(t, nil, discordtest.Options{}, func(h *harness) {
		h.log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	alice := h.srv.NewUser("alice")
	h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge").Result(t)
	metric := func(want string) {
		t.Helper()
		if _, body := get(t, "http://"+h.addr+"/metrics"); !strings.Contains(body, want) {
			t.Errorf("/metrics does not say %q", want)
		}
	}
	metric("tttbot_database_up 1\n")

	restore := diskfault.Unwritable(t)
	const burst = 20
	for range burst {
		wantEphemeral(t, h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge").Wait(t), "Something went wrong")
	}
	lines := waitLine(t, &logs, `msg="database unavailable"`)
	if l := lines[len(lines)-1]; !strings.Contains(l, "level=WARN") || !strings.Contains(l, "reason=") {
		t.Errorf("got %s, want a warning with the reason", l)
	}
	metric("tttbot_database_up 0\n")

	h.clock.Advance(3 * time.Second) // the outage's length, by the bot's clock
	restore()
	for range 10 {
		h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge").Result(t)
		if strings.Contains(logs.String(), `msg="database back"`) {
			break
		}
		h.clock.Advance(6 * time.Second)
	}
	lines = waitLine(t, &logs, `msg="database back"`)
	if back, want := lines[len(lines)-1], fmt.Sprintf("failed_interactions=%d ", burst); !strings.Contains(back, want) {
		t.Errorf("got %s, want it to say %s", back, want)
	}
	// The failures before the outage is known are errors: fewer than the
	// three that make one.
	var errs int
	for _, l := range lines {
		if strings.Contains(l, "level=ERROR") {
			errs++
		}
	}
	if errs > 2 {
		t.Errorf("got %d error lines, want at most 2:\n%s", errs, strings.Join(lines, "\n"))
	}
	if n := strings.Count(logs.String(), `msg="database unavailable"`); n != 1 {
		t.Errorf("got %d lines saying the database is unavailable, want 1", n)
	}
	metric("tttbot_database_up 1\n")
	metric("tttbot_database_outages_total 1\n")
}
