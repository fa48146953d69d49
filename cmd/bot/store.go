package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/postgres"
	"github.com/tttbot/tttbot/internal/schema"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// store is what the bot needs of its database, whichever engine keeps it.
type store interface {
	tttbot.Store
	Ping(ctx context.Context) error
	ActiveGames(ctx context.Context) (int, error)
	Close() error
}

// openStore opens and migrates the configured database: PostgreSQL when
// database.url is set, else the SQLite file.
func openStore(ctx context.Context, cfg config.Config, log *slog.Logger, now func() time.Time) (store, error) {
	if cfg.Database.Postgres() {
		return postgres.Open(ctx, string(cfg.Database.URL), postgres.Options{
			SimultaneousGames: cfg.Game.SimultaneousGames, Logger: log, Now: now,
		})
	}
	return sqlite.Open(ctx, cfg.Database.Path, sqlite.Options{
		SimultaneousGames: cfg.Game.SimultaneousGames, Logger: log, Now: now,
	})
}

// schemaOps are the schema operations of the configured database.
type schemaOps struct {
	up     func(ctx context.Context) ([]schema.Migration, error)
	down   func(ctx context.Context) (schema.Migration, error)
	status func(ctx context.Context) (schema.Status, error)
}

func migrationsOf(d config.Database) schemaOps {
	if d.Postgres() {
		url := string(d.URL)
		return schemaOps{
			up:     func(ctx context.Context) ([]schema.Migration, error) { return postgres.MigrateUp(ctx, url) },
			down:   func(ctx context.Context) (schema.Migration, error) { return postgres.MigrateDown(ctx, url) },
			status: func(ctx context.Context) (schema.Status, error) { return postgres.MigrationStatus(ctx, url) },
		}
	}
	return schemaOps{
		up:     func(ctx context.Context) ([]schema.Migration, error) { return sqlite.MigrateUp(ctx, d.Path) },
		down:   func(ctx context.Context) (schema.Migration, error) { return sqlite.MigrateDown(ctx, d.Path) },
		status: func(ctx context.Context) (schema.Status, error) { return sqlite.MigrationStatus(ctx, d.Path) },
	}
}
