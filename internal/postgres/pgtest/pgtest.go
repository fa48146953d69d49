// Package pgtest gives tests a PostgreSQL database of their own: a new
// schema on the server that TTTBOT_TEST_POSTGRES names, dropped when the
// test ends. Without the variable the test is skipped, with a line saying
// how to run it.
package pgtest

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"strings"
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
	base := os.Getenv(Var)
	if base == "" {
		t.Skipf("PostgreSQL tests skipped: set %s=postgres://postgres@127.0.0.1:5432/test?sslmode=disable to run them", Var)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", Var, err)
	}
	schema := "tttbot_test_" + strings.ToLower(rand.Text()[:16])
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
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return u.String()
}

// Schema returns the schema of a URL made by URL.
func Schema(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		panic(fmt.Sprintf("pgtest: %v", err))
	}
	return u.Query().Get("search_path")
}
