package storetest

import (
	"cmp"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
)

// FixturePuzzles is how many puzzles BenchmarkNextPuzzle chooses among.
const FixturePuzzles = 100_000

// BenchmarkNextPuzzle measures choosing a puzzle near a rating among
// FixturePuzzles puzzles of four shapes, rated 500 to 2500, written through
// raw (the same database as s): for a player who has seen none, and for one
// who has seen the 1,000 nearest, which the walks up and down the index
// skip. Of any shape, and of one.
// settle are the statements that leave the tables as a live database's
// upkeep does (statistics; on PostgreSQL the visibility map that lets
// the walks read the index alone).
func BenchmarkNextPuzzle(b *testing.B, s tttbot.PuzzleStore, raw *sql.DB, settle ...string) {
	ctx := b.Context()
	// Every fixture row is one real puzzle's position and line under
	// another ID: NextPuzzle reads them and checks nothing more.
	p := puzzles(b, "5x5k4", 1, 0, 0)[0]
	shapes := []tttbot.Shape{{Rows: 3, Cols: 3, K: 3}, {Rows: 4, Cols: 4, K: 3}, {Rows: 4, Cols: 4, K: 4}, {Rows: 5, Cols: 5, K: 4}}
	rng := rand.New(rand.NewPCG(1, 2))
	type row struct {
		id string
		r  float64
	}
	rows := make([]row, FixturePuzzles)
	tx, err := raw.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	const batch = 500
	for i := 0; i < len(rows); i += batch {
		var q strings.Builder
		q.WriteString(`INSERT INTO puzzles (id, board_rows, board_cols, k, start, line, plies, kind, game_id, rating, rd, sigma, attempts, solves, created_at) VALUES `)
		var args []any
		for j := i; j < i+batch; j++ {
			rows[j] = row{fmt.Sprintf("bench-%d", j), 500 + 2000*rng.Float64()}
			sh := shapes[j%len(shapes)]
			n := len(args)
			if j > i {
				q.WriteString(", ")
			}
			fmt.Fprintf(&q, "($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, NULL, $%d, $%d, $%d, 0, 0, 0)", n+1, n+2, n+3, n+4, n+5, n+6, n+7, n+8, n+9, n+10, n+11)
			args = append(args, rows[j].id, sh.Rows, sh.Cols, sh.K, p.Start, tttbot.FormatLine(p.Line), p.Plies(), string(p.Kind), rows[j].r, 200.0, 0.06)
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			b.Fatal(err)
		}
	}
	// "seen" has attempted the 1,000 puzzles rated nearest 1500.
	if _, err := tx.ExecContext(ctx, `INSERT INTO players (id, name, updated_at) VALUES ('seen', '', 0)`); err != nil {
		b.Fatal(err)
	}
	slices.SortFunc(rows, func(x, y row) int { return cmp.Compare(math.Abs(x.r-1500), math.Abs(y.r-1500)) })
	for _, r := range rows[:1000] {
		if _, err := tx.ExecContext(ctx, gamerow.QueryAddAttempt, "seen", r.id, 1, true, true, 5, 1000); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	for _, q := range settle {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, player string
		shape        tttbot.Shape
		want         string
	}{
		{"any/fresh", "fresh", tttbot.Shape{}, rows[0].id},
		{"any/seen1000", "seen", tttbot.Shape{}, rows[1000].id},
		{"5x5k4/fresh", "fresh", shapes[3], ""},
		{"5x5k4/seen1000", "seen", shapes[3], ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				got, err := s.NextPuzzle(ctx, c.player, c.shape, 1500)
				if err != nil || c.want != "" && got.ID != c.want {
					b.Fatalf("got %v, %v; want %s", got, err, c.want)
				}
			}
		})
	}
}
