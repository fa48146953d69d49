package deploy_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestARM64 cross-compiles the static arm64 binary and runs it under
// qemu-user: the solver, and SQLite's C code through a migration.
func TestARM64(t *testing.T) {
	need(t, "aarch64-linux-gnu-gcc")
	qemu := ""
	for _, name := range []string{"qemu-aarch64-static", "qemu-aarch64"} {
		if p, err := exec.LookPath(name); err == nil {
			qemu = p
			break
		}
	}
	if qemu == "" {
		t.Skip("qemu-aarch64(-static) is not installed (Debian: qemu-user-static)")
	}
	bot := buildBinary(t, "arm64")
	db := filepath.Join(t.TempDir(), "tttbot.db")
	tests := []struct {
		args []string
		want []string // each must appear in the output
	}{
		{[]string{"version"}, []string{"platform linux/arm64", "sqlite   3."}},
		// X to move and win at once in the top row.
		{[]string{"analyze", "XX./OO./..."}, []string{"X wins"}},
		{[]string{"migrate", "up"}, []string{"applied 00001_games.sql", db + " is at version "}},
		{[]string{"migrate", "status"}, []string{"00001_games.sql"}},
	}
	for _, tt := range tests {
		got := run(t, []string{"TTTBOT_DATABASE_PATH=" + db}, qemu, append([]string{bot}, tt.args...)...)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("bot %s under qemu: got %q, want it to contain %q", strings.Join(tt.args, " "), got, w)
			}
		}
	}
}
