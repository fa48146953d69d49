package sqlite

import (
	"database/sql"
	"testing"

	"github.com/tttbot/tttbot/internal/storetest"
)

// BenchmarkWebPages measures the web pages' server time with 100,000
// players and 1,000,000 finished games (see storetest.BenchmarkWebPages).
// The fixture takes a while to build: -short skips it.
func BenchmarkWebPages(b *testing.B) {
	if testing.Short() {
		b.Skip("builds a database of 1,000,000 games; run without -short")
	}
	fx := buildFixture(b)
	c, err := sql.Open("sqlite3", dsn(fx.db.path, nil))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for _, q := range append(storetest.FixtureWebSteps("lower(hex(randomblob(8)))"), "ANALYZE") {
		if _, err := c.Exec(q); err != nil {
			b.Fatalf("%.60s: %v", q, err)
		}
	}
	storetest.BenchmarkWebPages(b, fx.db, fx.players)
}
