package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/tttbot/tttbot"
)

// testPlaySeen: a move on a game seen has the outcome it has without,
// whether the game and its guild's settings are as seen or have changed
// since.
func testPlaySeen(t *testing.T, newDB Opener) {
	ctx := t.Context()

	t.Run("same as without", func(t *testing.T) {
		db := newDB(t, Options{})
		a := StartGame(t, db, "c1", "alice", "bob")
		b := StartGame(t, db, "c2", "carol", "dave")
		// The first move of each: a locking path may learn the guild's
		// settings; the later ones may take the store's shorter one.
		for _, cell := range []int{0, 4, 1, 8, 2} {
			a = Must[*tttbot.Game](t)(db.Play(ctx, Click(a, a.Turn, cell), a))
			b = Must[*tttbot.Game](t)(db.Play(ctx, Click(b, b.Turn, cell), nil))
			want := withoutPlayers(*b)
			want.ID = a.ID
			if diff := cmp.Diff(want, withoutPlayers(*a)); diff != "" {
				t.Fatalf("after cell %d, the game played as seen differs (-without +with):\n%s", cell, diff)
			}
			stored := Must[*tttbot.Game](t)(db.Game(ctx, a.ID))
			if diff := cmp.Diff(a, stored); diff != "" {
				t.Fatalf("after cell %d, stored game differs from the one returned (-returned +stored):\n%s", cell, diff)
			}
		}
		if a.Status != tttbot.StatusFinished || a.Winner != "alice" {
			t.Errorf("got %s won by %q, want finished, won by alice", a.Status, a.Winner)
		}
		if got := results(t, db, a.ID); len(got) != 2 {
			t.Errorf("got %d results of the game played as seen, want 2", len(got))
		}
		moves := Must[[]tttbot.Move](t)(db.Moves(ctx, a.ID))
		if len(moves) != 5 {
			t.Errorf("got %d moves, want 5", len(moves))
		}
	})

	t.Run("game moved on", func(t *testing.T) {
		db := newDB(t, Options{})
		g := StartGame(t, db, "c1", "alice", "bob")
		g = PlayCells(t, db, g, 4) // a locking path first
		old := g
		PlayCells(t, db, g, 0)
		// The game seen and the click's version agree, and are one move
		// behind: refused as without.
		for _, player := range []string{"alice", "bob"} {
			_, with := db.Play(ctx, Click(old, player, 1), old)
			_, without := db.Play(ctx, Click(old, player, 1), nil)
			if with == nil || tttbot.ErrorCode(with) != tttbot.ErrorCode(without) {
				t.Errorf("%s's click on the old board: got %v with the game seen, %v without", player, with, without)
			}
		}
		// Resigned since: no move lands on a finished game.
		cur := Must[*tttbot.Game](t)(db.Game(ctx, g.ID))
		Must[*tttbot.Game](t)(db.Resign(ctx, g.ID, "alice", t0.Add(time.Second), nil))
		_, err := db.Play(ctx, Click(cur, cur.Turn, 8), cur)
		WantCode(t, err, tttbot.EFINISHED)
		if moves := Must[[]tttbot.Move](t)(db.Moves(ctx, g.ID)); len(moves) != 2 {
			t.Errorf("got %d moves, want 2", len(moves))
		}
		// The game seen behind the click's version.
		h := StartGame(t, db, "c2", "carol", "dave")
		h2 := PlayCells(t, db, h, 4)
		m := Click(h, "dave", 0)
		m.Version = h2.Version
		got := Must[*tttbot.Game](t)(db.Play(ctx, m, h))
		if got.Version != h2.Version+1 || got.Board == h2.Board {
			t.Errorf("got version %d board %s, want %d and dave's move on %s", got.Version, got.Board, h2.Version+1, h2.Board)
		}
	})

	t.Run("refused as without", func(t *testing.T) {
		db := newDB(t, Options{})
		g := PlayCells(t, db, StartGame(t, db, "c1", "alice", "bob"), 4)
		_, err := db.Play(ctx, Click(g, "alice", 0), g)
		WantCode(t, err, tttbot.ENOTYOURTURN)
		_, err = db.Play(ctx, Click(g, "bob", 4), g)
		WantCode(t, err, tttbot.EINVALID)
		if got := Must[*tttbot.Game](t)(db.Game(ctx, g.ID)); got.Version != g.Version {
			t.Errorf("got version %d after refusals, want %d", got.Version, g.Version)
		}
	})

	t.Run("turn timeout changed", func(t *testing.T) {
		db := newDB(t, Options{})
		const guild = "902" // a guild of settings: a snowflake
		g := Challenge("c1", "alice", "bob")
		g.GuildID = guild
		OK(t, db.StartGame(ctx, g, nil))
		g = Must[*tttbot.Game](t)(db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: g.Version, XPlayer: "alice", At: t0, Deadline: t0.Add(2 * time.Minute)}))
		g = PlayCells(t, db, g, 4)
		g = Must[*tttbot.Game](t)(db.Play(ctx, Click(g, "bob", 0), g))
		if want := t0.Add(3 * time.Minute); !g.Deadline.Equal(want) {
			t.Fatalf("deadline %s, want the move's own %s", g.Deadline, want)
		}
		Must[*tttbot.Settings](t)(db.UpdateSettings(ctx, guild, func(s *tttbot.Settings) error {
			s.TurnTimeout = time.Hour
			return nil
		}))
		m := Click(g, "alice", 8)
		g = Must[*tttbot.Game](t)(db.Play(ctx, m, g))
		if want := m.At.Add(time.Hour); !g.Deadline.Equal(want) {
			t.Errorf("deadline %s after the guild set an hour, want %s", g.Deadline, want)
		}
		if got := Must[*tttbot.Game](t)(db.Game(ctx, g.ID)); !got.Deadline.Equal(g.Deadline) {
			t.Errorf("stored deadline %s, want %s", got.Deadline, g.Deadline)
		}
	})

	t.Run("replay", func(t *testing.T) {
		db := newDB(t, Options{})
		g := PlayCells(t, db, StartGame(t, db, "c1", "alice", "bob"), 4, 0)
		first := in(ctx, "7001")
		g2 := Must[*tttbot.Game](t)(db.Play(first, Click(g, "alice", 8), g))
		if !tttbot.InteractionFrom(first).Recorded() {
			t.Error("got the interaction unrecorded after its move")
		}
		// Sent again against the game as it is now, and as it was.
		for _, s := range []*tttbot.Game{g2, g} {
			_, err := db.Play(in(ctx, "7001"), Click(s, s.Turn, 2), s)
			WantCode(t, err, tttbot.EREPLAY)
		}
		if got := Must[*tttbot.Game](t)(db.Game(ctx, g.ID)); got.Version != g2.Version {
			t.Errorf("got version %d after the replays, want %d", got.Version, g2.Version)
		}
	})

	t.Run("message and token set since read", func(t *testing.T) {
		db := newDB(t, Options{})
		g := PlayCells(t, db, StartGame(t, db, "c1", "alice", "bob"), 4)
		// Neither changes the version: the game as read is still current.
		OK(t, db.SetMessage(ctx, g.ID, "m1"))
		tok := tttbot.Token{Value: "tok", Expires: t0.Add(15 * time.Minute)}
		OK(t, db.SetToken(ctx, g.ID, tok))
		got := Must[*tttbot.Game](t)(db.Play(ctx, Click(g, "bob", 0), g))
		if got.MessageID != "m1" || got.Token.Value != tok.Value || !got.Token.Expires.Equal(tok.Expires) {
			t.Errorf("got message %q, token %+v; want m1 and %+v", got.MessageID, got.Token, tok)
		}
		stored := Must[*tttbot.Game](t)(db.Game(ctx, g.ID))
		if diff := cmp.Diff(stored, got); diff != "" {
			t.Errorf("returned game differs from the stored one (-stored +returned):\n%s", diff)
		}
	})

	t.Run("what a click tells of its board", func(t *testing.T) {
		db := newDB(t, Options{})
		// A move, seen or read under the lock, and an accept record the
		// board's message and, on a webhook's board, the click's token;
		// none replaces the message the game holds, or a token expiring
		// later.
		tok := func(v string, life time.Duration) tttbot.Token {
			return tttbot.Token{Value: v, Expires: t0.Add(life)}
		}
		webhook := func(channel string) *tttbot.Game {
			g := Challenge(channel, "alice", "bob")
			g.Webhook, g.Token = true, tok("posted", 15*time.Minute)
			OK(t, db.StartGame(ctx, g, nil))
			return g
		}
		// check compares g, as a call returned it, with the game stored.
		check := func(name string, g *tttbot.Game, msg, token string) {
			t.Helper()
			stored := Must[*tttbot.Game](t)(db.Game(ctx, g.ID))
			if g.MessageID != msg || stored.MessageID != msg || g.Token.Value != token || stored.Token.Value != token {
				t.Errorf("%s: got message %q, token %q, stored %q, %q; want %q, %q", name,
					g.MessageID, g.Token.Value, stored.MessageID, stored.Token.Value, msg, token)
			}
			if !g.Token.Expires.Equal(stored.Token.Expires) {
				t.Errorf("%s: got the token expiring %s, stored %s", name, g.Token.Expires, stored.Token.Expires)
			}
		}
		click := func(g *tttbot.Game, player string, cell int, msg string, tk tttbot.Token, seen *tttbot.Game) *tttbot.Game {
			m := Click(g, player, cell)
			m.Click = tttbot.BoardClick{Message: msg, Token: tk}
			return Must[*tttbot.Game](t)(db.Play(ctx, m, seen))
		}
		c := webhook("c1")
		check("accepted", Must[*tttbot.Game](t)(db.Accept(ctx, tttbot.AcceptRequest{GameID: c.ID, Player: "bob", Version: c.Version, XPlayer: "alice",
			At: t0, Deadline: t0.Add(time.Minute), Click: tttbot.BoardClick{Message: "m1", Token: tok("accept", 16*time.Minute)}})), "m1", "accept")
		g := StartGame(t, db, "c2", "carol", "dave")
		seen := click(g, "carol", 4, "m2", tok("guild", 16*time.Minute), g)
		check("moved, seen", seen, "m2", "")
		check("moved again", click(seen, "dave", 0, "other", tok("guild", 17*time.Minute), withoutMessage(seen)), "m2", "")
		h := StartGame(t, db, "c3", "erin", "frank")
		check("moved, locked", click(h, "erin", 4, "m3", tok("guild", 16*time.Minute), nil), "m3", "")
		w := webhook("c4")
		w = Must[*tttbot.Game](t)(db.Accept(ctx, tttbot.AcceptRequest{GameID: w.ID, Player: "bob", Version: w.Version, XPlayer: "alice", At: t0, Deadline: t0.Add(time.Minute)}))
		w = click(w, "alice", 4, "m4", tok("move", 17*time.Minute), w)
		check("a webhook's move", w, "m4", "move")
		OK(t, db.SetToken(ctx, w.ID, tok("refresh", time.Hour)))
		check("a webhook's move, a later token stored", click(w, "bob", 0, "m4", tok("late", 18*time.Minute), w), "m4", "refresh")
	})

	t.Run("with the bot's answer", func(t *testing.T) {
		db := newDB(t, Options{})
		g := &tttbot.Game{GuildID: "guild", ChannelID: "c1", Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bot",
			BotLevel: "easy", XPlayer: "alice", OPlayer: "bot", Status: tttbot.StatusActive, Turn: "alice", Deadline: t0.Add(time.Minute)}
		OK(t, db.StartGame(ctx, g, nil))
		g = PlayCells(t, db, g, 4, 0)
		m := Click(g, "alice", 8)
		m.Answer = &tttbot.MoveRequest{GameID: g.ID, Player: "bot", Cell: 2, Version: g.Version + 1, At: m.At, Deadline: m.At.Add(time.Minute)}
		got := Must[*tttbot.Game](t)(db.Play(ctx, m, g))
		if got.Version != g.Version+2 || got.Turn != "alice" {
			t.Errorf("got version %d, %s to move; want %d, alice", got.Version, got.Turn, g.Version+2)
		}
		moves := Must[[]tttbot.Move](t)(db.Moves(ctx, g.ID))
		want := []int{4, 0, 8, 2}
		if cells := cellsOf(moves); !cmp.Equal(cells, want, cmpopts.EquateEmpty()) {
			t.Errorf("got cells %v, want %v", cells, want)
		}
	})
}

