package pgtest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tttbot/tttbot/migrations"
)

// poolTable lists the schemas that Store lends, in the server's public
// schema, so that every test process on the server shares it.
const poolTable = "public.tttbot_test_schemas"

// Store returns the URL of a schema of t's own, as URL does, but one lent
// from a pool rather than created: empty, and already migrated when an
// earlier test used it. When t ends the schema is emptied — every row of
// every table deleted and its sequences reset — and returned to the pool.
//
// A new schema costs about 20 index builds, each synced to disk, and
// dropping it as much again: half a second a test, and most of the store
// contract's time. Emptying one costs milliseconds. A schema is lent to
// one test at a time, and for an hour at most, so that a test process that
// died does not keep it. Schemas made by other migrations than this
// binary's are dropped once nobody has used them for a day.
func Store(t testing.TB) string {
	t.Helper()
	base := baseURL(t)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", Var, err)
	}
	defer c.Close(ctx)
	schema, err := borrow(ctx, c, fingerprint())
	if err != nil {
		t.Fatalf("borrow a schema: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("return schema %s: %v", schema, err)
			return
		}
		defer c.Close(ctx)
		if err := giveBack(ctx, c, schema); err != nil {
			t.Errorf("return schema %s: %v", schema, err)
		}
	})
	return withSchema(t, base, schema)
}

// fingerprint names the binary's PostgreSQL migrations: a hash of their
// files.
func fingerprint() string {
	h := sha256.New()
	names, _ := fs.Glob(migrations.Postgres, "*.sql")
	for _, n := range names {
		data, _ := fs.ReadFile(migrations.Postgres, n)
		fmt.Fprintf(h, "%s %d\n", n, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// borrow takes an idle schema of the pool made by migrations fp, or makes
// one, and marks it lent.
func borrow(ctx context.Context, c *pgx.Conn, fp string) (string, error) {
	_, err := c.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+poolTable+` (
		schema      TEXT PRIMARY KEY,
		fingerprint TEXT NOT NULL,
		lent_until  TIMESTAMPTZ,
		used_at     TIMESTAMPTZ NOT NULL)`)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && (pe.Code == "23505" || pe.Code == "42P07") {
		err = nil // another process created it at the same moment
	}
	if err != nil {
		return "", err
	}
	if err := dropStale(ctx, c, fp); err != nil {
		return "", err
	}
	var schema string
	err = c.QueryRow(ctx, `UPDATE `+poolTable+` SET lent_until = now() + interval '1 hour', used_at = now()
		WHERE schema = (SELECT schema FROM `+poolTable+`
			WHERE fingerprint = $1 AND (lent_until IS NULL OR lent_until < now())
			LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING schema`, fp).Scan(&schema)
	if err == nil {
		return schema, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", err
	}
	schema = newName()
	if _, err := c.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		return "", err
	}
	_, err = c.Exec(ctx, `INSERT INTO `+poolTable+` VALUES ($1, $2, now() + interval '1 hour', now())`, schema, fp)
	return schema, err
}

// dropStale drops the idle schemas of other migrations unused for a day.
func dropStale(ctx context.Context, c *pgx.Conn, fp string) error {
	rows, err := c.Query(ctx, `DELETE FROM `+poolTable+` WHERE schema IN (SELECT schema FROM `+poolTable+`
		WHERE fingerprint <> $1 AND (lent_until IS NULL OR lent_until < now()) AND used_at < now() - interval '1 day'
		FOR UPDATE SKIP LOCKED) RETURNING schema`, fp)
	if err != nil {
		return err
	}
	stale, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, s := range stale {
		if _, err := c.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{s}.Sanitize()+" CASCADE"); err != nil {
			return err
		}
	}
	return nil
}

// giveBack empties schema and returns it to the pool: every table's rows
// but goose's, with the foreign keys' and the stores' triggers off, and
// every sequence back to its start.
func giveBack(ctx context.Context, c *pgx.Conn, schema string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	tx, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SET LOCAL session_replication_role = replica"); err != nil {
		return err
	}
	rows, err := tx.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'goose_db_version'`, schema)
	if err != nil {
		return err
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, table := range tables {
		if _, err := tx.Exec(ctx, "DELETE FROM "+pgx.Identifier{schema, table}.Sanitize()); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, `SELECT setval(format('%I.%I', schemaname, sequencename)::regclass, start_value, false)
		FROM pg_sequences WHERE schemaname = $1`, schema); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE `+poolTable+` SET lent_until = NULL, used_at = now() WHERE schema = $1`, schema); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// withSchema is base with schema as its search_path, and commits that
// need not wait for the disk: a test's data need not survive the server.
func withSchema(t testing.TB, base, schema string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", Var, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return u.String()
}

// newName is a new schema's name: lower case, as an unquoted identifier
// in search_path is read.
func newName() string {
	return "tttbot_test_" + strings.ToLower(randText())
}
