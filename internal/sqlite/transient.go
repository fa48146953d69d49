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

// Unavailable reports whether err, from a store call, says the database
// cannot take the bot's work for now: another process holds its lock past
// the busy timeout (see Transient), or SQLite failed to store (a full disk,
// an I/O error, a file it may not write or open). The bot counts such
// failures towards an outage (health.Database) rather than logging each.
func Unavailable(err error) bool { return Transient(err) || storageFailure(err) }