// testPlayPrepared: a move not completed for the game's version is
// completed in its transaction for the game as stored there — on the
// locking path whether a game was seen or not —, and one completed for
// the version seen is played as it stands; a refusal writes nothing.
func testPlayPrepared(t *testing.T, newDB Opener) {
	ctx := t.Context()
	refused := &tttbot.Error{Code: tttbot.EINVALID, Message: "not from here"}
	for _, tt := range []struct {
		name      string
		seen      string // "": none; "stale": a version before; "current"
		err       error  // Prepare's
		wantCalls int
		wantCells []int
		wantErr   error
	}{
		{"not seen", "", nil, 1, []int{4, 0, 8, 2}, nil},
		{"seen at an older version", "stale", nil, 1, []int{4, 0, 8, 2}, nil},
		{"completed for the version seen", "current", nil, 0, []int{4, 0, 8, 5}, nil},
		{"refused", "", refused, 1, []int{4, 0}, refused},
		{"refused, seen at an older version", "stale", refused, 1, []int{4, 0}, refused},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t, Options{})
			g := StartGame(t, db, "c1", "alice", "bob")
			old := PlayCells(t, db, g, 4)
			g = PlayCells(t, db, old, 0)
			m := Click(g, "alice", 8)
			var seen *tttbot.Game
			switch tt.seen {
			case "stale":
				seen, m.Prepared = old, old.Version
			case "current":
				// Completed by the caller for the game seen: bob answers 5.
				seen, m.Prepared = g, g.Version
				m.Answer = &tttbot.MoveRequest{GameID: g.ID, Player: "bob", Cell: 5, Version: g.Version + 1, At: m.At, Deadline: m.At.Add(time.Minute)}
			}
			calls := 0
			m.Prepare = func(m *tttbot.MoveRequest, got *tttbot.Game) error {
				calls++
				if got.Version != g.Version || got.Board != g.Board {
					t.Errorf("prepared for version %d %q, want the stored %d %q", got.Version, got.Board, g.Version, g.Board)
				}
				if tt.err != nil {
					return tt.err
				}
				// bob answers 2 on the board as stored, alice's turn then
				// due at a time finer than the store keeps.
				m.Answer = &tttbot.MoveRequest{GameID: got.ID, Player: "bob", Cell: 2, Version: got.Version + 1, At: m.At, Deadline: m.At.Add(time.Minute + 500*time.Microsecond)}
				return nil
			}
			played, err := db.Play(ctx, m, seen)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("got %v, want %v", err, tt.wantErr)
			}
			if stored := Must[*tttbot.Game](t)(db.Game(ctx, g.ID)); err == nil && !played.Deadline.Equal(stored.Deadline) {
				t.Errorf("got deadline %v, stored %v", played.Deadline, stored.Deadline)
			}
			if calls != tt.wantCalls {
				t.Errorf("Prepare called %d times, want %d", calls, tt.wantCalls)
			}
			if cells := cellsOf(Must[[]tttbot.Move](t)(db.Moves(ctx, g.ID))); !cmp.Equal(cells, tt.wantCells) {
				t.Errorf("got cells %v, want %v", cells, tt.wantCells)
			}
		})
	}
}

