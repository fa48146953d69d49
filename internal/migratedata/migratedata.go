// Package migratedata copies a tttbot database from SQLite into an empty
// PostgreSQL one, for a bot that moves to several instances. It sits apart
// from internal/sqlite and internal/postgres, each of which knows only its
// own engine: the copy is the one place that reads both schemas, and the
// list of tables it copies lives here with the test that proves it complete.
//
// The copy keeps every ID, so that the buttons of old boards keep working,
// sets the target's sequences past them, and runs in one transaction of the
// target that also runs the consistency check: a copy that fails it, or
// fails at all, leaves the target as it found it.
package migratedata

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tttbot/tttbot/internal/dbcheck"
	"github.com/tttbot/tttbot/internal/pgurl"
	"github.com/tttbot/tttbot/internal/postgres"
	_ "github.com/tttbot/tttbot/internal/sqlite" // registers the "sqlite3" driver
	"github.com/tttbot/tttbot/migrations"
)

// table is one table of the schema, in both engines, and how the copy
// treats it.
type table struct {
	name string
	// derived, when set, says how the target rebuilds the table from the
	// copied rows, which the copy then leaves out.
	derived string
}

// tables lists every table of the schema, parents before the tables whose
// foreign keys refer to them. TestTablesComplete proves the list complete
// against the SQLite schema and the PostgreSQL one, and Copy refuses a
// database with a table the list does not name: a new table cannot be
// forgotten silently.
var tables = []table{
	{name: "guilds"},
	{name: "players"},
	{name: "games"},
	{name: "moves"},
	{name: "results"},
	{name: "ratings"},
	{name: "rating_counts", derived: "the target's trigger counts each copied rating"},
	{name: "rating_history"},
	{name: "bot_records"},
	{name: "puzzles"},
	{name: "puzzle_ratings"},
	{name: "puzzle_attempts"},
	{name: "tournaments"},
	{name: "tournament_entrants"},
	{name: "tournament_games"},
	{name: "daily_posts"},
	{name: "daily_solves"},
	{name: "interactions"},
}

// internal reports whether a table is the engine's or goose's, not tttbot's.
func internal(name string) bool {
	return name == "goose_db_version" || strings.HasPrefix(name, "sqlite_")
}

// ErrNotEmpty refuses a target that holds data already: a copy over it
// would mix two bots' games.
var ErrNotEmpty = errors.New("the PostgreSQL database is not empty")

// CheckError is a copy that failed the consistency check: nothing was
// committed.
type CheckError struct {
	Problems []dbcheck.Problem
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("the copy fails the consistency check with %d problems: nothing was copied", len(e.Problems))
}

// Options tune Copy. The zero value is ready to use.
type Options struct {
	// Progress, when set, is told as rows are copied: the table, the rows
	// copied of it so far and its rows in all. It is called from Copy's
	// goroutine, at the start and end of each table and every
	// progressEvery rows between.
	Progress func(table string, done, total int64)

	// Checking, when set, is called when the rows are copied and the
	// consistency check, which replays every game, begins.
	Checking func()
}

// progressEvery is how many rows pass between two Progress calls.
const progressEvery = 10_000

// Count is how many rows a table holds after the copy.
type Count struct {
	Table   string
	Rows    int64
	Derived bool // rebuilt by the target, not copied
}

// Result is what a copy did.
type Result struct {
	Counts  []Count       // in the order of the copy
	Version int64         // the schema version of both databases
	Elapsed time.Duration // copying, checking and committing
}

