//go:build linux

package sqlite

import (
	"os"
	"strings"
	"syscall"
	"testing"
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

// TestPingWrites checks that Ping fails, naming the file, while the disk
// takes no writes, and passes again once it does; and that Open refuses a
// database it cannot write.
func TestPingWrites(t *testing.T) {
	db, path := newDB(t, Options{})
	ok(t, db.Ping(t.Context()))

	restore := unwritable(t)
	err := db.Ping(t.Context())
	if err == nil || !strings.HasPrefix(err.Error(), "write probe: ") {
		t.Errorf("ping on a disk that takes no writes: got %v, want a write probe error", err)
	}
	want := "open database " + path + ": write probe: "
	if _, err := Open(t.Context(), path, Options{}); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("open a database that cannot be written: got %v, want %q and the reason", err, want)
	}
	restore()
	if err := db.Ping(t.Context()); err != nil {
		t.Errorf("ping once the disk takes writes again: %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}
