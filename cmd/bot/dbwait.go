package main

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/postgres"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// The waits between start-up's attempts to open the database: the first,
// and the longest.
const (
	dbWaitMin = 500 * time.Millisecond
	dbWaitMax = 10 * time.Second
)

// waitForStore opens the database as openStore does, trying again while
// it fails in a way that may pass by itself — down, hung, locked by
// another process (see postgres.Transient and sqlite.Transient) — for up
// to database.wait in all; any other failure ends it at once. Each wait is
// twice the one before, up to dbWaitMax, less a random part of up to half,
// so that instances restarted together do not try in step. Each failure is
// logged with its reason, which status hands to /healthz, and the wait
// ends as soon as ctx does, with ctx's error. sleep (nil: a timer) waits
// between the attempts.
func waitForStore(ctx context.Context, cfg config.Config, log *slog.Logger, now func() time.Time,
	sleep func(context.Context, time.Duration) error, status func(string)) (store, error) {
	if sleep == nil {
		sleep = func(ctx context.Context, d time.Duration) error {
			select {
			case <-time.After(d):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	limit := cfg.Database.Wait.Duration
	start, next := time.Now(), dbWaitMin
	for attempt := 1; ; attempt++ {
		db, err := openStore(ctx, cfg, log, now)
		switch {
		case err == nil:
			if attempt > 1 {
				log.Info("database reached", "database", cfg.Database.Name(), "attempts", attempt,
					"waited", time.Since(start).Round(time.Millisecond))
			}
			return db, nil
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case !transient(cfg.Database, err):
			return nil, err
		}
		left := limit - time.Since(start)
		switch {
		case limit == 0:
			return nil, err
		case left <= 0:
			return nil, fmt.Errorf("gave up waiting for the database after %s (database.wait): %w", cfg.Database.Wait, err)
		}
		wait := min(next-rand.N(next/2+1), left)
		next = min(2*next, dbWaitMax)
		log.Warn("waiting for the database", "database", cfg.Database.Name(), "attempt", attempt,
			"wait", wait.Round(time.Millisecond), "err", err)
		status("waiting for the database: " + err.Error())
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// transient reports whether err, from openStore or a store call, may pass
// by itself.
func transient(d config.Database, err error) bool {
	if d.Postgres() {
		return postgres.Transient(err)
	}
	return sqlite.Transient(err)
}

// unavailable reports whether err, from a store call, says the database
// cannot be used for now: besides what may pass (transient), SQLite's
// failures to store, which last until an operator frees the disk.
func unavailable(d config.Database, err error) bool {
	if d.Postgres() {
		return postgres.Transient(err)
	}
	return sqlite.Unavailable(err)
}
