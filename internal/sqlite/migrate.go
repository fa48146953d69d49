package sqlite

import (
	"context"
	"database/sql"
	"log/slog"

	"github.com/pressly/goose/v3"

	"github.com/tttbot/tttbot/internal/schema"
	"github.com/tttbot/tttbot/migrations"
)

// MigrateUp applies every pending migration to the database at path, creating
// the file if needed, and returns those it applied.
func MigrateUp(ctx context.Context, path string) ([]schema.Migration, error) {
	w, err := openWriter(path, true, false)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	return migrateUp(ctx, w, slog.New(slog.DiscardHandler))
}

// MigrateDown rolls back the latest migration of the database at path.
func MigrateDown(ctx context.Context, path string) (schema.Migration, error) {
	w, err := openWriter(path, false, false)
	if err != nil {
		return schema.Migration{}, err
	}
	defer w.Close()
	m, err := migrator(w)
	if err != nil {
		return schema.Migration{}, err
	}
	return m.Down(ctx)
}

// MigrationStatus reports the migrations of the database at path. It works on
// a database newer than the binary too: Current > Latest then.
func MigrationStatus(ctx context.Context, path string) (schema.Status, error) {
	w, err := openWriter(path, false, false)
	if err != nil {
		return schema.Status{}, err
	}
	defer w.Close()
	m, err := migrator(w)
	if err != nil {
		return schema.Status{}, err
	}
	return m.Status(ctx)
}

// migrateUp applies the pending migrations and logs one line for each.
func migrateUp(ctx context.Context, w *sql.DB, log *slog.Logger) ([]schema.Migration, error) {
	m, err := migrator(w)
	if err != nil {
		return nil, err
	}
	return m.Up(ctx, log)
}

func migrator(w *sql.DB) (*schema.Migrator, error) {
	return schema.New(goose.DialectSQLite3, w, migrations.SQLite)
}
