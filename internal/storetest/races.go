package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// testRacingClicks has 50 clicks on one board at once, all against the
// version they saw: exactly one becomes a move, and the others are refused
// as stale.
func testRacingClicks(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	for round := range 3 {
		g := StartGame(t, db, fmt.Sprint("c", round), "alice", "bob")
		const clicks = 50
		errs := make([]error, clicks)
		var wg sync.WaitGroup
		for i := range clicks {
			wg.Go(func() {
				_, errs[i] = db.Play(ctx, Click(g, "alice", i%9), nil)
			})
		}
		wg.Wait()
		won := 0
		for i, err := range errs {
			switch tttbot.ErrorCode(err) {
			case "":
				won++
			case tttbot.ESTALE, tttbot.ENOTYOURTURN:
			default:
				t.Errorf("click %d: got %v, want success or a refusal as stale", i, err)
			}
		}
		moves := Must[[]tttbot.Move](t)(db.Moves(ctx, g.ID))
		after := Must[*tttbot.Game](t)(db.Game(ctx, g.ID))
		if won != 1 || len(moves) != 1 || after.Version != g.Version+1 {
			t.Errorf("round %d: %d clicks won, %d moves stored, version %d; want 1, 1, %d",
				round, won, len(moves), after.Version, g.Version+1)
		}
	}
}

// testAcceptAgainstDecline races the answers to one challenge: the
// opponent accepting and declining, the challenger withdrawing. Exactly one
// answer counts, and the game is left as that answer made it.
func testAcceptAgainstDecline(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	for round := range 20 {
		g := Challenge(fmt.Sprint("c", round), "alice", "bob")
		OK(t, db.StartGame(ctx, g, nil))
		answers := []func() (*tttbot.Game, error){
			func() (*tttbot.Game, error) {
				return db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: g.Version,
					XPlayer: "alice", At: t0, Deadline: t0.Add(time.Minute)})
			},
			func() (*tttbot.Game, error) { return db.Decline(ctx, g.ID, "bob", g.Version, t0, nil) },
			func() (*tttbot.Game, error) { return db.Decline(ctx, g.ID, "alice", g.Version, t0, nil) },
		}
		got := make([]*tttbot.Game, len(answers))
		errs := make([]error, len(answers))
		var wg sync.WaitGroup
		for i, answer := range answers {
			wg.Go(func() { got[i], errs[i] = answer() })
		}
		wg.Wait()
		var winner *tttbot.Game
		for i, err := range errs {
			switch tttbot.ErrorCode(err) {
			case "":
				if winner != nil {
					t.Fatalf("round %d: two answers counted: %s and %s", round, winner.Status, got[i].Status)
				}
				winner = got[i]
			case tttbot.ESTALE, tttbot.EFINISHED:
			default:
				t.Errorf("round %d, answer %d: got %v, want success or a refusal", round, i, err)
			}
		}
		if winner == nil {
			t.Fatalf("round %d: no answer counted", round)
		}
		stored := Must[*tttbot.Game](t)(db.Game(ctx, g.ID))
		if stored.Status != winner.Status || stored.Version != 2 {
			t.Errorf("round %d: stored %s at version %d, want %s at 2", round, stored.Status, stored.Version, winner.Status)
		}
	}
}

// testChallengesAtOnce races challenges that the room rules let only one
// of stand: two pairs in a channel that holds one game, and two players
// challenging each other where a channel holds many. Exactly one is created
// each time, and the other refused as a conflict.
func testChallengesAtOnce(t *testing.T, newDB Opener) {
	tests := []struct {
		name   string
		simul  bool
		a1, b1 string
		a2, b2 string
	}{
		{"one game a channel", false, "alice", "bob", "carol", "dave"},
		{"one game a player", true, "alice", "bob", "bob", "alice"},
		{"the opponent's game", true, "alice", "bob", "carol", "alice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t, Options{SimultaneousGames: tt.simul})
			ctx := t.Context()
			for round := range 20 {
				channel := fmt.Sprint("c", round)
				games := []*tttbot.Game{Challenge(channel, tt.a1, tt.b1), Challenge(channel, tt.a2, tt.b2)}
				errs := make([]error, len(games))
				var wg sync.WaitGroup
				for i, g := range games {
					wg.Go(func() { errs[i] = db.StartGame(ctx, g, nil) })
				}
				wg.Wait()
				created := 0
				for i, err := range errs {
					switch tttbot.ErrorCode(err) {
					case "":
						created++
					case tttbot.ECONFLICT:
					default:
						t.Errorf("round %d, challenge %d: got %v, want success or a conflict", round, i, err)
					}
				}
				if created != 1 {
					t.Fatalf("round %d: %d challenges created, want 1", round, created)
				}
			}
			if n := games(t, db); n != 20 {
				t.Errorf("got %d games stored, want 20", n)
			}
		})
	}
}