// Copy copies the SQLite database at from into the PostgreSQL database at
// to, which must hold no tttbot data; its schema is migrated up first. Both
// must be at the schema version this binary knows: a SQLite database
// behind it is migrated with 'bot migrate up' first. Copy reads the source
// read-only, in one snapshot.
func Copy(ctx context.Context, from, to string, opts Options) (Result, error) {
	latest, err := latestVersion(migrations.Postgres)
	if err != nil {
		return Result{}, err
	}
	src, err := openSource(ctx, from)
	if err != nil {
		return Result{}, err
	}
	defer src.Close()
	stx, err := src.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Result{}, fmt.Errorf("read SQLite database: %w", err)
	}
	defer stx.Rollback()
	var version int64
	if err := stx.QueryRowContext(ctx, "SELECT max(version_id) FROM goose_db_version").Scan(&version); err != nil {
		return Result{}, fmt.Errorf("read SQLite database %s: not a tttbot database: %w", from, err)
	}
	switch {
	case version < latest:
		return Result{}, fmt.Errorf("the SQLite database %s is at schema version %d, this binary's is %d: run 'bot migrate up' on it first (with a config naming it), then copy", from, version, latest)
	case version > latest:
		return Result{}, fmt.Errorf("the SQLite database %s is at schema version %d, newer than this binary's %d: copy it with a newer bot", from, version, latest)
	}

	// The target's schema comes from its own migrations, up to the version
	// the source has.
	if _, err := postgres.MigrateUp(ctx, to); err != nil {
		return Result{}, err
	}
	start := time.Now()
	// The pool's parser takes out the pool's parameters (pool_max_conns…),
	// which a bot's URL may carry and the server would refuse.
	cfg, err := pgxpool.ParseConfig(to)
	if err != nil {
		return Result{}, fmt.Errorf("open PostgreSQL database %s: the URL does not parse", pgurl.Redact(to))
	}
	dst := stdlib.OpenDB(*cfg.ConnConfig)
	defer dst.Close()
	conn, err := dst.Conn(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("open PostgreSQL database %s: %w", pgurl.Redact(to), err)
	}
	defer conn.Close()
	dtx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return Result{}, fmt.Errorf("copy into %s: %w", pgurl.Redact(to), err)
	}
	defer dtx.Rollback()

	c := copier{src: stx, dst: dtx, conn: conn, opts: opts}
	counts, err := c.run(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("copy into %s: %w", pgurl.Redact(to), err)
	}
	if opts.Checking != nil {
		opts.Checking()
	}
	problems, err := postgres.CheckTx(ctx, dtx, nil)
	if err != nil {
		return Result{}, fmt.Errorf("check the copy: %w", err)
	}
	if len(problems) > 0 {
		return Result{}, &CheckError{Problems: problems}
	}
	if err := dtx.Commit(); err != nil {
		return Result{}, fmt.Errorf("copy into %s: commit: %w", pgurl.Redact(to), err)
	}
	return Result{Counts: counts, Version: version, Elapsed: time.Since(start)}, nil
}

// openSource opens the SQLite database at path read-only. A missing file
// is an error, not a new empty database.
func openSource(ctx context.Context, path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open SQLite database: %w", err)
	}
	q := url.Values{"mode": {"ro"}, "_query_only": {"1"}, "_busy_timeout": {"5000"}}
	u := url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: q.Encode()}
	db, err := sql.Open("sqlite3", u.String())
	if err == nil {
		err = db.PingContext(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("open SQLite database %s: %w", path, err)
	}
	return db, nil
}

// latestVersion is the highest version among the migration files of fsys,
// named NNNNN_name.sql.
func latestVersion(fsys fs.FS) (int64, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return 0, fmt.Errorf("list migrations: %w", err)
	}
	var latest int64
	for _, n := range names {
		digits, _, _ := strings.Cut(n, "_")
		v, err := strconv.ParseInt(digits, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("migration %s: no version number", n)
		}
		latest = max(latest, v)
	}
	return latest, nil
}

// copier copies within the source's snapshot and the target's
// transaction.
type copier struct {
	src  *sql.Tx
	dst  *sql.Tx
	conn *sql.Conn // dst's connection, for pgx's COPY
	opts Options
}

