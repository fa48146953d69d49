package migratedata

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/internal/puzzle"
	"github.com/tttbot/tttbot/internal/sqlite"
)

var t0 = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

const botID = "900"

// newSource makes a SQLite database through the store, with a row in every
// table: finished and open games between people and against the bot, a
// pending challenge, a guild's setting, ratings ranked on a leaderboard,
// puzzles with a player's attempts, and recorded interactions. It returns its path and the ID of an active
// game with X to move.
func newSource(t *testing.T) (string, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tttbot.db")
	db, err := sqlite.Open(t.Context(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := t.Context()
	n := 0
	// Each change carries an interaction, as the bot's do.
	in := func() context.Context {
		n++
		return tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: strconv.Itoa(1_000_000 + n)})
	}
	if _, err := db.UpdateSettings(in(), "101", func(s *tttbot.Settings) error { s.Simultaneous = new(true); return nil }); err != nil {
		t.Fatal(err)
	}
	start := func(channel, a, b string) *tttbot.Game {
		g := &tttbot.Game{GuildID: "101", ChannelID: channel, Rows: 3, Cols: 3, K: 3, Challenger: a, Opponent: b,
			Status: tttbot.StatusPending, Deadline: t0.Add(time.Minute)}
		if err := db.StartGame(in(), g, nil, tttbot.Player{ID: a, Name: "player " + a}, tttbot.Player{ID: b, Name: "player " + b}); err != nil {
			t.Fatal(err)
		}
		g, err := db.Accept(in(), tttbot.AcceptRequest{GameID: g.ID, Player: b, Version: g.Version, XPlayer: a, At: t0, Deadline: t0.Add(2 * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SetMessage(ctx, g.ID, strconv.FormatInt(5000+g.ID, 10)); err != nil {
			t.Fatal(err)
		}
		return g
	}
	play := func(g *tttbot.Game, cells ...int) *tttbot.Game {
		for _, c := range cells {
			var err error
			g, err = db.Play(in(), tttbot.MoveRequest{GameID: g.ID, Player: g.Turn, Cell: c, Version: g.Version,
				At: t0.Add(time.Second), Deadline: t0.Add(3 * time.Minute)}, nil)
			if err != nil {
				t.Fatalf("game %d: play %d: %v", g.ID, c, err)
			}
		}
		return g
	}
	// Six rated games put alice and bob on the leaderboard.
	for i := range 6 {
		g := start("c1", "alice", "bob")
		if i%2 == 0 {
			play(g, 0, 3, 1, 4, 2) // X wins on the top row
		} else {
			play(g, 4, 0, 8, 2, 1, 7, 6, 5, 3) // a draw
		}
	}
	g := start("c2", "carol", "dave")
	if _, err := db.Resign(in(), g.ID, "dave", t0.Add(time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	vsBot := &tttbot.Game{GuildID: "101", ChannelID: "c3", Rows: 4, Cols: 4, K: 3, Challenger: "erin", Opponent: botID,
		BotLevel: "perfect", XPlayer: "erin", OPlayer: botID, Turn: "erin", Status: tttbot.StatusActive, Deadline: t0.Add(time.Minute)}
	if err := db.StartGame(in(), vsBot, nil, tttbot.Player{ID: "erin", Name: "Erin"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Resign(in(), vsBot.ID, "erin", t0.Add(time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	pending := &tttbot.Game{ChannelID: "dm", Rows: 5, Cols: 5, K: 4, Challenger: "frank", Opponent: "gina",
		Status: tttbot.StatusPending, Deadline: t0.Add(time.Minute)}
	if err := db.StartGame(in(), pending, nil); err != nil {
		t.Fatal(err)
	}
	active := play(start("c4", "alice", "carol"), 4, 0)
	// Puzzles, and alice's rated attempt and replay.
	ps, err := puzzle.Starter()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddPuzzles(ctx, ps[:3], t0); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		a := tttbot.PuzzleAttempt{Player: "alice", PuzzleID: ps[0].ID, Solved: i == 0, Plies: 3, Took: time.Second, At: t0.Add(time.Duration(i) * time.Minute)}
		if _, _, err := db.AttemptPuzzle(in(), a, tttbot.Player{}); err != nil {
			t.Fatal(err)
		}
	}
	// A tournament under way: its entrants and a board played by the
	// active game.
	tr := &tttbot.Tournament{GuildID: "g1", ChannelID: "c9", Organiser: "alice", Name: "Cup", Format: tttbot.Swiss,
		Shape: tttbot.Shape{Rows: 3, Cols: 3, K: 3}, Rounds: 1, RoundTime: time.Hour, MoveTimeout: time.Minute,
		Status: tttbot.TournamentSignup, Deadline: t0.Add(time.Hour)}
	if err := db.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"alice", "carol"} {
		if err := db.Enter(ctx, tr.ID, tttbot.Entrant{Player: p, Rating: 1500, JoinedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	tr.Status, tr.Round = tttbot.TournamentRunning, 1
	if err := db.Advance(ctx, tr, []tttbot.TournamentGame{{Round: 1, Board: 1, White: "alice", Black: "carol"}}); err != nil {
		t.Fatal(err)
	}
	if err := db.LinkGame(ctx, tr.ID, 1, 1, active.ID); err != nil {
		t.Fatal(err)
	}
	// A daily post and a member's solve of it.
	if err := db.DailyPosted(ctx, tttbot.DailyPost{GuildID: "g1", Channel: "c9", Day: t0}, ps[0].ID, "m9"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.DailySolved(ctx, "g1", ps[0].ID, t0, tttbot.DailySolve{Player: "carol", Took: time.Minute}); err != nil {
		t.Fatal(err)
	}
	return path, active.ID
}

// counts returns the rows of each table of the SQLite database at path.
func counts(t *testing.T, path string) map[string]int64 {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := map[string]int64{}
	for _, tb := range tables {
		var n int64
		if err := db.QueryRow(`SELECT count(*) FROM "` + tb.name + `"`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[tb.name] = n
	}
	return out
}

// sqliteTables lists the tables of a new SQLite database, and the tables
// each refers to.
func sqliteTables(t *testing.T) map[string][]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "schema.db")
	if _, err := sqlite.MigrateUp(t.Context(), path); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT m.name, ifnull(f."table", '') FROM sqlite_schema m
		LEFT JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var name, parent string
		if err := rows.Scan(&name, &parent); err != nil {
			t.Fatal(err)
		}
		if internal(name) {
			continue
		}
		out[name] = out[name]
		if parent != "" && parent != name {
			out[name] = append(out[name], parent)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The copy's table list names every table of the SQLite schema, parents
// before the tables that refer to them, and every table of PostgreSQL's.
func TestTablesComplete(t *testing.T) {
	schema := sqliteTables(t)
	var listed []string
	for _, tb := range tables {
		listed = append(listed, tb.name)
	}
	if diff := cmp.Diff(slices.Sorted(func(yield func(string) bool) {
		for n := range schema {
			if !yield(n) {
				return
			}
		}
	}), slices.Sorted(slices.Values(listed))); diff != "" {
		t.Errorf("SQLite's tables (-) against the copy's list (+):\n%s", diff)
	}
	for i, name := range listed {
		for _, parent := range schema[name] {
			if j := slices.Index(listed, parent); j > i {
				t.Errorf("%s refers to %s, listed after it", name, parent)
			}
		}
	}

	url := pgtest.URL(t)
	if _, err := postgres.MigrateUp(t.Context(), url); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var pg []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		if !internal(n) {
			pg = append(pg, n)
		}
	}
	if diff := cmp.Diff(pg, slices.Sorted(slices.Values(listed))); diff != "" {
		t.Errorf("PostgreSQL's tables (-) against the copy's list (+):\n%s", diff)
	}
}

// A copy holds what the source held, passes the check, keeps the IDs so
// that a copied game plays on, and sets the sequences past them.
func TestCopy(t *testing.T) {
	// A bot's URL, with the pool's parameters.
	url := pgtest.URL(t) + "&pool_max_conns=4"
	from, active := newSource(t)
	want := counts(t, from)

	var calls []string
	res, err := Copy(t.Context(), from, url, Options{Progress: func(table string, done, total int64) {
		if done == total {
			calls = append(calls, fmt.Sprintf("%s %d", table, total))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Counts {
		// SQLite keeps a leaderboard band whose count fell to 0: a derived
		// table need only have rows.
		if !c.Derived && c.Rows != want[c.Table] || c.Rows == 0 {
			t.Errorf("%s: got %d rows, want %d and more than none", c.Table, c.Rows, want[c.Table])
		}
		if c.Derived != (c.Table == "rating_counts") {
			t.Errorf("%s: got derived %v", c.Table, c.Derived)
		}
		if !c.Derived && !slices.Contains(calls, fmt.Sprintf("%s %d", c.Table, c.Rows)) {
			t.Errorf("%s: no progress call with %d of %d rows, got %q", c.Table, c.Rows, c.Rows, calls)
		}
	}
	if len(res.Counts) != len(tables) {
		t.Errorf("got counts of %d tables, want %d", len(res.Counts), len(tables))
	}

	problems, err := postgres.Check(t.Context(), url, nil)
	if err != nil || len(problems) > 0 {
		t.Errorf("check the copy: %v %v", problems, err)
	}

	src, err := sqlite.Open(t.Context(), from, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := postgres.Open(t.Context(), url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	for id := int64(1); id <= active; id++ {
		a, err := src.Game(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		b, err := dst.Game(t.Context(), id)
		if err != nil {
			t.Fatalf("game %d: %v", id, err)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("game %d in SQLite (-) and PostgreSQL (+):\n%s", id, diff)
		}
	}
	for _, player := range []string{"alice", "erin"} {
		a, err := src.Stats(t.Context(), "101", player)
		if err != nil {
			t.Fatal(err)
		}
		b, err := dst.Stats(t.Context(), "101", player)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("%s's stats in SQLite (-) and PostgreSQL (+):\n%s", player, diff)
		}
	}

	// The copied game's buttons carry its ID and version: a click plays on.
	g, err := dst.Game(t.Context(), active)
	if err != nil {
		t.Fatal(err)
	}
	g, err = dst.Play(t.Context(), tttbot.MoveRequest{GameID: active, Player: g.Turn, Cell: 8, Version: g.Version, At: t0.Add(time.Minute), Deadline: t0.Add(time.Hour)}, nil)
	if err != nil {
		t.Fatalf("play on the copied game: %v", err)
	}
	if g.Board != "O../.X./..X" {
		t.Errorf("got board %q after the move, want %q", g.Board, "O../.X./..X")
	}
	// The next game takes the next ID.
	next := &tttbot.Game{GuildID: "101", ChannelID: "c9", Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bob",
		Status: tttbot.StatusPending, Deadline: t0.Add(time.Minute)}
	if err := dst.StartGame(t.Context(), next, nil); err != nil {
		t.Fatalf("create a game after the copy: %v", err)
	}
	if next.ID != active+1 {
		t.Errorf("got new game ID %d, want %d", next.ID, active+1)
	}
	// A replay of an interaction the SQLite bot handled is refused.
	ctx := tttbot.WithInteraction(t.Context(), &tttbot.Interaction{ID: "1000001"})
	if err := dst.Remember(ctx); tttbot.ErrorCode(err) != tttbot.EREPLAY {
		t.Errorf("remember a copied interaction: got %v, want EREPLAY", err)
	}
}

// A target with data is refused, and left as it was.
func TestCopyRefusesNonEmptyTarget(t *testing.T) {
	url := pgtest.URL(t)
	from, _ := newSource(t)
	if _, err := Copy(t.Context(), from, url, Options{}); err != nil {
		t.Fatal(err)
	}
	before, err := postgres.Check(t.Context(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Copy(t.Context(), from, url, Options{})
	if !errors.Is(err, ErrNotEmpty) || !strings.Contains(err.Error(), "games") {
		t.Fatalf("second copy: got %v, want ErrNotEmpty naming games", err)
	}
	after, err := postgres.Check(t.Context(), url, nil)
	if err != nil || len(after) != len(before) {
		t.Errorf("check after the refusal: %v %v", after, err)
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var games int64
	if err := db.QueryRow("SELECT count(*) FROM games").Scan(&games); err != nil {
		t.Fatal(err)
	}
	if want := counts(t, from)["games"]; games != want {
		t.Errorf("got %d games after the refused copy, want %d", games, want)
	}
}

// A source that is not a tttbot database at this binary's version, or not
// there at all, is refused before the target is touched.
func TestCopyRefusesSource(t *testing.T) {
	url := pgtest.URL(t)
	dir := t.TempDir()
	behind := filepath.Join(dir, "behind.db")
	if _, err := sqlite.MigrateUp(t.Context(), behind); err != nil {
		t.Fatal(err)
	}
	if _, err := sqlite.MigrateDown(t.Context(), behind); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "plain.db")
	if db, err := sql.Open("sqlite3", plain); err != nil {
		t.Fatal(err)
	} else if _, err := db.Exec("CREATE TABLE notes (body TEXT)"); err != nil {
		t.Fatal(err)
	} else {
		db.Close()
	}
	tests := []struct {
		name, from, want string
	}{
		{"missing", filepath.Join(dir, "missing.db"), "no such file"},
		{"not tttbot's", plain, "not a tttbot database"},
		{"behind", behind, "run 'bot migrate up' on it first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Copy(t.Context(), tt.from, url, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error saying %q", err, tt.want)
			}
		})
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables int
	if err := db.QueryRow("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()").Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Errorf("got %d tables in the target after refusals, want none", tables)
	}
}

// A source whose copy fails the consistency check, here a game whose board
// its moves do not make, is not copied at all.
func TestCopyFailingCheck(t *testing.T) {
	url := pgtest.URL(t)
	from, active := newSource(t)
	db, err := sql.Open("sqlite3", from)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("UPDATE games SET board = 'XX./.O./...' WHERE id = ?", active); err != nil {
		t.Fatal(err)
	}
	db.Close()

	_, err = Copy(t.Context(), from, url, Options{})
	var ce *CheckError
	if !errors.As(err, &ce) || len(ce.Problems) != 1 || ce.Problems[0].GameID != active {
		t.Fatalf("got %v, want a CheckError with one problem of game %d", err, active)
	}
	pg, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	var games int
	if err := pg.QueryRow("SELECT count(*) FROM games").Scan(&games); err != nil {
		t.Fatal(err)
	}
	if games != 0 {
		t.Errorf("got %d games in the target after the failed check, want none", games)
	}
}

func TestConvert(t *testing.T) {
	tests := []struct {
		v       any
		typ     string
		want    any
		wantErr bool
	}{
		{int64(1), "boolean", true, false},
		{int64(0), "boolean", false, false},
		{int64(2), "boolean", nil, true},
		{int64(7), "bigint", int64(7), false},
		{int64(1500), "double precision", 1500.0, false},
		{1.5, "double precision", 1.5, false},
		{[]byte("x"), "text", "x", false},
		{[]byte("x"), "bytea", []byte("x"), false},
		{"x", "text", "x", false},
		{nil, "boolean", nil, false},
	}
	for _, tt := range tests {
		got, err := convert(tt.v, tt.typ)
		if !cmp.Equal(got, tt.want) || (err != nil) != tt.wantErr {
			t.Errorf("convert(%#v, %s): got %#v, %v; want %#v, error %v", tt.v, tt.typ, got, err, tt.want, tt.wantErr)
		}
	}
}