// testReplayAtOnce sends one interaction twice at once, as a replay racing
// its original to another instance: one changes the game, the other is
// refused as a replay, whichever comes first.
func testReplayAtOnce(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	for round := range 10 {
		g := StartGame(t, db, fmt.Sprint("c", round), "alice", "bob")
		id := fmt.Sprint(5000 + round)
		var errs [2]error
		var wg sync.WaitGroup
		for i, cell := range []int{0, 4} {
			wg.Go(func() { _, errs[i] = db.Play(in(ctx, id), Click(g, "alice", cell), nil) })
		}
		wg.Wait()
		codes := map[string]int{}
		for _, err := range errs {
			codes[tttbot.ErrorCode(err)]++
		}
		// The loser is refused as a replay when the winner's record
		// comes first, else as stale: either way it changes nothing.
		if codes[""] != 1 || codes[tttbot.EREPLAY]+codes[tttbot.ESTALE] != 1 {
			t.Errorf("round %d: got %v, want one success and one refusal", round, errs)
		}
		if n := len(Must[[]tttbot.Move](t)(db.Moves(ctx, g.ID))); n != 1 {
			t.Errorf("round %d: got %d moves, want 1", round, n)
		}
	}
}

// testPing: a store that takes writes says so.
func testPing(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	OK(t, db.Ping(t.Context()))
}

func testActiveGames(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	count := func() int {
		t.Helper()
		n, err := db.ActiveGames(t.Context())
		OK(t, err)
		return n
	}
	if got := count(); got != 0 {
		t.Fatalf("empty database: got %d active games, want 0", got)
	}
	OK(t, db.StartGame(t.Context(), Challenge("c1", "a", "b"), nil)) // pending: not active
	g := StartGame(t, db, "c2", "a", "b")
	StartGame(t, db, "c3", "a", "b")
	if got := count(); got != 2 {
		t.Fatalf("got %d active games, want 2", got)
	}
	Must[*tttbot.Game](t)(db.Resign(t.Context(), g.ID, "a", t0, nil))
	if got := count(); got != 1 {
		t.Errorf("after a resignation: got %d active games, want 1", got)
	}
}

// testSchemaConstraints: what matters is the schema's to keep, whatever
// code writes to it: one open exclusive game a channel, one move a ply,
// no row referring to nothing.
func testSchemaConstraints(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	g := PlayCells(t, db, StartGame(t, db, "c1", "alice", "bob"), 4)
	insertGame := `INSERT INTO games (guild_id, channel_id, board_rows, board_cols, k, challenger_id, opponent_id,
		status, board, version, created_at, updated_at, exclusive)
		VALUES ('guild', 'c1', 3, 3, 3, 'carol', 'dave', 'pending', '.../.../...', 1, 0, 0, $1)`
	OK(t, db.StartGame(ctx, Challenge("elsewhere", "carol", "dave"), nil)) // carol and dave exist
	tests := []struct {
		name  string
		query string
		args  []any
	}{
		{"a second exclusive open game in the channel", insertGame, []any{true}},
		{"a second move at a ply", "INSERT INTO moves (game_id, ply, cell, player_id, at) VALUES ($1, 1, 0, 'alice', 0)", []any{g.ID}},
		{"a second move on a cell", "INSERT INTO moves (game_id, ply, cell, player_id, at) VALUES ($1, 2, 4, 'bob', 0)", []any{g.ID}},
		{"a move of no game", "INSERT INTO moves (game_id, ply, cell, player_id, at) VALUES (999, 1, 0, 'alice', 0)", nil},
		{"a game of nobody", `INSERT INTO games (channel_id, board_rows, board_cols, k, challenger_id, opponent_id,
			status, board, version, created_at, updated_at) VALUES ('c9', 3, 3, 3, 'nobody', 'alice', 'pending', '.../.../...', 1, 0, 0)`, nil},
		{"a result of no game", `INSERT INTO results (game_id, player_id, opponent_id, outcome, reason, finished_at)
			VALUES (999, 'alice', 'bob', 'win', 'line', 0)`, nil},
	}
	for _, tt := range tests {
		if _, err := db.SQL.ExecContext(ctx, tt.query, tt.args...); err == nil {
			t.Errorf("%s: got no error, want the schema to refuse it", tt.name)
		}
	}
	// A game that is not exclusive may share the channel: a guild that
	// allows simultaneous games makes them so.
	if _, err := db.SQL.ExecContext(ctx, insertGame, nil); err != nil {
		t.Errorf("a shared open game: %v", err)
	}
}