// testAnswerChecked checks the caller's own refusal of an answer to a
// challenge and of a resignation, run on the game as the transaction reads
// it: a refusal writes nothing, not even the interaction's record; else
// an accept completed there (AcceptRequest.Prepare) starts the game as
// completed.
func testAnswerChecked(t *testing.T, newDB Opener) {
	refused := &tttbot.Error{Code: tttbot.EINVALID, Message: "not from here"}
	at := t0.Add(time.Second)
	for _, tt := range []struct {
		name    string
		started bool
		answer  func(ctx context.Context, db tttbot.GameStore, g *tttbot.Game, check tttbot.Check) (*tttbot.Game, error)
	}{
		{"accept", false, func(ctx context.Context, db tttbot.GameStore, g *tttbot.Game, check tttbot.Check) (*tttbot.Game, error) {
			return db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: g.Version, At: at,
				Prepare: func(r *tttbot.AcceptRequest, g *tttbot.Game) error {
					if err := check(g); err != nil {
						return err
					}
					// A deadline finer than the store keeps.
					r.XPlayer, r.Deadline = "bob", r.At.Add(time.Minute+500*time.Microsecond)
					return nil
				}})
		}},
		{"decline", false, func(ctx context.Context, db tttbot.GameStore, g *tttbot.Game, check tttbot.Check) (*tttbot.Game, error) {
			return db.Decline(ctx, g.ID, "bob", g.Version, at, check)
		}},
		{"resign", true, func(ctx context.Context, db tttbot.GameStore, g *tttbot.Game, check tttbot.Check) (*tttbot.Game, error) {
			return db.Resign(ctx, g.ID, "bob", at, check)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t, Options{})
			var g *tttbot.Game
			if tt.started {
				g = StartGame(t, db, "c1", "alice", "bob")
			} else {
				g = Challenge("c1", "alice", "bob")
				OK(t, db.StartGame(t.Context(), g, nil))
			}
			var checked []int
			check := func(got *tttbot.Game) error {
				checked = append(checked, got.Version)
				return refused
			}
			// The check comes first: here before the refusal of an
			// outdated version, for the answers that name one.
			outdated := *g
			outdated.Version += 5
			if _, err := tt.answer(in(t.Context(), "9001"), db, &outdated, check); !errors.Is(err, refused) {
				t.Fatalf("got %v, want the check's refusal", err)
			}
			if stored := Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID)); stored.Version != g.Version || stored.Status != g.Status {
				t.Errorf("after the refusal: got version %d %s stored, want %d %s", stored.Version, stored.Status, g.Version, g.Status)
			}
			got, err := tt.answer(in(t.Context(), "9001"), db, g, func(*tttbot.Game) error { return nil })
			if err != nil {
				t.Fatalf("the same interaction, not refused: %v", err)
			}
			if !cmp.Equal(checked, []int{g.Version}) || got.Version != g.Version+1 {
				t.Errorf("checked versions %v, then stored version %d; want [%d], %d", checked, got.Version, g.Version, g.Version+1)
			}
			stored := Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID))
			if tt.name == "accept" && (got.XPlayer != "bob" || got.Turn != "bob" || !got.Deadline.Equal(stored.Deadline) || !got.Deadline.Equal(at.Add(time.Minute))) {
				t.Errorf("accepted: X %s, turn %s until %v, stored %v; want bob, bob until %v", got.XPlayer, got.Turn, got.Deadline, stored.Deadline, at.Add(time.Minute))
			}
		})
	}
}

// withoutPlayers is g with its channel and players blanked, for comparing
// the same play by other players in another channel.
func withoutPlayers(g tttbot.Game) *tttbot.Game {
	g.ChannelID, g.Challenger, g.Opponent, g.XPlayer, g.OPlayer, g.Turn, g.Winner = "", "", "", "", "", "", ""
	return &g
}

func cellsOf(moves []tttbot.Move) []int {
	var out []int
	for _, m := range moves {
		out = append(out, m.Cell)
	}
	return out
}

// withoutMessage is g as a caller that never learnt its message saw it.
func withoutMessage(g *tttbot.Game) *tttbot.Game {
	c := *g
	c.MessageID = ""
	return &c
}
