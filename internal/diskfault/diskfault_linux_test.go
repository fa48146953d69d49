package diskfault

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestUnwritable checks that writes fail while the disk is unwritable and
// pass once it is restored, and that file accesses meanwhile, which go
// test's log records, cannot fail the package.
func TestUnwritable(t *testing.T) {
	if !Isolate(t) {
		return
	}
	path := filepath.Join(t.TempDir(), "f")
	restore := Unwritable(t)
	// Enough to fill the log's buffer many times over, were it kept.
	for range 1000 {
		os.Getenv("TTTBOT_DISKFAULT_PROBE")
		os.Stat(path)
	}
	if err := os.WriteFile(path, []byte("x"), 0o600); !errors.Is(err, syscall.EFBIG) {
		t.Errorf("write on an unwritable disk: got %v, want %v", err, syscall.EFBIG)
	}
	restore()
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Errorf("write once the disk is restored: %v", err)
	}
}
