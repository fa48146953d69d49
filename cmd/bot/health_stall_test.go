package main

import (
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// A database that stalls rather than fails holds up neither /healthz nor
// `bot healthcheck`: the endpoint answers 503 within http.health_timeout,
// naming the database, with the gateway's state beside it, and the
// healthcheck prints the reason.
func TestHealthDatabaseStalls(t *testing.T) {
	const limit = time.Second
	tests := databaseStalls("interactions") // the table the write probe writes
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stall func() func()
			h := newShardedHarness(t, discordtest.Options{}, identifyInterval, func(c *config.Config) {
				c.HTTP.HealthTimeout = config.Duration{Duration: limit}
				stall = tt.open(t, c)
			})

			release := stall()
			h.clock.Advance(2 * time.Second) // past the probe's cache
			start := time.Now()
			code, body := h.healthz()
			took := time.Since(start)
			db := body.Checks["database"]
			if code != 503 || db == "" || strings.HasPrefix(db, "ok") || !strings.HasPrefix(body.Checks["gateway"], "ok") {
				t.Errorf("healthz on a stalled database: got %d %+v, want 503 naming the database, the gateway ok", code, body)
			}
			// Not a measure of speed: without the limit the probe waits for
			// the lock 10s (SQLite's busy timeout, a write's timeout).
			if took > limit+limit/2 {
				t.Errorf("healthz answered after %s, want within the limit, %s", took, limit)
			}
			if _, err := healthcheck(t, healthConfig(t, h.addr)); err == nil || !strings.Contains(err.Error(), "503 Service Unavailable: database: ") {
				t.Errorf("bot healthcheck: got %v, want the 503 and the database's state", err)
			}

			release()
			h.clock.Advance(2 * time.Second)
			if code, body := h.healthz(); code != 200 {
				t.Errorf("healthz once the lock is released: got %d %+v, want 200", code, body)
			}
		})
	}
}

// databaseStall is a way to stall an engine's database: open configures
// the bot's database and returns stall, which holds a lock from another
// connection — on the whole file in SQLite, on table in PostgreSQL — until
// release. The database stalls rather than fails.
type databaseStall struct {
	name string
	open func(t *testing.T, cfg *config.Config) (stall func() (release func()))
}

// databaseStalls are the stalls of each engine, PostgreSQL's when
// TTTBOT_TEST_POSTGRES is set.
func databaseStalls(table string) []databaseStall {
	return []databaseStall{
		{"sqlite", func(t *testing.T, cfg *config.Config) func() func() {
			path := cfg.Database.Path
			return func() func() {
				db, err := sql.Open("sqlite3", "file:"+path)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { db.Close() })
				c, err := db.Conn(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				if _, err := c.ExecContext(t.Context(), "BEGIN EXCLUSIVE"); err != nil {
					t.Fatal(err)
				}
				return func() {
					if _, err := c.ExecContext(t.Context(), "ROLLBACK"); err != nil {
						t.Fatal(err)
					}
				}
			}
		}},
		{"postgres", func(t *testing.T, cfg *config.Config) func() func() {
			url := pgtest.URL(t)
			cfg.Database.URL = config.DatabaseURL(url)
			return func() func() { return pgtest.LockTable(t, url, table) }
		}},
	}
}
