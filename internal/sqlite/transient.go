package sqlite

import (
	"errors"

	"github.com/mattn/go-sqlite3"
)

// Transient reports whether err, from Open, may pass by itself, so that a
// caller may try again later: another process holds the database's lock
// past the busy timeout (a backup, an operator's open transaction). A file
// that cannot be opened or written, or a schema newer than the binary, is
// not: it needs an operator.
func Transient(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}
