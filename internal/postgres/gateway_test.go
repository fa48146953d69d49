package postgres

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A bucket's lock is held by one process at a time, across the database:
// a second store (another process) waits for it, another bucket's is free,
// and a released lock can be taken again.
func TestLockBucket(t *testing.T) {
	db, url := newDB(t, Options{})
	other, err := Open(t.Context(), url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	release, err := db.LockBucket(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	// The timeout bounds a wait that must not end on its own.
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	_, err = other.LockBucket(ctx, 0)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("bucket 0, held elsewhere: got %v, want to wait until the deadline", err)
	}
	r1, err := other.LockBucket(t.Context(), 1)
	if err != nil {
		t.Fatalf("bucket 1: %v", err)
	}
	r1()
	release()
	r0, err := other.LockBucket(t.Context(), 0)
	if err != nil {
		t.Fatalf("bucket 0, released: %v", err)
	}
	r0()
}
