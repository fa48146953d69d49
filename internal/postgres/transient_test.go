package postgres

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestTransient(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, tt := range []struct {
		name string
		err  error
		want bool
	}{
		{"connection refused", refused, true},
		{"connect timeout", fmt.Errorf("failed to connect: %w", context.DeadlineExceeded), true},
		{"starting up", &pgconn.PgError{Code: "57P03"}, true},
		{"too many connections", &pgconn.PgError{Code: "53300"}, true},
		{"connection failure", &pgconn.PgError{Code: "08006"}, true},
		{"name not resolved yet", &net.OpError{Op: "dial", Err: &net.DNSError{Name: "db", IsTemporary: true}}, true},
		{"no such host", &net.OpError{Op: "dial", Err: &net.DNSError{Name: "dbb", IsNotFound: true}}, false},
		{"bad password", &pgconn.PgError{Code: "28P01"}, false},
		{"no such role", &pgconn.PgError{Code: "28000"}, false},
		{"no such database", &pgconn.PgError{Code: "3D000"}, false},
		{"permission denied", &pgconn.PgError{Code: "42501"}, false},
		{"newer schema", errors.New("database schema version 9 is newer than this binary's 8"), false},
	} {
		if got := Transient(fmt.Errorf("open database: %w", tt.err)); got != tt.want {
			t.Errorf("%s: Transient(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}
