package postgres

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tttbot/tttbot/internal/storetest"
)

// BenchmarkWebPages measures the web pages' server time with 100,000
// players and 1,000,000 finished games, as internal/sqlite's. The fixture
// takes a while to build: -short skips it.
func BenchmarkWebPages(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a database of 1,000,000 games; run without -short")
	}
	fx := buildFixture(b)
	cfg, err := parse(fx.url)
	if err != nil {
		b.Fatal(err)
	}
	c, err := pgx.ConnectConfig(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close(b.Context())
	steps := storetest.FixtureWebSteps("substr(md5(random()::text || id), 1, 16)")
	for _, q := range append(steps, "VACUUM ANALYZE") {
		if _, err := c.Exec(b.Context(), q); err != nil {
			b.Fatalf("%.60s: %v", q, err)
		}
	}
	storetest.BenchmarkWebPages(b, fx.db, fx.players)
}
