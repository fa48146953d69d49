package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/tttbot/tttbot/migrations"
)

// ErrSchemaTooNew means the database was migrated by a newer binary; running
// an older one on it could corrupt data, so nothing is done.
var ErrSchemaTooNew = errors.New("database schema is newer than this binary")

// Migration is one schema change and whether the database has it.
type Migration struct {
	Version   int64
	Name      string    // the file name, e.g. "00001_games.sql"
	Applied   bool      // true once applied to the database
	AppliedAt time.Time // zero unless Applied
}

// SchemaStatus is where a database stands against the binary's migrations.
type SchemaStatus struct {
	Current    int64       // the highest version applied to the database
	Latest     int64       // the highest version this binary knows
	Migrations []Migration // every migration this binary knows, in order
}

// MigrateUp applies every pending migration to the database at path, creating
// the file if needed, and returns those it applied.
func MigrateUp(ctx context.Context, path string) ([]Migration, error) {
	w, err := openWriter(path, true)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	return migrateUp(ctx, w, slog.New(slog.DiscardHandler))
}

// MigrateDown rolls back the latest migration of the database at path.
func MigrateDown(ctx context.Context, path string) (Migration, error) {
	w, err := openWriter(path, false)
	if err != nil {
		return Migration{}, err
	}
	defer w.Close()
	p, err := provider(w)
	if err != nil {
		return Migration{}, err
	}
	if err := checkVersion(ctx, p); err != nil {
		return Migration{}, err
	}
	res, err := p.Down(ctx)
	if errors.Is(err, goose.ErrNoNextVersion) {
		return Migration{}, errors.New("migrate down: no migration to roll back")
	}
	if err != nil {
		return Migration{}, fmt.Errorf("migrate down: %w", err)
	}
	return Migration{Version: res.Source.Version, Name: filepath.Base(res.Source.Path)}, nil
}

// MigrationStatus reports the migrations of the database at path. It works on
// a database newer than the binary too: Current > Latest then.
func MigrationStatus(ctx context.Context, path string) (SchemaStatus, error) {
	w, err := openWriter(path, false)
	if err != nil {
		return SchemaStatus{}, err
	}
	defer w.Close()
	p, err := provider(w)
	if err != nil {
		return SchemaStatus{}, err
	}
	var s SchemaStatus
	if s.Current, s.Latest, err = p.GetVersions(ctx); err != nil {
		return SchemaStatus{}, fmt.Errorf("read schema version: %w", err)
	}
	list, err := p.Status(ctx)
	if err != nil {
		return SchemaStatus{}, fmt.Errorf("read migration status: %w", err)
	}
	for _, m := range list {
		s.Migrations = append(s.Migrations, Migration{
			Version:   m.Source.Version,
			Name:      filepath.Base(m.Source.Path),
			Applied:   m.State == goose.StateApplied,
			AppliedAt: m.AppliedAt,
		})
	}
	return s, nil
}

// migrateUp applies the pending migrations and logs one line for each.
func migrateUp(ctx context.Context, w *sql.DB, log *slog.Logger) ([]Migration, error) {
	p, err := provider(w)
	if err != nil {
		return nil, err
	}
	if err := checkVersion(ctx, p); err != nil {
		return nil, err
	}
	res, err := p.Up(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate up: %w", err)
	}
	var out []Migration
	for _, r := range res {
		m := Migration{Version: r.Source.Version, Name: filepath.Base(r.Source.Path), Applied: true}
		log.InfoContext(ctx, "migration applied", "version", m.Version, "name", m.Name)
		out = append(out, m)
	}
	return out, nil
}

// checkVersion refuses a database migrated beyond what the binary knows.
func checkVersion(ctx context.Context, p *goose.Provider) error {
	current, latest, err := p.GetVersions(ctx)
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > latest {
		return fmt.Errorf("%w: the database is at version %d and this binary knows up to %d; run a newer bot", ErrSchemaTooNew, current, latest)
	}
	return nil
}

// provider is quiet: goose's verbose log prints every SQL statement, so
// migrateUp logs each applied migration itself.
func provider(w *sql.DB) (*goose.Provider, error) {
	p, err := goose.NewProvider(goose.DialectSQLite3, w, migrations.FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	return p, nil
}
