//go:build linux

package main

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/health"
)

// unwritable makes every write to a file fail, as on a full disk or a
// read-only volume, until the returned func undoes it. It lowers the
// process's file size limit to nothing, which binds root too (a read-only
// mode does not); Go ignores the SIGXFSZ that comes with the failure.
func unwritable(t *testing.T) (restore func()) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 0, Max: old.Max}); err != nil {
		t.Fatal(err)
	}
	done := false
	restore = func() {
		if done {
			return
		}
		done = true
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(restore)
	return restore
}

// TestHealthDatabaseUnwritable checks that /healthz and `bot healthcheck`
// report a database that takes no writes, naming it, and follow its
// recovery without a restart.
func TestHealthDatabaseUnwritable(t *testing.T) {
	h := newHarness(t)
	cfg := healthConfig(t, h.addr) // while files can be written
	if _, err := healthcheck(t, cfg); err != nil {
		t.Fatalf("healthy bot: %v", err)
	}

	restore := unwritable(t)
	h.clock.Advance(2 * time.Second) // past the probe's cache
	code, body := get(t, "http://"+h.addr+"/healthz")
	var hb health.Body
	if err := json.Unmarshal([]byte(body), &hb); err != nil {
		t.Fatalf("healthz: %v in %s", err, body)
	}
	if code != 503 || hb.Status != "unavailable" || !strings.Contains(hb.Checks["database"], h.db+": write probe: ") ||
		!strings.HasPrefix(hb.Checks["gateway"], "ok") {
		t.Errorf("healthz on a database that takes no writes: got %d %s, want 503 naming %s", code, body, h.db)
	}
	if _, err := healthcheck(t, cfg); err == nil || !strings.Contains(err.Error(), "503") ||
		!strings.Contains(err.Error(), h.db+": write probe: ") {
		t.Errorf("bot healthcheck: got %v, want the 503 and its body", err)
	}

	restore()
	h.clock.Advance(2 * time.Second)
	if code, body := get(t, "http://"+h.addr+"/healthz"); code != 200 {
		t.Errorf("healthz once the database takes writes again: got %d %s, want 200", code, body)
	}
}
