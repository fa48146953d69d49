package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/tttbot/tttbot"
)

// holdWriter starts a write that inserts id into scratch and holds the
// writer until the returned function is called, which waits for the write
// and fails t if it failed.
func holdWriter(t *testing.T, db *DB, id int) (release func()) {
	t.Helper()
	held, done := make(chan struct{}), make(chan error, 1)
	free := make(chan struct{})
	unblock := sync.OnceFunc(func() { close(free) })
	t.Cleanup(unblock) // should the test end before release
	go func() {
		done <- db.write(t.Context(), func(ctx context.Context, tx *sql.Conn) error {
			close(held)
			<-free
			_, err := tx.ExecContext(ctx, "INSERT INTO scratch (id) VALUES (?)", id)
			return err
		})
	}()
	<-held
	return func() {
		unblock()
		if err := <-done; err != nil {
			t.Errorf("the write holding the writer: %v", err)
		}
	}
}

// waitQueued waits until n writes wait for the writer.
func waitQueued(t *testing.T, db *DB, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		db.commits.mu.Lock()
		got := len(db.commits.queue)
		db.commits.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("writes queued: got %d, want %d", got, n)
		}
	}
}

// scratchRows returns the ids in scratch, as the read pool sees them.
func scratchRows(t *testing.T, db *DB) string {
	t.Helper()
	var ids string
	err := db.r.QueryRow("SELECT coalesce(group_concat(id, ' '), '') FROM (SELECT id FROM scratch ORDER BY id)").Scan(&ids)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func newScratchDB(t *testing.T) *DB {
	t.Helper()
	db, _ := newDB(t, Options{})
	if _, err := db.w.Exec("CREATE TABLE scratch (id INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestBatchFailsAlone checks that the writes queued behind a running one
// commit together in one transaction, and that one failing there — an
// error, a panic, a replayed interaction — rolls back its own changes and
// fails its own caller only.
func TestBatchFailsAlone(t *testing.T) {
	db := newScratchDB(t)
	errRefused := errors.New("refused")
	interaction := func(id string) context.Context {
		return tttbot.WithInteraction(t.Context(), &tttbot.Interaction{ID: id})
	}
	is := func(target error) func(error) bool {
		return func(err error) bool { return errors.Is(err, target) }
	}
	var seen string // what the read pool saw during the last write
	tests := []struct {
		name string
		ctx  context.Context
		then func(ctx context.Context, tx *sql.Conn) error // after the write's insert
		want func(error) bool
	}{
		{"first", interaction("1001"), nil, is(nil)},
		{"error", t.Context(), func(context.Context, *sql.Conn) error { return errRefused }, is(errRefused)},
		{"panic", t.Context(), func(context.Context, *sql.Conn) error { panic(errRefused) }, is(errRefused)},
		{"replay", interaction("1001"), nil, is(tttbot.ErrReplay)},
		{"constraint", t.Context(), func(ctx context.Context, tx *sql.Conn) error {
			_, err := tx.ExecContext(ctx, "INSERT INTO scratch (id) VALUES (1)") // the first's
			return err
		}, isCode(sqlite3.ErrConstraint)},
		{"last", t.Context(), func(context.Context, *sql.Conn) error {
			seen = scratchRows(t, db)
			return nil
		}, is(nil)},
	}
	release := holdWriter(t, db, 0)
	var wg sync.WaitGroup
	errs := make([]error, len(tests))
	for i, tt := range tests {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					errs[i] = p.(error)
				}
			}()
			errs[i] = db.write(tt.ctx, func(ctx context.Context, tx *sql.Conn) error {
				if _, err := tx.ExecContext(ctx, "INSERT INTO scratch (id) VALUES (?)", i+1); err != nil {
					return err
				}
				if tt.then == nil {
					return nil
				}
				return tt.then(ctx, tx)
			})
		})
		waitQueued(t, db, i+1) // in the table's order
	}
	release()
	wg.Wait()
	for i, tt := range tests {
		if got := errs[i]; !tt.want(got) {
			t.Errorf("%s: got error %v", tt.name, got)
		}
	}
	if got, want := seen, "0"; got != want {
		t.Errorf("rows committed while the last write ran: got %s, want %s (the writes before it in its transaction)", got, want)
	}
	if got, want := scratchRows(t, db), "0 1 6"; got != want {
		t.Errorf("rows: got %s, want %s", got, want)
	}
}

// TestBatchRolledBack checks that when SQLite rolls a batch's transaction
// back, as it does on a full disk, every write in it fails and leaves
// nothing behind, and the next write works.
func TestBatchRolledBack(t *testing.T) {
	db := newScratchDB(t)
	errRefused := errors.New("refused")
	release := holdWriter(t, db, 0)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Go(func() {
			errs[i] = db.write(t.Context(), func(ctx context.Context, tx *sql.Conn) error {
				if _, err := tx.ExecContext(ctx, "INSERT INTO scratch (id) VALUES (?)", i+1); err != nil {
					return err
				}
				if i != 1 {
					return nil
				}
				if _, err := tx.ExecContext(ctx, "ROLLBACK"); err != nil {
					return err
				}
				return errRefused
			})
		})
		waitQueued(t, db, i+1)
	}
	release()
	wg.Wait()
	for i, err := range errs {
		if !errors.Is(err, errRefused) {
			t.Errorf("write %d: got error %v, want %v", i+1, err, errRefused)
		}
	}
	if err := db.write(t.Context(), func(ctx context.Context, tx *sql.Conn) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO scratch (id) VALUES (10)")
		return err
	}); err != nil {
		t.Fatalf("next write: %v", err)
	}
	if got, want := scratchRows(t, db), "0 10"; got != want {
		t.Errorf("rows: got %s, want %s", got, want)
	}
}

// TestWriteGivesUp checks that a write whose context ends while it waits
// for the writer fails with the context's error, never runs, and holds up
// none of the writes queued behind it.
func TestWriteGivesUp(t *testing.T) {
	db := newScratchDB(t)
	release := holdWriter(t, db, 0)
	ctx, cancel := context.WithCancel(t.Context())
	gaveUp, next := make(chan error), make(chan error)
	go func() {
		gaveUp <- db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
			_, err := tx.ExecContext(ctx, "INSERT INTO scratch (id) VALUES (1)")
			return err
		})
	}()
	waitQueued(t, db, 1)
	go func() {
		next <- db.write(t.Context(), func(ctx context.Context, tx *sql.Conn) error {
			_, err := tx.ExecContext(ctx, "INSERT INTO scratch (id) VALUES (2)")
			return err
		})
	}()
	waitQueued(t, db, 2)
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Errorf("the write given up: got error %v, want %v", err, context.Canceled)
	}
	release()
	if err := <-next; err != nil {
		t.Errorf("the write behind it: %v", err)
	}
	if got, want := scratchRows(t, db), "0 2"; got != want {
		t.Errorf("rows: got %s, want %s", got, want)
	}
}

// isCode returns a test of whether an error is SQLite's code.
func isCode(code sqlite3.ErrNo) func(error) bool {
	return func(err error) bool {
		var se sqlite3.Error
		return errors.As(err, &se) && se.Code == code
	}
}
