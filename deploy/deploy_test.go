// Package deploy_test builds and runs what self-hosters deploy: the static
// binaries of scripts/build.sh, the container image of the Dockerfile (with
// podman) and the systemd unit. Each test skips, saying why, on machines
// without the tools it needs, and under -short.
package deploy_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// buildBinary builds the static bot for arch with scripts/build.sh and
// returns its path.
func buildBinary(t *testing.T, arch string) string {
	t.Helper()
	dir := t.TempDir()
	run(t, nil, "../scripts/build.sh", "-o", dir, arch)
	return filepath.Join(dir, "bot-linux-"+arch)
}

// run runs a command with the extra environment env and returns its
// standard output, failing the test if it fails.
func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	out, err := command(env, name, args...)
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", name, args, err, out)
	}
	return string(out)
}

// command runs a command with the extra environment env and returns its
// combined output.
func command(env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

// need skips the test under -short, off Linux, or without the programs.
func need(t *testing.T, programs ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the deployment: skipped under -short")
	}
	if runtime.GOOS != "linux" {
		t.Skipf("deploys to Linux only, not %s", runtime.GOOS)
	}
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed: %v", p, err)
		}
	}
}
