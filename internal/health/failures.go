package health

import (
	"fmt"
	"sync/atomic"
	"time"
)

// FailureMemory is how long Failures reports a failed write that no commit
// has followed.
const FailureMemory = 30 * time.Second

// Failures remembers a store's last write that failed for want of storage,
// until a write commits. A store's own probe may still commit on a nearly
// full disk while moves fail, so its health reports these too. The zero
// value remembers nothing.
type Failures struct {
	last atomic.Pointer[failure]
}

type failure struct {
	at  time.Time
	err error
}

// Note records a write's outcome: a commit (err nil) clears the memory, a
// failure for want of storage (storage true) is remembered, and any other
// failure changes nothing.
func (f *Failures) Note(err error, storage bool) {
	switch {
	case err == nil:
		// Most writes commit: a load is cheaper than a store on the hot path.
		if f.last.Load() != nil {
			f.last.Store(nil)
		}
	case storage:
		f.last.Store(&failure{at: time.Now(), err: err})
	}
}

// Err reports the remembered failure, if it is younger than FailureMemory.
func (f *Failures) Err() error {
	l := f.last.Load()
	if l == nil {
		return nil
	}
	if age := time.Since(l.at); age < FailureMemory {
		return fmt.Errorf("a write failed %s ago: %w", age.Round(time.Second), l.err)
	}
	return nil
}
