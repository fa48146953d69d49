package sqlite

import "github.com/mattn/go-sqlite3"

// Version is the version of the SQLite library built into the binary, such
// as "3.50.4".
func Version() string {
	v, _, _ := sqlite3.Version()
	return v
}
