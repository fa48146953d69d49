package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/sys/unix"
)

// The faults of a soak. Each disrupts the bots or their database, waits
// out the stall, and undoes what it did, and returns what happened, for
// the fault's line of the report.

// faultNames are the faults a soak cycles through on a database: the
// bots' own deaths on both, and what each engine's database does when it
// stalls or fails under them.
func faultNames(postgres bool) []string {
	if postgres {
		return []string{"kill-bot", "pg-restart", "pg-lock", "pg-sigstop"}
	}
	return []string{"kill-bot", "sqlite-lock", "disk-full"}
}

// plannedFault is a fault of the schedule, at its time from the end of the
// warm-up.
type plannedFault struct {
	at   time.Duration
	name string
}

// faultRoom is how long before the load's end a fault must start: its
// stall, and the time for what it held up to finish, so that the report
// counts its consequences.
func faultRoom(stall time.Duration) time.Duration { return stall + 5*time.Second }

// schedule is a soak's faults: one every period from its start, cycling
// through names, the last starting room before total.
func schedule(names []string, every, total, room time.Duration) []plannedFault {
	var out []plannedFault
	for at := every; at+room <= total; at += every {
		out = append(out, plannedFault{at: at, name: names[len(out)%len(names)]})
	}
	return out
}

// faulter does the faults of a soak to the database; the fleet kills bots.
type faulter struct {
	stall   time.Duration
	cluster *pgCluster // the PostgreSQL server of the load test's own, or nil
	db      string     // the SQLite file, without a cluster
}

// do does the fault name to the database of the bots of pids, and says
// what happened.
func (f *faulter) do(ctx context.Context, name string, pids []int) (string, error) {
	switch name {
	case "pg-restart":
		t := time.Now()
		if err := f.cluster.restart(ctx); err != nil {
			return "", err
		}
		return fmt.Sprintf("restarted (fast shutdown) in %s", time.Since(t).Round(time.Millisecond)), nil
	case "pg-lock":
		return f.pgLock(ctx)
	case "pg-sigstop":
		pids, err := f.cluster.processes()
		if err != nil {
			return "", err
		}
		err = signalAll(pids, syscall.SIGSTOP)
		wait(ctx, f.stall)
		if err := errors.Join(err, signalAll(pids, syscall.SIGCONT)); err != nil {
			return "", err
		}
		return fmt.Sprintf("postmaster and %d children stopped (SIGSTOP) for %s", len(pids)-1, f.stall), nil
	case "sqlite-lock":
		return f.sqliteLock(ctx)
	case "disk-full":
		return f.diskFull(ctx, pids)
	}
	return "", fmt.Errorf("no fault %q", name)
}

// pgLock holds an exclusive lock on the games table from a connection of
// its own, as an operator's maintenance would: every read and write of a
// game waits.
func (f *faulter) pgLock(ctx context.Context) (string, error) {
	conn, err := pgx.Connect(ctx, f.cluster.url())
	if err != nil {
		return "", fmt.Errorf("pg-lock: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	tx, err := conn.Begin(ctx)
	if err != nil {
		return "", fmt.Errorf("pg-lock: %w", err)
	}
	t := time.Now()
	if _, err := tx.Exec(ctx, "lock table games in access exclusive mode"); err != nil {
		tx.Rollback(ctx)
		return "", fmt.Errorf("pg-lock: %w", err)
	}
	took := time.Since(t)
	wait(ctx, f.stall)
	if err := tx.Rollback(context.WithoutCancel(ctx)); err != nil {
		return "", fmt.Errorf("pg-lock: %w", err)
	}
	return fmt.Sprintf("games locked (access exclusive) for %s, taken in %s", f.stall, took.Round(time.Millisecond)), nil
}

// sqliteLock holds the file's write lock from a connection of the load
// test's, another process than the bots', as an operator's `sqlite3 file
// 'begin exclusive'` or a backup would.
func (f *faulter) sqliteLock(ctx context.Context) (string, error) {
	db, err := sql.Open("sqlite3", "file:"+f.db+"?"+url.Values{"_busy_timeout": {"10000"}}.Encode())
	if err != nil {
		return "", fmt.Errorf("sqlite-lock: %w", err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", fmt.Errorf("sqlite-lock: %w", err)
	}
	defer conn.Close()
	t := time.Now()
	if _, err := conn.ExecContext(ctx, "begin exclusive"); err != nil {
		return "", fmt.Errorf("sqlite-lock: %w", err)
	}
	took := time.Since(t)
	wait(ctx, f.stall)
	if _, err := conn.ExecContext(context.WithoutCancel(ctx), "rollback"); err != nil {
		return "", fmt.Errorf("sqlite-lock: %w", err)
	}
	return fmt.Sprintf("write lock held (begin exclusive) for %s, taken in %s", f.stall, took.Round(time.Millisecond)), nil
}

// diskFull refuses every write the bots make to a file, as a full disk
// does, for the stall: their file size limit drops to nothing (see
// internal/diskfault), which binds root too.
func (f *faulter) diskFull(ctx context.Context, pids []int) (string, error) {
	olds := make([]unix.Rlimit, len(pids))
	var set []int
	var err error
	for i, pid := range pids {
		if err = unix.Prlimit(pid, unix.RLIMIT_FSIZE, nil, &olds[i]); err != nil {
			break
		}
		if err = unix.Prlimit(pid, unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: 0, Max: olds[i].Max}, nil); err != nil {
			break
		}
		set = append(set, i)
	}
	if err == nil {
		wait(ctx, f.stall)
	}
	for _, i := range set {
		if rerr := unix.Prlimit(pids[i], unix.RLIMIT_FSIZE, &olds[i], nil); rerr != nil && err == nil {
			err = rerr
		}
	}
	if err != nil {
		return "", fmt.Errorf("disk-full: %w", err)
	}
	return fmt.Sprintf("every write to a file refused (file size limit 0) for %s", f.stall), nil
}

// wait waits for d, or until ctx ends.
func wait(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
