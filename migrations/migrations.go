// Package migrations holds the SQL schema of tttbot: one goose file per change,
// numbered in order, each with its Up and Down sections. FS embeds them into
// the binary, so a deployed bot migrates its own database.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
