package main

import (
	"testing"

	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// The floor is measured on a scratch store of either engine, which it
// leaves behind on neither.
func TestFloor(t *testing.T) {
	for _, tt := range []struct {
		name string
		db   func(t *testing.T) database
	}{
		{"sqlite", func(t *testing.T) database { return sqliteDB("") }},
		{"postgres", func(t *testing.T) database { return postgresDB(pgtest.URL(t)) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, dir := tt.db(t), t.TempDir()
			f, err := measureFloor(t.Context(), db, dir, 1500)
			if err != nil {
				t.Fatal(err)
			}
			if f.verify <= 0 || f.move <= 0 {
				t.Errorf("floor %+v: want the check's and the move's CPU above 0", f)
			}
		})
	}
}
