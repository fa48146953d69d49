//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
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

	config, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	unhealthy := healthcheckLater(t)
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
	if _, err := unhealthy(config); err == nil || !strings.Contains(err.Error(), "503") ||
		!strings.Contains(err.Error(), h.db+": write probe: ") {
		t.Errorf("bot healthcheck: got %v, want the 503 and its body", err)
	}

	restore()
	h.clock.Advance(2 * time.Second)
	if code, body := get(t, "http://"+h.addr+"/healthz"); code != 200 {
		t.Errorf("healthz once the database takes writes again: got %d %s, want 200", code, body)
	}
}

// healthcheckLater starts `bot healthcheck` in a process of its own, this
// test binary, which waits for its config file on standard input; the func
// returned hands it config and returns what it printed, or its error
// output as the error. While the disk takes no writes, this process must
// log nothing to the test log go test has it keep, which flushes when its
// buffer fills and fails the package if the flush does: so the process
// starts, and the config file is read, beforehand.
func healthcheckLater(t *testing.T) func(config []byte) (stdout string, err error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "healthcheck", "-config", "/dev/stdin")
	cmd.Env = []string{childVar + "=1"} // as the tests' healthcheck: no environment
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	asked := false
	t.Cleanup(func() {
		if !asked {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return func(config []byte) (string, error) {
		asked = true
		_, werr := stdin.Write(config)
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			return out.String(), fmt.Errorf("%w: %s", err, errOut.String())
		}
		return out.String(), werr
	}
}
