// Package schema runs a store's goose migrations, the same way for every SQL
// dialect: up with a log line for each applied, down one at a time, status,
// and a refusal to touch a database that a newer binary migrated.
package schema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/pressly/goose/v3"
)

// ErrTooNew means the database was migrated by a newer binary; running
// an older one on it could corrupt data, so nothing is done.
var ErrTooNew = errors.New("database schema is newer than this binary")

// Migration is one schema change and whether the database has it.
type Migration struct {
	Version   int64
	Name      string    // the file name, e.g. "00001_games.sql"
	Applied   bool      // true once applied to the database
	AppliedAt time.Time // zero unless Applied
}

// Status is where a database stands against the binary's migrations.
type Status struct {
	Current    int64       // the highest version applied to the database
	Latest     int64       // the highest version this binary knows
	Migrations []Migration // every migration this binary knows, in order
}

// Migrator runs the migrations of files, in dialect, on db.
type Migrator struct {
	p *goose.Provider
}

// New returns a Migrator. goose's own log is off: it prints every SQL
// statement, so Up logs each applied migration itself.
// opts add to the provider's options, such as a lock.
func New(dialect goose.Dialect, db *sql.DB, files fs.FS, opts ...goose.ProviderOption) (*Migrator, error) {
	p, err := goose.NewProvider(dialect, db, files, append([]goose.ProviderOption{goose.WithDisableGlobalRegistry(true)}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	return &Migrator{p: p}, nil
}

// Up applies the pending migrations, logs one line for each, and returns
// them.
func (m *Migrator) Up(ctx context.Context, log *slog.Logger) ([]Migration, error) {
	if err := m.checkVersion(ctx); err != nil {
		return nil, err
	}
	res, err := m.p.Up(ctx)
	if err != nil {
		return nil, fmt.Errorf("migrate up: %w", err)
	}
	var out []Migration
	for _, r := range res {
		mg := Migration{Version: r.Source.Version, Name: filepath.Base(r.Source.Path), Applied: true}
		log.InfoContext(ctx, "migration applied", "version", mg.Version, "name", mg.Name)
		out = append(out, mg)
	}
	return out, nil
}

// Down rolls back the latest migration.
func (m *Migrator) Down(ctx context.Context) (Migration, error) {
	if err := m.checkVersion(ctx); err != nil {
		return Migration{}, err
	}
	res, err := m.p.Down(ctx)
	if errors.Is(err, goose.ErrNoNextVersion) {
		return Migration{}, errors.New("migrate down: no migration to roll back")
	}
	if err != nil {
		return Migration{}, fmt.Errorf("migrate down: %w", err)
	}
	return Migration{Version: res.Source.Version, Name: filepath.Base(res.Source.Path)}, nil
}

// Status reports the migrations of the database. It works on a database
// newer than the binary too: Current > Latest then.
func (m *Migrator) Status(ctx context.Context) (Status, error) {
	var s Status
	var err error
	if s.Current, s.Latest, err = m.p.GetVersions(ctx); err != nil {
		return Status{}, fmt.Errorf("read schema version: %w", err)
	}
	list, err := m.p.Status(ctx)
	if err != nil {
		return Status{}, fmt.Errorf("read migration status: %w", err)
	}
	for _, r := range list {
		s.Migrations = append(s.Migrations, Migration{
			Version:   r.Source.Version,
			Name:      filepath.Base(r.Source.Path),
			Applied:   r.State == goose.StateApplied,
			AppliedAt: r.AppliedAt,
		})
	}
	return s, nil
}

// checkVersion refuses a database migrated beyond what the binary knows.
func (m *Migrator) checkVersion(ctx context.Context) error {
	current, latest, err := m.p.GetVersions(ctx)
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > latest {
		return fmt.Errorf("%w: the database is at version %d and this binary knows up to %d; run a newer bot", ErrTooNew, current, latest)
	}
	return nil
}