func (c *copier) run(ctx context.Context) ([]Count, error) {
	if err := c.knownTables(ctx); err != nil {
		return nil, err
	}
	// A bot running on the target waits until the copy commits, and the
	// copy does not wait long for one that holds a table.
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = pgx.Identifier{t.name}.Sanitize()
	}
	if _, err := c.dst.ExecContext(ctx, "SET LOCAL lock_timeout = '10s'"); err != nil {
		return nil, err
	}
	if _, err := c.dst.ExecContext(ctx, "LOCK TABLE "+strings.Join(names, ", ")+" IN EXCLUSIVE MODE"); err != nil {
		return nil, fmt.Errorf("lock the tables (is a bot running on this database?): %w", err)
	}
	var full []string
	for _, t := range tables {
		var rows bool
		if err := c.dst.QueryRowContext(ctx, "SELECT EXISTS (SELECT FROM "+pgx.Identifier{t.name}.Sanitize()+")").Scan(&rows); err != nil {
			return nil, err
		}
		if rows {
			full = append(full, t.name)
		}
	}
	if len(full) > 0 {
		return nil, fmt.Errorf("%w: %s already hold rows; migrate-data copies into an empty database only, and copied nothing", ErrNotEmpty, strings.Join(full, ", "))
	}

	var counts []Count
	for _, t := range tables {
		if t.derived != "" {
			continue
		}
		n, err := c.copyTable(ctx, t.name)
		if err != nil {
			return nil, fmt.Errorf("copy %s: %w", t.name, err)
		}
		counts = append(counts, Count{Table: t.name, Rows: n})
	}
	if err := c.setSequences(ctx); err != nil {
		return nil, err
	}
	// Every table holds in the target what it held in the source; the
	// derived ones are counted as the target rebuilt them.
	copied := map[string]int64{}
	for _, n := range counts {
		copied[n.Table] = n.Rows
	}
	counts = counts[:0]
	for _, t := range tables {
		var n int64
		if err := c.dst.QueryRowContext(ctx, "SELECT count(*) FROM "+pgx.Identifier{t.name}.Sanitize()).Scan(&n); err != nil {
			return nil, err
		}
		if want, ok := copied[t.name]; ok && n != want {
			return nil, fmt.Errorf("%s holds %d rows after copying %d", t.name, n, want)
		}
		counts = append(counts, Count{Table: t.name, Rows: n, Derived: t.derived != ""})
	}
	return counts, nil
}

