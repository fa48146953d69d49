package deploy_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/config"
)

// binaryPath is where deploy/tttbot.service expects the bot.
const binaryPath = "/usr/local/bin/tttbot"

// TestSystemdVerify runs systemd-analyze verify on the unit. Verify wants
// ExecStart's program to exist, so the unit is checked with the test's own
// executable in the bot's place.
func TestSystemdVerify(t *testing.T) {
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Skipf("systemd-analyze is not installed: %v", err)
	}
	unit, err := os.ReadFile("tttbot.service")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(unit), "ExecStart="+binaryPath+" ") {
		t.Fatalf("tttbot.service: no ExecStart=%s", binaryPath)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tttbot.service")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(unit), binaryPath, self)), 0o644); err != nil {
		t.Fatal(err)
	}
	// Unknown keys and bad values are only warnings: any output fails.
	out, err := exec.Command("systemd-analyze", "verify", path).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestEnvFile holds deploy/tttbot.env, commented examples included, to
// variables the bot reads and values it accepts.
func TestEnvFile(t *testing.T) {
	f, err := os.Open("tttbot.env")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var known []string
	for _, key := range config.Keys() {
		known = append(known, config.EnvVar(key))
	}
	vars := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimPrefix(sc.Text(), "#")
		name, value, ok := strings.Cut(line, "=")
		if !ok || strings.Contains(name, " ") {
			continue // a comment
		}
		if !slices.Contains(known, name) {
			t.Errorf("tttbot.env:%d: got %s, want one of %s", n, name, known)
		}
		vars[name] = value
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if _, ok := vars[config.TokenVar]; !ok {
		t.Errorf("tttbot.env: no %s", config.TokenVar)
	}
	if _, err := config.Load("", func(k string) string { return vars[k] }); err != nil {
		t.Errorf("tttbot.env: %v", err)
	}
}
