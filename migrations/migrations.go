// Package migrations holds the SQL schema of tttbot, once per SQL dialect:
// one goose file per change, numbered in order, each with its Up and Down
// sections. A version means the same change in both dialects, so that a
// database moved from one to the other keeps its place. The files are
// embedded, so a deployed bot migrates its own database.
package migrations

import (
	"embed"
	"io/fs"
)

//go:embed sqlite/*.sql postgres/*.sql
var files embed.FS

// SQLite holds the migrations of internal/sqlite; Postgres those of
// internal/postgres.
var (
	SQLite   = dialect("sqlite")
	Postgres = dialect("postgres")
)

// dialect is one folder of files.
func dialect(dir string) fs.FS {
	sub, err := fs.Sub(files, dir)
	if err != nil {
		// fs.Sub fails only on an invalid path, which dir is not.
		panic(err)
	}
	return sub
}
