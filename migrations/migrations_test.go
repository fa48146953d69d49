package migrations

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pressly/goose/v3"
)

// TestVersions: each dialect's migrations are versions 1 to N with none
// missing or repeated, and both dialects have the same versions under the
// same names, so that a version means the same change in either.
func TestVersions(t *testing.T) {
	for _, p := range problems(SQLite, Postgres) {
		t.Error(p)
	}
}

// TestProblems: the check of TestVersions finds each mistake it looks for.
func TestProblems(t *testing.T) {
	files := func(names ...string) fs.FS {
		m := fstest.MapFS{}
		for _, n := range names {
			m[n] = &fstest.MapFile{Data: []byte("-- +goose Up\n")}
		}
		return m
	}
	good := files("00001_games.sql", "00002_ratings.sql")
	tests := []struct {
		name             string
		sqlite, postgres fs.FS
		want             string // in a problem; "" for none
	}{
		{"the same", good, files("00001_games.sql", "00002_ratings.sql"), ""},
		{"a gap", files("00001_games.sql", "00003_claims.sql"), files("00001_games.sql", "00003_claims.sql"), "want 2"},
		{"a repeat", files("00001_games.sql", "00001_ratings.sql"), files("00001_games.sql", "00001_ratings.sql"), "want 2"},
		{"not from 1", files("00002_ratings.sql"), files("00002_ratings.sql"), "want 1"},
		{"a dialect behind", good, files("00001_games.sql"), "the dialects differ"},
		{"another name", good, files("00001_games.sql", "00002_rating.sql"), "the dialects differ"},
		{"none", files(), files(), "no migrations"},
		{"a name without a version", files("games.sql"), files("games.sql"), "games.sql"},
	}
	for _, tt := range tests {
		got := strings.Join(problems(tt.sqlite, tt.postgres), "\n")
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%s: got problems %q, want one saying %q", tt.name, got, tt.want)
		}
	}
}

// migration is one file as goose reads it: its version and what follows
// the number in its name.
type migration struct {
	version int64
	name    string
}

// problems lists what breaks the rules TestVersions states.
func problems(sqlite, postgres fs.FS) []string {
	var out []string
	read := func(dialect string, fsys fs.FS) []migration {
		paths, err := fs.Glob(fsys, "*.sql")
		if err != nil {
			out = append(out, fmt.Sprintf("%s: %v", dialect, err))
			return nil
		}
		if len(paths) == 0 {
			out = append(out, dialect+": no migrations")
		}
		var ms []migration
		for _, p := range paths {
			v, err := goose.NumericComponent(p)
			if err != nil {
				out = append(out, fmt.Sprintf("%s: %s: %v", dialect, p, err))
				continue
			}
			_, name, _ := strings.Cut(p, "_")
			ms = append(ms, migration{v, name})
		}
		slices.SortFunc(ms, func(a, b migration) int { return int(a.version - b.version) })
		for i, m := range ms {
			if want := int64(i + 1); m.version != want {
				out = append(out, fmt.Sprintf("%s: migration %d is version %d (%s), want %d", dialect, i+1, m.version, m.name, want))
			}
		}
		return ms
	}
	s, p := read("sqlite", sqlite), read("postgres", postgres)
	if !slices.Equal(s, p) {
		out = append(out, fmt.Sprintf("the dialects differ:\nsqlite   %v\npostgres %v", s, p))
	}
	return out
}
