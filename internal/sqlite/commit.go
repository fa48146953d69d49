package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mattn/go-sqlite3"

	"github.com/tttbot/tttbot"
)

// maxBatch caps the writes one transaction holds: each of their callers
// waits for the whole batch.
const maxBatch = 32

// A committer runs the writes on the one write connection. The writes that
// queue while a transaction runs go together into the next one (group
// commit), each in a savepoint of its own: they share a BEGIN, a COMMIT and
// the pages they write to the WAL, which is most of a small write's cost,
// yet a write that fails rolls back to its savepoint and fails alone. Each
// caller still returns only once its write is committed, or has failed.
//
// The caller whose write finds no transaction running runs the batch
// itself, on its own goroutine, and then hands the next batch to the first
// write still waiting: no goroutine sits between the callers and SQLite.
// BEGIN and COMMIT run on the connection itself rather than through a
// sql.Tx: database/sql starts a goroutine per sql.Tx, and one per query in
// it, to watch for a cancellation that an uncancelled transaction never
// sees, and each of them wakes another thread when it ends.
type committer struct {
	db *DB

	mu      sync.Mutex
	queue   []*writeJob // waiting for the next batch
	leading bool        // a caller is running a batch, or about to
}

// A writeJob's states: a caller may give up on a queued job only.
const (
	queued    int32 = iota
	taken           // in a batch, or chosen to run the next one
	abandoned       // its caller's context ended before it was taken
)

// A writeJob is one write's function and outcome.
type writeJob struct {
	ctx   context.Context
	fn    func(ctx context.Context, tx *sql.Conn) error
	state atomic.Int32
	done  chan struct{} // closed when lead is set or the batch has ended

	// Set by the caller that runs the job's batch, before done is closed.
	lead     bool                // run the next batch
	err      error               // the write's outcome
	panicked any                 // what fn panicked with, for its caller to panic with
	recorded *tttbot.Interaction // the interaction the write recorded, if any
}

// write runs fn in one IMMEDIATE transaction, alone or with the writes that
// queued with it, and commits it if fn returns nil. It waits for its turn
// as long as ctx allows, then runs fn without ctx's cancellation (see
// uncancelled). A panic in fn is the caller's, after the transaction ended.
func (c *committer) write(ctx context.Context, fn func(ctx context.Context, tx *sql.Conn) error) error {
	j := &writeJob{ctx: ctx, fn: fn}
	c.mu.Lock()
	if c.leading {
		j.done = make(chan struct{})
		c.queue = append(c.queue, j)
		c.mu.Unlock()
		if j.wait() {
			c.lead(j)
		}
	} else {
		c.leading = true
		j.state.Store(taken)
		c.mu.Unlock()
		c.lead(j)
	}
	if j.panicked != nil {
		panic(j.panicked)
	}
	return j.err
}

// wait waits until j's batch has ended or j is to run the next one, and
// reports which: true for the latter.
func (j *writeJob) wait() bool {
	select {
	case <-j.done:
	case <-j.ctx.Done():
		if j.state.CompareAndSwap(queued, abandoned) {
			j.err = fmt.Errorf("begin transaction: %w", j.ctx.Err())
			return false
		}
		<-j.done // taken meanwhile: it runs, or is to run the next batch
	}
	return j.lead
}

// lead runs a batch of j and the writes queued behind it, hands the next
// batch to the first write still waiting, and tells the others in j's batch
// that it has ended.
func (c *committer) lead(j *writeJob) {
	batch := []*writeJob{j}
	if conn, err := c.db.w.Conn(j.ctx); err != nil {
		j.err = fmt.Errorf("begin transaction: %w", err)
	} else {
		batch = c.take(batch)
		c.db.commit(conn, batch)
		conn.Close()
	}
	handed := c.handOff()
	for _, b := range batch[1:] {
		close(b.done)
	}
	if handed {
		// The next batch's caller is ready on this processor, but would
		// run only once this goroutine blocks, after it has answered its
		// interaction, with the writer idle meanwhile: yield to it.
		runtime.Gosched()
	}
}

// take moves the queued writes into batch, up to maxBatch.
func (c *committer) take(batch []*writeJob) []*writeJob {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for ; n < len(c.queue) && len(batch) < maxBatch; n++ {
		if q := c.queue[n]; q.state.CompareAndSwap(queued, taken) {
			batch = append(batch, q)
		}
	}
	c.queue = slices.Delete(c.queue, 0, n)
	return batch
}

