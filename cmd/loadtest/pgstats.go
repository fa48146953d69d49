package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// statementStat is one statement's share of the measured load, from
// pg_stat_statements on the load test's own PostgreSQL (-postgres).
type statementStat struct {
	query string
	calls int64
	mean  time.Duration // execution, the server's side
}

// pgExec runs sql on the database at url.
func pgExec(ctx context.Context, url, sql string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// countStatements starts pg_stat_statements' counts afresh.
func countStatements(ctx context.Context, url string) error {
	err := pgExec(ctx, url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()")
	if err != nil {
		return fmt.Errorf("pg_stat_statements: %w", err)
	}
	return nil
}

// statementsRun lists the statements counted since countStatements, the
// most called first, with the total of their calls.
func statementsRun(ctx context.Context, url string) ([]statementStat, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("pg_stat_statements: %w", err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT query, calls, mean_exec_time FROM pg_stat_statements
		WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
		  AND query NOT LIKE '%pg_stat_statements%'
		ORDER BY calls DESC, query`)
	if err != nil {
		return nil, fmt.Errorf("pg_stat_statements: %w", err)
	}
	defer rows.Close()
	var stats []statementStat
	for rows.Next() {
		var s statementStat
		var ms float64
		if err := rows.Scan(&s.query, &s.calls, &ms); err != nil {
			return nil, fmt.Errorf("pg_stat_statements: %w", err)
		}
		s.mean = time.Duration(ms * float64(time.Millisecond))
		stats = append(stats, s)
	}
	return stats, rows.Err()
}

// printStatements writes the statements per interaction: all, then the
// top few.
func printStatements(out io.Writer, stats []statementStat, interactions int) {
	if len(stats) == 0 || interactions == 0 {
		return
	}
	var all int64
	for _, s := range stats {
		all += s.calls
	}
	fmt.Fprintf(out, "PostgreSQL statements: %.2f per interaction; the most run:\n", float64(all)/float64(interactions))
	for _, s := range stats[:min(len(stats), 8)] {
		q := strings.Join(strings.Fields(s.query), " ")
		if len(q) > 90 {
			q = q[:87] + "..."
		}
		fmt.Fprintf(out, "  %5.2f per interaction, %4dµs each  %s\n", float64(s.calls)/float64(interactions), s.mean.Microseconds(), q)
	}
}
