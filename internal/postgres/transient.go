package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// connectTimeout bounds a connection attempt, unless the URL sets its own
// connect_timeout: a server that accepts connections but does not answer
// (stopped, or behind a proxy whose backend is gone) fails the attempt
// rather than holding it forever.
const connectTimeout = 10 * time.Second

// Transient reports whether err, from Open, may pass by itself, so that a
// caller may try again later: the server refused, reset or did not answer
// the connection, or is starting up, shutting down or out of connection
// slots. A malformed URL, a refused login, a database or role that does not
// exist, a host name that does not resolve, a schema newer than the binary
// are not: they need an operator.
func Transient(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "57P01", // admin_shutdown
			"57P02", // crash_shutdown
			"57P03", // cannot_connect_now: starting up, or in recovery
			"53300": // too_many_connections
			return true
		}
		return strings.HasPrefix(pe.Code, "08") // connection_exception
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return !dns.IsNotFound
	}
	var op *net.OpError
	return errors.As(err, &op) ||
		errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}