// knownTables refuses a source or target with a table that tables does not
// list, and a listed table missing from either.
func (c *copier) knownTables(ctx context.Context) error {
	listed := map[string]bool{}
	for _, t := range tables {
		listed[t.name] = true
	}
	for _, side := range []struct {
		engine string
		tx     *sql.Tx
		query  string
	}{
		{"SQLite", c.src, "SELECT name FROM sqlite_schema WHERE type = 'table'"},
		{"PostgreSQL", c.dst, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"},
	} {
		names, err := strs(ctx, side.tx, side.query)
		if err != nil {
			return fmt.Errorf("list the %s tables: %w", side.engine, err)
		}
		have := map[string]bool{}
		for _, n := range names {
			if internal(n) {
				continue
			}
			if !listed[n] {
				return fmt.Errorf("the %s database has a table %s that this binary does not know how to copy", side.engine, n)
			}
			have[n] = true
		}
		for _, t := range slices.Sorted(maps.Keys(listed)) {
			if !have[t] {
				return fmt.Errorf("the %s database has no table %s", side.engine, t)
			}
		}
	}
	return nil
}

// column is a target column and its PostgreSQL type.
type column struct {
	name, typ string
}

// columns returns the columns a copy writes into table: those the target
// does not generate, which the source must have too, and no more.
func (c *copier) columns(ctx context.Context, table string) ([]column, error) {
	rows, err := c.dst.QueryContext(ctx, `SELECT column_name, data_type FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
		ORDER BY ordinal_position`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cols []column
	for rows.Next() {
		var col column
		if err := rows.Scan(&col.name, &col.typ); err != nil {
			return nil, err
		}
		cols = append(cols, col)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// hidden is 2 or 3 for SQLite's generated columns.
	src, err := strs(ctx, c.src, "SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0", table)
	if err != nil {
		return nil, err
	}
	var dst []string
	for _, col := range cols {
		dst = append(dst, col.name)
	}
	slices.Sort(src)
	slices.Sort(dst)
	if !slices.Equal(src, dst) {
		return nil, fmt.Errorf("the columns differ: SQLite has %s, PostgreSQL %s", strings.Join(src, ", "), strings.Join(dst, ", "))
	}
	return cols, nil
}

// copyTable copies table's rows with PostgreSQL's COPY and returns how many
// it copied.
func (c *copier) copyTable(ctx context.Context, table string) (int64, error) {
	cols, err := c.columns(ctx, table)
	if err != nil {
		return 0, err
	}
	var total int64
	if err := c.src.QueryRowContext(ctx, `SELECT count(*) FROM "`+table+`"`).Scan(&total); err != nil {
		return 0, err
	}
	names := make([]string, len(cols))
	quoted := make([]string, len(cols))
	for i, col := range cols {
		names[i], quoted[i] = col.name, `"`+col.name+`"`
	}
	rows, err := c.src.QueryContext(ctx, "SELECT "+strings.Join(quoted, ", ")+` FROM "`+table+`"`)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	s := &source{rows: rows, cols: cols, vals: make([]any, len(cols)), table: table, total: total, progress: c.opts.Progress}
	s.report()
	var n int64
	err = c.conn.Raw(func(dc any) error {
		var err error
		n, err = dc.(*stdlib.Conn).Conn().CopyFrom(ctx, pgx.Identifier{table}, names, s)
		return err
	})
	if err != nil {
		return 0, err
	}
	s.done = n
	s.report()
	return n, nil
}

// source feeds COPY with the rows of a SQLite query, in the target's
// types.
type source struct {
	rows     *sql.Rows
	cols     []column
	vals     []any
	err      error
	table    string
	done     int64
	total    int64
	progress func(table string, done, total int64)
}

func (s *source) report() {
	if s.progress != nil {
		s.progress(s.table, s.done, s.total)
	}
}

func (s *source) Next() bool {
	if s.err != nil || !s.rows.Next() {
		return false
	}
	ptrs := make([]any, len(s.vals))
	for i := range s.vals {
		ptrs[i] = &s.vals[i]
	}
	if s.err = s.rows.Scan(ptrs...); s.err != nil {
		return false
	}
	for i, col := range s.cols {
		if s.vals[i], s.err = convert(s.vals[i], col.typ); s.err != nil {
			s.err = fmt.Errorf("column %s: %w", col.name, s.err)
			return false
		}
	}
	if s.done++; s.done%progressEvery == 0 {
		s.report()
	}
	return true
}

func (s *source) Values() ([]any, error) { return s.vals, nil }

func (s *source) Err() error {
	if s.err != nil {
		return s.err
	}
	return s.rows.Err()
}

// convert turns a value SQLite returned into one for a PostgreSQL column of
// type typ. The schemas differ only where SQLite has no type: a flag is an
// integer 0 or 1 in SQLite and a boolean in PostgreSQL.
func convert(v any, typ string) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []byte:
		if typ != "bytea" {
			return string(x), nil
		}
	case int64:
		switch typ {
		case "boolean":
			if x != 0 && x != 1 {
				return nil, fmt.Errorf("%d is not a flag (0 or 1)", x)
			}
			return x == 1, nil
		case "double precision", "real":
			return float64(x), nil
		}
	}
	return v, nil
}

// setSequences sets every sequence of the target past the copied IDs, so
// that the next game gets the next free ID.
func (c *copier) setSequences(ctx context.Context) error {
	rows, err := c.dst.QueryContext(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`)
	if err != nil {
		return fmt.Errorf("list sequences: %w", err)
	}
	var seqs [][2]string
	for rows.Next() {
		var s [2]string
		if err := rows.Scan(&s[0], &s[1]); err != nil {
			rows.Close()
			return err
		}
		seqs = append(seqs, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, s := range seqs {
		// The sequence's last value is the highest ID, as if it had handed
		// it out; an empty table leaves the sequence new.
		_, err := c.dst.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), max(`+pgx.Identifier{s[1]}.Sanitize()+`))
			FROM `+pgx.Identifier{s[0]}.Sanitize()+` HAVING max(`+pgx.Identifier{s[1]}.Sanitize()+`) IS NOT NULL`, pgx.Identifier{s[0]}.Sanitize(), s[1])
		if err != nil {
			return fmt.Errorf("set the sequence of %s.%s: %w", s[0], s[1], err)
		}
	}
	return nil
}

// strs runs query and returns its one text column.
func strs(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
