package sqlite_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Built without cgo, the bot fails to compile with a message that says why,
// before go-sqlite3's stub leaves methods undefined.
func TestBuildWithoutCgo(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the bot")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	// Reading the file also lets go test's cache see a change to it, which
	// the build below does not.
	if _, err := os.ReadFile("nocgo.go"); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), goTool, "build", "-o", os.DevNull, "./cmd/bot")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	first := "" // the first error, after the package's name and any downloads
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "go: ") {
			first = l
			break
		}
	}
	const want = "undefined: tttbot_needs_cgo__install_a_C_compiler_such_as_gcc_and_build_with_CGO_ENABLED_1"
	if err == nil || !strings.HasSuffix(first, want) {
		t.Errorf("got %v:\n%s\nwant the build to fail first with %q", err, out, want)
	}
}