// handOff makes the first write still queued run the next batch, and
// reports whether there was one.
func (c *committer) handOff() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.queue) > 0 {
		next := c.queue[0]
		c.queue = slices.Delete(c.queue, 0, 1)
		if next.state.CompareAndSwap(queued, taken) {
			next.lead = true
			close(next.done)
			return true
		}
	}
	c.leading = false
	return false
}

// commit runs batch in one transaction on conn, each write but a lone one
// in a savepoint, and sets each write's outcome. The first write of an
// interaction (see tttbot.Interaction) records its ID in the write's
// savepoint, and fails with EREPLAY if it was recorded before. If the
// transaction itself fails, or SQLite rolls it back (a full disk, say),
// every write in it fails.
func (db *DB) commit(conn *sql.Conn, batch []*writeJob) {
	ctx := context.Background()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		fail(batch, fmt.Errorf("begin transaction: %w", err))
		rollback(conn)
		return
	}
	alone := len(batch) == 1
	ok := false
	for _, j := range batch {
		if err := db.step(conn, j, !alone); err != nil {
			fail(batch, err)
			rollback(conn)
			return
		}
		ok = ok || j.succeeded()
	}
	if !ok {
		rollback(conn)
		return
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		fail(batch, fmt.Errorf("commit: %w", err))
		rollback(conn)
		return
	}
	for _, j := range batch {
		if j.succeeded() && j.recorded != nil {
			j.recorded.SetRecorded()
		}
	}
	select {
	case db.wrote <- struct{}{}:
	default: // a checkpoint is already due
	}
}

// step runs j in conn's transaction, in a savepoint if savepoint is set,
// rolled back to if j fails. It returns an error only when the
// transaction cannot go on: every write in it must then fail.
func (db *DB) step(conn *sql.Conn, j *writeJob, savepoint bool) error {
	ctx := uncancelled(j.ctx)
	if savepoint {
		if _, err := conn.ExecContext(ctx, "SAVEPOINT write"); err != nil {
			return fmt.Errorf("begin write: %w", err)
		}
	}
	db.run(ctx, conn, j)
	if !savepoint {
		return nil
	}
	if !j.succeeded() {
		cause := j.err
		if cause == nil {
			cause = fmt.Errorf("panic: %v", j.panicked)
		}
		if !inTransaction(conn) {
			return fmt.Errorf("transaction rolled back by another write: %w", cause)
		}
		if _, err := conn.ExecContext(ctx, "ROLLBACK TO write"); err != nil {
			return fmt.Errorf("roll back a write: %w", err)
		}
	}
	if _, err := conn.ExecContext(ctx, "RELEASE write"); err != nil {
		return fmt.Errorf("end write: %w", err)
	}
	return nil
}

// run records j's interaction, unless an earlier write of it has, and runs
// j's function, catching its panic.
func (db *DB) run(ctx context.Context, conn *sql.Conn, j *writeJob) {
	defer func() {
		if p := recover(); p != nil {
			j.panicked = p
		}
	}()
	if in := tttbot.InteractionFrom(ctx); in != nil && !in.Recorded() {
		if j.err = db.record(ctx, conn, in.ID); j.err != nil {
			return
		}
		j.recorded = in
	}
	j.err = j.fn(ctx, conn)
}

func (j *writeJob) succeeded() bool { return j.err == nil && j.panicked == nil }

// fail sets err as the outcome of the writes in batch that had none.
func fail(batch []*writeJob, err error) {
	for _, j := range batch {
		if j.succeeded() {
			j.err = err
		}
	}
}

// rollback ends conn's transaction. A ROLLBACK fails when SQLite has rolled
// back already (after an I/O error, say); if the transaction is somehow
// still open, the connection must not go back to the pool: it is closed
// instead.
func rollback(conn *sql.Conn) {
	conn.ExecContext(context.Background(), "ROLLBACK")
	if inTransaction(conn) {
		conn.Raw(func(any) error { return driver.ErrBadConn })
	}
}

// inTransaction reports whether conn is inside a transaction.
func inTransaction(conn *sql.Conn) bool {
	in := false
	conn.Raw(func(c any) error {
		in = !c.(*sqlite3.SQLiteConn).AutoCommit()
		return nil
	})
	return in
}
