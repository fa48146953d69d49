package postgres

import (
	"testing"

	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// A URL with the pool's parameters, which a bot's config may carry, serves
// the tools that connect without a pool too: migrate, its status, check.
func TestPoolParametersServeEveryTool(t *testing.T) {
	url := pgtest.URL(t) + "&pool_max_conns=2&pool_min_conns=1"
	if _, err := MigrateUp(t.Context(), url); err != nil {
		t.Fatalf("migrate up: %v", err)
	}
	if st, err := MigrationStatus(t.Context(), url); err != nil || st.Current != st.Latest {
		t.Errorf("migration status: got %+v, %v; want the latest version", st, err)
	}
	if problems, err := Check(t.Context(), url, nil); err != nil || len(problems) > 0 {
		t.Errorf("check: got %v, %v", problems, err)
	}
	db, err := Open(t.Context(), url, Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	db.Close()
}
