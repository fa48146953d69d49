// Package diskfault makes the disk refuse writes, for tests of how the bot
// behaves on a full disk or a read-only volume.
package diskfault

import (
	"syscall"
	"testing"
)

// Unwritable makes every write to a file fail until the returned func (or
// the test's end) undoes it. It lowers the process's file size limit to
// nothing, which binds root too (a read-only mode does not); Go ignores the
// SIGXFSZ that comes with the failure. It holds for the whole process, so
// a test that calls it must not run in parallel with others that write.
func Unwritable(t testing.TB) (restore func()) {
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
