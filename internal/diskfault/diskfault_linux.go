// Package diskfault makes the disk refuse writes, for tests of how the bot
// behaves on a full disk or a read-only volume.
//
// The refusal holds for a whole process. go test's binary logs the files
// it opens and stats, and the variables it reads, to a file of its own, and
// fails the package if a write of that log is refused, which any goroutine's
// file access can set off. So a test that needs the refusal runs alone in a
// child process of the test binary, which keeps no such log: Isolate starts
// it there, and Unwritable works only there.
package diskfault

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// env names the test a child process runs isolated.
const env = "TTTBOT_DISKFAULT_TEST"

// Isolate reports whether the test runs isolated in a child process, where
// it may call Unwritable. Otherwise it runs the test in one, reports the
// child's outcome and output as the test's, and returns false: the caller
// then returns.
func Isolate(t *testing.T) bool {
	t.Helper()
	if os.Getenv(env) == t.Name() {
		return true
	}
	var run []string
	for name := range strings.SplitSeq(t.Name(), "/") {
		run = append(run, "^"+regexp.QuoteMeta(name)+"$")
	}
	args := []string{"-test.run=" + strings.Join(run, "/"), "-test.v", "-test.short=" + strconv.FormatBool(testing.Short())}
	if deadline, ok := t.Deadline(); ok {
		// The child times out first, so its goroutines are the ones shown.
		args = append(args, "-test.timeout="+(time.Until(deadline)*9/10).String())
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], args...)
	cmd.Env = append(os.Environ(), env+"="+t.Name())
	out, err := cmd.CombinedOutput()
	switch {
	case err == nil && strings.Contains(string(out), "--- PASS: "+t.Name()+" "):
	case err == nil && strings.Contains(string(out), "--- SKIP: "+t.Name()+" "):
		t.Skipf("in a child process:\n%s", out)
	default:
		t.Fatalf("in a child process: %v\n%s", err, out)
	}
	return false
}

// Unwritable makes every write to a file fail until the returned func (or
// the test's end) undoes it. It lowers the process's file size limit to
// nothing, which binds root too (a read-only mode does not); Go ignores the
// SIGXFSZ that comes with the failure. It holds for the whole process, so
// only a test that Isolate runs may call it.
func Unwritable(t testing.TB) (restore func()) {
	t.Helper()
	if os.Getenv(env) == "" {
		t.Fatal("diskfault.Unwritable outside a test that diskfault.Isolate runs: a refused write of go test's log would fail the package")
	}
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
