package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// LockTable holds an ACCESS EXCLUSIVE lock on table from a connection of
// its own, until the returned function releases it or t ends: a database
// that stalls rather than fails, for every statement that touches table.
func LockTable(t testing.TB, url, table string) (release func()) {
	t.Helper()
	c, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	q := "BEGIN; LOCK TABLE " + pgx.Identifier{table}.Sanitize() + " IN ACCESS EXCLUSIVE MODE"
	if _, err := c.Exec(t.Context(), q); err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := c.Exec(context.Background(), "ROLLBACK"); err != nil {
			t.Error(err)
		}
	}
}
