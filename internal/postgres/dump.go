package postgres

import (
	"fmt"
	"net/url"
	"strings"
)

// libpqParam reports whether pg_dump (libpq) takes the URL parameter
// name: it refuses others, such as pgx's pool_max_conns, and the TLS key's
// passphrase is kept off its command line.
func libpqParam(name string) bool {
	switch name {
	case "host", "hostaddr", "port", "dbname", "user",
		"connect_timeout", "options", "application_name",
		"sslmode", "sslcert", "sslkey", "sslrootcert", "sslcrl",
		"requiressl", "gssencmode", "target_session_attrs":
		return true
	}
	return false
}

// DumpCommand returns the shell command that writes a backup of the
// database at rawURL to path with pg_dump, in its custom format (restored
// with pg_restore). The command holds no password: pg_dump asks for it, or
// reads PGPASSWORD or ~/.pgpass. A search_path becomes --schema, so that a
// database kept in one schema is dumped alone.
func DumpCommand(rawURL, path string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", fmt.Errorf("backup: the database URL is not a postgres:// URL")
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	schema := q.Get("search_path")
	for k := range q {
		if !libpqParam(k) {
			q.Del(k)
		}
	}
	// libpq reads "+" as itself: a space must be %20.
	u.RawQuery = strings.ReplaceAll(q.Encode(), "+", "%20")
	args := []string{"pg_dump", "--format=custom", "--file=" + quote(path)}
	if schema != "" {
		args = append(args, "--schema="+quote(schema))
	}
	args = append(args, quote(u.String()))
	return strings.Join(args, " "), nil
}

// quote quotes s for a POSIX shell when it needs it.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
