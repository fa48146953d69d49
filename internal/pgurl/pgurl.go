// Package pgurl keeps a PostgreSQL connection URL's secrets out of logs
// and messages, in one place for the configuration and the store.
package pgurl

import (
	"net/url"
	"slices"
)

// Redacted replaces a secret.
const Redacted = "xxxxx"

// secretParams are the libpq parameters that carry a secret: the password
// and the passphrase of the client's TLS key.
var secretParams = [...]string{"password", "sslpassword"}

// Secret reports whether the query parameter param carries a secret.
func Secret(param string) bool { return slices.Contains(secretParams[:], param) }

// Redact returns s with its password, in the user part or in a query
// parameter that carries a secret, replaced by Redacted. A string that
// does not parse as a URL, or whose query does not, becomes a placeholder:
// a key=value connection string may hold a password anywhere, and a query
// that does not parse cannot be told apart into safe and secret.
func Redact(s string) string {
	if s == "" {
		return ""
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return "(a PostgreSQL connection string)"
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return "(a PostgreSQL URL)"
	}
	changed := false
	for _, p := range secretParams {
		if q.Has(p) {
			q.Set(p, Redacted)
			changed = true
		}
	}
	if changed {
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
