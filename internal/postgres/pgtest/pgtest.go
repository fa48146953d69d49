// Package pgtest gives tests a PostgreSQL database of their own: a new
// schema on the server that TTTBOT_TEST_POSTGRES names, dropped when the
// test ends. Without the variable the test is skipped, with a line saying
// how to run it.
package pgtest

import (
	"context"
	"crypto/rand"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Var names the server the tests use, e.g.
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable.
const Var = "TTTBOT_TEST_POSTGRES"

// URL creates a schema for t on the server Var names and returns the
// server's URL with the schema as its search_path, and commits that need
// not wait for the disk. The schema and everything in it are dropped when
// t ends. t is skipped when Var is unset.
func URL(t testing.TB) string {
	t.Helper()
	base := baseURL(t)
	schema := newName()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", Var, err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return withSchema(t, base, schema)
}

// baseURL is the server's URL from Var; t is skipped when it is unset.
func baseURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(Var)
	if base == "" {
		t.Skipf("PostgreSQL tests skipped: set %s=postgres://postgres@127.0.0.1:5432/test?sslmode=disable to run them", Var)
	}
	return base
}

// randText is 16 random letters and digits.
func randText() string { return rand.Text()[:16] }

// Schema returns the schema of a URL made by URL or Store.
func Schema(t testing.TB, rawURL string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("search_path")
}

// Durable is rawURL, made by URL or Store, with commits that wait for the
// disk again, as a deployed bot's do: for benchmarks.
func Durable(t testing.TB, rawURL string) string {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Del("synchronous_commit")
	u.RawQuery = q.Encode()
	return u.String()
}
