//go:build linux

package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/health"

	"github.com/tttbot/tttbot/internal/diskfault"
)

// TestHealthDatabaseUnwritable checks that /healthz and `bot healthcheck`
// report a database that takes no writes, naming it, and follow its
// recovery without a restart.
func TestHealthDatabaseUnwritable(t *testing.T) {
	if !diskfault.Isolate(t) {
		return
	}
	h := newHarness(t)
	cfg := healthConfig(t, h.addr) // while files can be written
	if _, err := healthcheck(t, cfg); err != nil {
		t.Fatalf("healthy bot: %v", err)
	}

	restore := diskfault.Unwritable(t)
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
