package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/internal/storetest"
)

// newDB opens a store on a schema of its own, closed when t ends.
func newDB(t testing.TB, opts Options) (*DB, string) {
	t.Helper()
	url := pgtest.Store(t)
	db, err := Open(t.Context(), url, opts)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db, url
}

// TestStore runs the store contract on a schema of its own.
func TestStore(t *testing.T) {
	storetest.Run(t, func(t testing.TB, o storetest.Options) *storetest.DB {
		opts := Options{SimultaneousGames: o.SimultaneousGames, Now: o.Now}
		db, url := newDB(t, opts)
		cfg, err := parse(url)
		if err != nil {
			t.Fatal(err)
		}
		raw := stdlib.OpenDB(*cfg)
		t.Cleanup(func() { raw.Close() })
		return &storetest.DB{
			Store: db,
			SQL:   raw,
			Check: func(ctx context.Context, acked []tttbot.Move) ([]Problem, error) {
				return Check(ctx, url, acked)
			},
			Reopen: func(t testing.TB) storetest.Store {
				db.Close()
				again, err := Open(t.Context(), url, opts)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { again.Close() })
				return again
			},
		}
	})
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
