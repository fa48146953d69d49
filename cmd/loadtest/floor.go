package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres"
	"github.com/tttbot/tttbot/internal/sqlite"
	"github.com/tttbot/tttbot/internal/storetest"
)

// floor is the least CPU an interaction can cost on this machine, measured
// in the run with the bots stopped: the Ed25519 check of a request of the
// run's mean size, and a move applied and committed on the engine in use,
// from one goroutine (storetest.Player's moves, as BenchmarkMove's; on
// PostgreSQL the client's CPU only, the server's not counted).
type floor struct {
	verify, move time.Duration
	// http is net/http's own CPU per request at the run's rate, apart
	// from the floor (see measureHTTP).
	http time.Duration
}

func (f floor) total() time.Duration { return f.verify + f.move }

// The floor's figures are each the best of floorBatches batches of
// floorVerifies checks or floorMoves moves, so that a moment's noise on a
// shared machine does not raise them.
const (
	floorBatches  = 5
	floorVerifies = 200
	floorMoves    = 200
)

// measureFloor measures the floor for requests of size bytes, with the
// moves on a scratch store of db's engine.
func measureFloor(ctx context.Context, db database, dir string, size int) (floor, error) {
	var f floor
	_, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		return f, err
	}
	msg := make([]byte, size+len("1700000000")) // the timestamp, then the body
	sig := ed25519.Sign(key, msg)
	pub := key.Public().(ed25519.PublicKey)
	f.verify, err = bestCPU(floorVerifies, func() error {
		if !ed25519.Verify(pub, msg, sig) {
			return errors.New("floor: a signature did not verify")
		}
		return nil
	})
	if err != nil {
		return f, err
	}
	s, closeStore, err := db.scratch(ctx, dir)
	if err != nil {
		return f, fmt.Errorf("floor: %w", err)
	}
	p := storetest.NewPlayer(s, "floor", 1)
	var id int64 = 1 << 60 // snowflake-sized
	// A first batch, unmeasured, warms the store's caches and connections.
	for range floorMoves {
		if err = p.Move(ctx, id, true); err != nil {
			break
		}
		id++
	}
	if err == nil {
		f.move, err = bestCPU(floorMoves, func() error { id++; return p.Move(ctx, id, true) })
	}
	if err := errors.Join(err, closeStore()); err != nil {
		return f, fmt.Errorf("floor: %w", err)
	}
	return f, nil
}

// bestCPU runs fn n times in each of floorBatches batches and returns the
// process's CPU time per call in the cheapest batch.
func bestCPU(n int, fn func() error) (time.Duration, error) {
	best := time.Duration(math.MaxInt64)
	for range floorBatches {
		start := processCPU()
		for range n {
			if err := fn(); err != nil {
				return 0, err
			}
		}
		best = min(best, (processCPU()-start)/time.Duration(n))
	}
	return best, nil
}

// processCPU is the CPU time this process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// scratch opens a new SQLite file in dir.
func (sqliteDB) scratch(ctx context.Context, dir string) (tttbot.GameStore, func() error, error) {
	db, err := sqlite.Open(ctx, filepath.Join(dir, "floor.db"), sqlite.Options{SimultaneousGames: true})
	if err != nil {
		return nil, nil, err
	}
	return db, db.Close, nil
}

// scratch creates a schema of its own in the load's database, and drops
// it on close: the moves commit as the bots' do, the load's tables
// untouched.
func (u postgresDB) scratch(ctx context.Context, _ string) (tttbot.GameStore, func() error, error) {
	pu, err := url.Parse(string(u))
	if err != nil {
		return nil, nil, err
	}
	admin, err := pgx.Connect(ctx, string(u))
	if err != nil {
		return nil, nil, err
	}
	schema := fmt.Sprintf("tttbot_floor_%d", time.Now().UnixNano())
	drop := func() error {
		ctx := context.WithoutCancel(ctx)
		_, err := admin.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
		return errors.Join(err, admin.Close(ctx))
	}
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		return nil, nil, errors.Join(err, drop())
	}
	q := pu.Query()
	q.Set("search_path", schema)
	pu.RawQuery = q.Encode()
	db, err := postgres.Open(ctx, pu.String(), postgres.Options{SimultaneousGames: true})
	if err != nil {
		return nil, nil, errors.Join(err, drop())
	}
	return db, func() error { return errors.Join(db.Close(), drop()) }, nil
}
