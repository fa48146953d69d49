package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/tttbot/tttbot/internal/schema"
	"github.com/tttbot/tttbot/migrations"
)

// MigrateUp applies every pending migration to the database at url and
// returns those it applied.
func MigrateUp(ctx context.Context, url string) ([]schema.Migration, error) {
	cfg, err := parse(url)
	if err != nil {
		return nil, err
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	return migrateUp(ctx, db, cfg, slog.New(slog.DiscardHandler))
}

// MigrateDown rolls back the latest migration of the database at url.
func MigrateDown(ctx context.Context, url string) (schema.Migration, error) {
	cfg, err := parse(url)
	if err != nil {
		return schema.Migration{}, err
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	var out schema.Migration
	err = withMigrator(db, cfg, func(m *schema.Migrator) (err error) {
		out, err = m.Down(ctx)
		return err
	})
	return out, err
}

// MigrationStatus reports the migrations of the database at url. It works
// on a database newer than the binary too: Current > Latest then.
func MigrationStatus(ctx context.Context, url string) (schema.Status, error) {
	cfg, err := parse(url)
	if err != nil {
		return schema.Status{}, err
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	var out schema.Status
	err = withMigrator(db, cfg, func(m *schema.Migrator) (err error) {
		out, err = m.Status(ctx)
		return err
	})
	return out, err
}

// parse reads url as pgx does, keeping its password out of errors.
func parse(url string) (*pgx.ConnConfig, error) {
	// Through the pool's parser, which takes its own parameters
	// (pool_max_conns…) out of the URL: pgx's would send them to the
	// server, which refuses the connection over them.
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", cleanErr(err, url))
	}
	return cfg.ConnConfig, nil
}

// migrateUp applies the pending migrations to db, whose configuration is
// cfg, and logs one line for each.
func migrateUp(ctx context.Context, db *sql.DB, cfg *pgx.ConnConfig, log *slog.Logger) ([]schema.Migration, error) {
	var out []schema.Migration
	err := withMigrator(db, cfg, func(m *schema.Migrator) (err error) {
		out, err = m.Up(ctx, log)
		return err
	})
	return out, err
}

// withMigrator runs fn with a Migrator on db, whose configuration is cfg.
// Instances that start together take turns: goose holds an advisory lock,
// one per schema, while it migrates.
func withMigrator(db *sql.DB, cfg *pgx.ConnConfig, fn func(*schema.Migrator) error) error {
	h := fnv.New64a()
	h.Write([]byte(cfg.RuntimeParams["search_path"]))
	locker, err := lock.NewPostgresSessionLocker(
		lock.WithLockID(lock.DefaultLockID^int64(h.Sum64()>>1)),
		lock.WithLockTimeout(1, 300))
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	m, err := schema.New(goose.DialectPostgres, db, migrations.Postgres, goose.WithSessionLocker(locker))
	if err != nil {
		return err
	}
	return fn(m)
}
