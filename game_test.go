package tttbot

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/game"
)

func TestGamePosition(t *testing.T) {
	tests := []struct {
		name    string
		g       Game
		want    string // the position's notation; "" when it cannot be read
		wantErr error
	}{
		{"empty 3×3", Game{Rows: 3, Cols: 3, K: 3, Board: ".../.../..."}, ".../.../...", nil},
		{"two moves on 4×4", Game{Rows: 4, Cols: 4, K: 4, Board: "X.../..../..O./...."}, "X.../..../..O./....", nil},
		{"bad shape", Game{Rows: 9, Cols: 9, K: 3, Board: ".../.../..."}, "", game.ErrGeometry},
		{"board of another shape", Game{Rows: 4, Cols: 4, K: 4, Board: ".../.../..."}, "", game.ErrNotation},
		{"garbage", Game{Rows: 3, Cols: 3, K: 3, Board: "xyz"}, "", game.ErrNotation},
		{"illegal position", Game{Rows: 3, Cols: 3, K: 3, Board: "XX./.../..."}, "", game.ErrIllegal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := tt.g.Position()
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("got error %v, want %v", err, tt.wantErr)
			}
			if err == nil && pos.String() != tt.want {
				t.Errorf("got %q, want %q", pos.String(), tt.want)
			}
			if err == nil && pos.Geometry().K != tt.g.K {
				t.Errorf("got K %d, want %d", pos.Geometry().K, tt.g.K)
			}
		})
	}
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// pending is a 3×3 challenge of alice to bob, expiring a minute after t0.
func pending() *Game {
	return &Game{ID: 1, ChannelID: "c", Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bob",
		Status: StatusPending, Board: ".../.../...", Version: 1, Deadline: t0.Add(time.Minute)}
}

// active is pending accepted by bob, alice to move as X, with board after
// the moves so far.
func active(board string, turn string) *Game {
	g := pending()
	g.Status, g.XPlayer, g.OPlayer, g.Turn, g.Board, g.Version = StatusActive, "alice", "bob", turn, board, 2
	g.Deadline = t0.Add(5 * time.Minute)
	return g
}

func TestGameCreate(t *testing.T) {
	tests := []struct {
		name     string
		change   func(g *Game)
		want     error  // the refusal, when it matters which
		wantCode string // "" for a game created
		wantTurn string
	}{
		{"challenge", func(g *Game) {}, nil, "", ""},
		{"challenge with planned sides", func(g *Game) { g.XPlayer, g.OPlayer = "bob", "alice" }, nil, "", ""},
		{"bot game", func(g *Game) { g.Status, g.BotLevel, g.XPlayer, g.OPlayer = StatusActive, "easy", "bob", "alice" }, nil, "", "bob"},
		{"bad shape", func(g *Game) { g.K = 4 }, ErrBadShape, EINVALID, ""},
		{"no channel", func(g *Game) { g.ChannelID = "" }, nil, EINVALID, ""},
		{"yourself", func(g *Game) { g.Opponent = "alice" }, ErrSelfChallenge, EINVALID, ""},
		{"board not empty", func(g *Game) { g.Board = "X../.../..." }, nil, EINVALID, ""},
		{"has an ID", func(g *Game) { g.ID = 7 }, nil, EINVALID, ""},
		{"challenge with a turn", func(g *Game) { g.Turn = "alice" }, nil, EINVALID, ""},
		{"planned X a stranger", func(g *Game) { g.XPlayer, g.OPlayer = "carol", "alice" }, nil, EINVALID, ""},
		{"active, O moves first", func(g *Game) { g.Status, g.XPlayer, g.OPlayer, g.Turn = StatusActive, "alice", "bob", "bob" }, nil, EINVALID, ""},
		{"finished", func(g *Game) { g.Status = StatusFinished }, nil, EINVALID, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &Game{ChannelID: "c", Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bob", Status: StatusPending}
			tt.change(g)
			err := g.Create()
			if got := ErrorCode(err); got != tt.wantCode {
				t.Fatalf("got code %q (%v), want %q", got, err, tt.wantCode)
			}
			if tt.want != nil && err != tt.want {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			if err == nil && (g.Board != ".../.../..." || g.Turn != tt.wantTurn) {
				t.Errorf("got board %q turn %q, want the empty board and turn %q", g.Board, g.Turn, tt.wantTurn)
			}
		})
	}
}

func TestGameAccept(t *testing.T) {
	deadline := t0.Add(5 * time.Minute)
	tests := []struct {
		name    string
		g       *Game
		user    string
		version int
		x       string
		at      time.Time
		want    error
	}{
		{"accepted", pending(), "bob", 1, "bob", t0, nil},
		{"by the challenger", pending(), "alice", 1, "alice", t0, ErrNotForYou},
		{"by a stranger", pending(), "carol", 1, "alice", t0, ErrNotForYou},
		{"closed", active(".../.../...", "alice"), "bob", 2, "alice", t0, ErrClosed},
		{"stale", pending(), "bob", 2, "alice", t0, ErrStale},
		{"made just before the deadline", pending(), "bob", 1, "alice", t0.Add(time.Minute - time.Millisecond), nil},
		{"at the deadline", pending(), "bob", 1, "alice", t0.Add(time.Minute), ErrExpired},
		{"X a stranger", pending(), "bob", 1, "carol", t0, ErrBadX},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := *tt.g
			err := tt.g.Accept(AcceptRequest{GameID: tt.g.ID, Player: tt.user, Version: tt.version, XPlayer: tt.x, At: tt.at, Deadline: deadline})
			if err != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if err != nil {
				if *tt.g != before {
					t.Errorf("a refusal changed the game: got %+v, want %+v", *tt.g, before)
				}
				return
			}
			g := tt.g
			if g.Status != StatusActive || g.XPlayer != tt.x || g.OPlayer != g.Other(tt.x) || g.Turn != tt.x || !g.Deadline.Equal(deadline) {
				t.Errorf("got %+v, want active with %s as X to move until %v", *g, tt.x, deadline)
			}
		})
	}
}

func TestGameDecline(t *testing.T) {
	tests := []struct {
		name       string
		g          *Game
		user       string
		version    int
		want       error
		wantStatus Status
	}{
		{"declined", pending(), "bob", 1, nil, StatusDeclined},
		{"withdrawn", pending(), "alice", 1, nil, StatusCancelled},
		{"stranger", pending(), "carol", 1, ErrNotForYou, StatusPending},
		{"closed", active(".../.../...", "alice"), "bob", 2, ErrClosed, StatusActive},
		{"stale", pending(), "bob", 2, ErrStale, StatusPending},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.g.Decline(tt.user, tt.version, t0)
			if err != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if tt.g.Status != tt.wantStatus {
				t.Errorf("got status %s, want %s", tt.g.Status, tt.wantStatus)
			}
			if err == nil && (!tt.g.FinishedAt.Equal(t0) || !tt.g.Deadline.IsZero()) {
				t.Errorf("got finished %v deadline %v, want %v and none", tt.g.FinishedAt, tt.g.Deadline, t0)
			}
		})
	}
}

func TestGamePlay(t *testing.T) {
	next := t0.Add(10 * time.Minute)
	tests := []struct {
		name       string
		g          *Game
		player     string
		cell       int
		version    int
		want       error
		wantCode   string // for errors without a refusal of their own
		wantBoard  string
		wantStatus Status
		wantTurn   string
		wantWinner string
		wantReason Reason
	}{
		{"first move", active(".../.../...", "alice"), "alice", 4, 2, nil, "", ".../.X./...", StatusActive, "bob", "", ""},
		{"a line wins", active("XX./OO./...", "alice"), "alice", 2, 2, nil, "", "XXX/OO./...", StatusFinished, "", "alice", ReasonLine},
		{"O's line wins", active("XX./OO./X..", "bob"), "bob", 5, 2, nil, "", "XX./OOO/X..", StatusFinished, "", "bob", ReasonLine},
		{"full board draws", active("XOX/XOO/OX.", "alice"), "alice", 8, 2, nil, "", "XOX/XOO/OXX", StatusFinished, "", "", ReasonDraw},
		{"stranger", active(".../.../...", "alice"), "carol", 0, 2, ErrNotAPlayer, "", "", "", "", "", ""},
		{"pending", pending(), "alice", 0, 1, ErrNotStarted, "", "", "", "", "", ""},
		{"out of turn", active(".../.../...", "alice"), "bob", 0, 2, ErrNotYourTurn, "", "", "", "", "", ""},
		{"stale", active(".../.../...", "alice"), "alice", 0, 1, ErrStale, "", "", "", "", "", ""},
		{"taken", active("X../.O./...", "alice"), "alice", 4, 2, ErrCellTaken, "", "", "", "", "", ""},
		{"off the board", active(".../.../...", "alice"), "alice", 9, 2, ErrOffBoard, "", "", "", "", "", ""},
		{"negative cell", active(".../.../...", "alice"), "alice", -1, 2, ErrOffBoard, "", "", "", "", "", ""},
		{"turn against the board", active("X../.../...", "alice"), "alice", 1, 2, nil, EINTERNAL, "", "", "", "", ""},
		{"board unreadable", active("XXX/XXX/XXX", "alice"), "alice", 1, 2, nil, EINTERNAL, "", "", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := *tt.g
			mv, err := tt.g.Play(MoveRequest{GameID: 1, Player: tt.player, Cell: tt.cell, Version: tt.version, Deadline: next}, t0)
			if tt.want != nil || tt.wantCode != "" {
				if tt.want != nil && err != tt.want || tt.wantCode != "" && ErrorCode(err) != tt.wantCode {
					t.Fatalf("got %v, want %v %s", err, tt.want, tt.wantCode)
				}
				if *tt.g != before {
					t.Errorf("a refusal changed the game: got %+v, want %+v", *tt.g, before)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := tt.g
			if g.Board != tt.wantBoard || g.Status != tt.wantStatus || g.Turn != tt.wantTurn || g.Winner != tt.wantWinner || g.Reason != tt.wantReason {
				t.Errorf("got board %q status %s turn %q winner %q reason %q, want %q %s %q %q %q",
					g.Board, g.Status, g.Turn, g.Winner, g.Reason, tt.wantBoard, tt.wantStatus, tt.wantTurn, tt.wantWinner, tt.wantReason)
			}
			wantDeadline, wantFinished := next, time.Time{}
			if tt.wantStatus == StatusFinished {
				wantDeadline, wantFinished = time.Time{}, t0
			}
			if !g.Deadline.Equal(wantDeadline) || !g.FinishedAt.Equal(wantFinished) {
				t.Errorf("got deadline %v finished %v, want %v %v", g.Deadline, g.FinishedAt, wantDeadline, wantFinished)
			}
			pos, _ := before.Position()
			want := Move{GameID: 1, Ply: pos.Ply() + 1, Cell: tt.cell, Player: tt.player, At: t0}
			if mv != want {
				t.Errorf("got move %+v, want %+v", mv, want)
			}
		})
	}
}

func TestGamePlayAnswered(t *testing.T) {
	// alice (X) has 0 and 1, bob (O) has 3 and 4; alice moves, bob answers.
	tests := []struct {
		name      string
		cell      int // alice's
		answer    int // bob's, -1 for none
		version   int // the version bob's answer was chosen against
		wantBoard string
		wantPlies []int
		wantTurn  string
	}{
		{"both played", 7, 2, 3, "XXO/OO./.X.", []int{5, 6}, "alice"},
		{"no answer", 7, -1, 0, "XX./OO./.X.", []int{5}, "bob"},
		{"the first move ends the game", 2, 5, 3, "XXX/OO./...", []int{5}, ""},
		{"a refused answer leaves the first move alone", 8, 8, 3, "XX./OO./..X", []int{5}, "bob"},
		{"an answer to the wrong version is refused", 8, 5, 4, "XX./OO./..X", []int{5}, "bob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := active("XX./OO./...", "alice")
			m := MoveRequest{GameID: g.ID, Player: "alice", Cell: tt.cell, Version: g.Version, At: t0, Deadline: t0.Add(time.Minute)}
			if tt.answer >= 0 {
				m.Answer = &MoveRequest{GameID: g.ID, Player: "bob", Cell: tt.answer, Version: tt.version, At: t0.Add(time.Second), Deadline: t0.Add(time.Hour)}
			}
			moves, err := g.PlayAnswered(m)
			if err != nil {
				t.Fatalf("got %v, want no error", err)
			}
			var plies []int
			for _, mv := range moves {
				plies = append(plies, mv.Ply)
			}
			if g.Board != tt.wantBoard || g.Turn != tt.wantTurn || fmt.Sprint(plies) != fmt.Sprint(tt.wantPlies) {
				t.Errorf("got board %s turn %q plies %v, want %s %q %v", g.Board, g.Turn, plies, tt.wantBoard, tt.wantTurn, tt.wantPlies)
			}
			if want := 2 + len(moves) - 1; g.Version != want {
				t.Errorf("got version %d, want %d (the store bumps it once more)", g.Version, want)
			}
		})
	}
}

func TestGameResign(t *testing.T) {
	over := active("XXX/OO./...", "")
	over.Status, over.Winner, over.Reason = StatusFinished, "alice", ReasonLine
	tests := []struct {
		name       string
		g          *Game
		user       string
		want       error
		wantWinner string
	}{
		{"on their turn", active(".../.../...", "alice"), "alice", nil, "bob"},
		{"out of turn", active(".../.../...", "alice"), "bob", nil, "alice"},
		{"stranger", active(".../.../...", "alice"), "carol", ErrNotAPlayer, ""},
		{"pending", pending(), "alice", ErrNotStarted, ""},
		{"over", over, "bob", ErrGameOver, "alice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.g.Resign(tt.user, t0)
			if err != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if tt.g.Winner != tt.wantWinner {
				t.Errorf("got winner %q, want %q", tt.g.Winner, tt.wantWinner)
			}
			if err == nil && (tt.g.Status != StatusFinished || tt.g.Reason != ReasonResign || tt.g.Turn != "" || !tt.g.Deadline.IsZero()) {
				t.Errorf("got %+v, want finished by resignation", *tt.g)
			}
		})
	}
}

// TestGameDeadline: a move counts from when the player made it, by
// Discord's clock, however late it reaches the store: made before the
// turn's deadline, it is played even after the deadline; made at or after
// it, it is refused. The bot's turn has no time limit. Expire, meanwhile,
// waits DeadlineGrace past the deadline for a move still on its way.
func TestGameDeadline(t *testing.T) {
	deadline := t0.Add(5 * time.Minute) // active's
	vsBot := func() *Game {
		g := active("X../.../...", "bob")
		g.BotLevel = "easy"
		return g
	}
	tests := []struct {
		name    string
		g       *Game
		player  string
		made    time.Time // when the click was made
		arrived time.Time // when it reaches the store, and the timers look at the game
		want    error
	}{
		{"made and arrived before", active(".../.../...", "alice"), "alice", deadline.Add(-time.Second), deadline.Add(-time.Millisecond), nil},
		{"made before, arrived after", active(".../.../...", "alice"), "alice", deadline.Add(-time.Millisecond), deadline.Add(20 * time.Second), nil},
		{"made at the deadline", active(".../.../...", "alice"), "alice", deadline, deadline.Add(time.Second), ErrTimeUp},
		{"made after", active(".../.../...", "alice"), "alice", deadline.Add(time.Second), deadline.Add(2 * time.Second), ErrTimeUp},
		{"the bot's, late", vsBot(), "bob", deadline.Add(time.Hour), deadline.Add(time.Hour), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == nil && !tt.g.BotToMove() && tt.g.Due(tt.arrived) {
				t.Fatalf("due at %v, when a move made at %v may still arrive", tt.arrived, tt.made)
			}
			before := *tt.g
			_, err := tt.g.Play(MoveRequest{GameID: 1, Player: tt.player, Cell: 4, Version: 2, At: tt.made, Deadline: tt.made.Add(time.Minute)}, tt.made)
			if err != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if err != nil && *tt.g != before {
				t.Errorf("a refusal changed the game: got %+v, want %+v", *tt.g, before)
			}
			if err == nil && tt.g.Board == before.Board {
				t.Errorf("board %q unchanged by the move", tt.g.Board)
			}
		})
	}
}

func TestGameDue(t *testing.T) {
	deadline := t0.Add(5 * time.Minute) // active's
	tests := []struct {
		name string
		g    *Game
		at   time.Time
		want bool
	}{
		{"before the deadline", active(".../.../...", "alice"), deadline.Add(-time.Second), false},
		{"at the deadline", active(".../.../...", "alice"), deadline, false},
		{"within the grace", active(".../.../...", "alice"), deadline.Add(DeadlineGrace - time.Millisecond), false},
		{"at the end of the grace", active(".../.../...", "alice"), deadline.Add(DeadlineGrace), true},
		{"later", active(".../.../...", "alice"), deadline.Add(time.Hour), true},
		{"no deadline", func() *Game { g := pending(); g.Deadline = time.Time{}; return g }(), deadline.Add(time.Hour), false},
	}
	for _, tt := range tests {
		if got := tt.g.Due(tt.at); got != tt.want {
			t.Errorf("%s: Due(%v) = %v, want %v", tt.name, tt.at, got, tt.want)
		}
		if got := !tt.g.Deadline.IsZero() && !tt.g.Deadline.After(DueBy(tt.at)); got != tt.want {
			t.Errorf("%s: deadline %v <= DueBy(%v) = %v, want %v as Due says", tt.name, tt.g.Deadline, tt.at, got, tt.want)
		}
	}
}

func TestGameExpire(t *testing.T) {
	turn := t0.Add(5 * time.Minute) // active's deadline
	tests := []struct {
		name       string
		g          *Game
		version    int
		at         time.Time
		want       error
		wantStatus Status
		wantWinner string
	}{
		{"challenge due", pending(), 1, t0.Add(time.Minute + DeadlineGrace), nil, StatusExpired, ""},
		{"challenge within the grace", pending(), 1, t0.Add(time.Minute + DeadlineGrace - time.Millisecond), ErrNotDue, StatusPending, ""},
		{"challenge at its deadline", pending(), 1, t0.Add(time.Minute), ErrNotDue, StatusPending, ""},
		{"turn due", active(".../.../...", "alice"), 2, turn.Add(DeadlineGrace), nil, StatusFinished, "bob"},
		{"turn of O", active("X../.../...", "bob"), 2, turn.Add(DeadlineGrace), nil, StatusFinished, "alice"},
		{"turn within the grace", active(".../.../...", "alice"), 2, turn.Add(DeadlineGrace - time.Millisecond), ErrNotDue, StatusActive, ""},
		{"moved on", active(".../.../...", "alice"), 1, turn.Add(DeadlineGrace), ErrStale, StatusActive, ""},
		{"declined", func() *Game { g := pending(); g.Status = StatusDeclined; return g }(), 1, turn, ErrGameOver, StatusDeclined, ""},
		{"no deadline", func() *Game { g := pending(); g.Deadline = time.Time{}; return g }(), 1, turn, ErrNotDue, StatusPending, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.g.Expire(tt.version, tt.at)
			if err != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if tt.g.Status != tt.wantStatus || tt.g.Winner != tt.wantWinner {
				t.Errorf("got status %s winner %q, want %s %q", tt.g.Status, tt.g.Winner, tt.wantStatus, tt.wantWinner)
			}
			if err == nil && tt.wantStatus == StatusFinished && tt.g.Reason != ReasonTimeout {
				t.Errorf("got reason %q, want %q", tt.g.Reason, ReasonTimeout)
			}
		})
	}
}

func TestRoundOver(t *testing.T) {
	at := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	active := Game{Status: StatusActive, Challenger: "a", Opponent: "b", XPlayer: "a", OPlayer: "b", Deadline: at.Add(time.Hour)}
	tests := []struct {
		name, board, turn string
		wantWinner        string
		wantBothLost      bool
		wantOutcomes      [2]Outcome // a's, b's
		wantScopes        int
	}{
		{"O to move loses", ".../.X./...", "b", "a", false, [2]Outcome{Win, Loss}, 1},
		{"X to move loses", "O../.X./...", "a", "b", false, [2]Outcome{Loss, Win}, 1},
		{"no move: both lose", ".../.../...", "a", "", true, [2]Outcome{Loss, Loss}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := active
			g.Board, g.Turn = tt.board, tt.turn
			if err := g.RoundOver(at); err != nil || g.Status != StatusFinished || g.Reason != ReasonTimeout || g.Winner != tt.wantWinner || !g.Deadline.IsZero() {
				t.Fatalf("got %v, %s by %s won by %q; want finished on time, won by %q", err, g.Status, g.Reason, g.Winner, tt.wantWinner)
			}
			if got := g.BothLost(); got != tt.wantBothLost {
				t.Errorf("BothLost: got %v, want %v", got, tt.wantBothLost)
			}
			if got := [2]Outcome{g.Outcome("a"), g.Outcome("b")}; got != tt.wantOutcomes {
				t.Errorf("outcomes: got %v, want %v", got, tt.wantOutcomes)
			}
			if got := len(g.Scopes()); got != tt.wantScopes {
				t.Errorf("scopes: got %d, want %d", got, tt.wantScopes)
			}
			if got, want := TournamentResultOf(TournamentGame{White: "a", Black: "b"}, &g), AtRoundDeadline(TournamentGame{White: "a", Black: "b"}, &Game{Status: StatusActive, Board: tt.board, Turn: tt.turn}); got != want {
				t.Errorf("the game's result for the tournament: got %s, the tournament decided %s", got, want)
			}
			if err := g.RoundOver(at); err != ErrGameOver {
				t.Errorf("a finished game: %v, want ErrGameOver", err)
			}
		})
	}
	pending := Game{Status: StatusPending}
	if err := pending.RoundOver(at); err != ErrGameOver {
		t.Errorf("a challenge: %v, want ErrGameOver", err)
	}
	draw := Game{Status: StatusFinished, Reason: ReasonDraw, Challenger: "a", Opponent: "b"}
	if draw.BothLost() || draw.Outcome("a") != Draw {
		t.Errorf("a draw: BothLost %v, outcome %s", draw.BothLost(), draw.Outcome("a"))
	}
}

// TestOfTournament: a tournament's game is known by the turn timeout of its
// own that only a tournament gives, once stored as when created.
func TestOfTournament(t *testing.T) {
	tests := []struct {
		name string
		g    Game
		want bool
	}{
		{"created by a tournament", Game{InTournament: true, TurnTimeout: time.Minute}, true},
		{"a tournament's, read back", Game{TurnTimeout: time.Minute}, true},
		{"between people", Game{Challenger: "alice", Opponent: "bob"}, false},
	}
	for _, tt := range tests {
		if got := tt.g.OfTournament(); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestTokenSupersedes(t *testing.T) {
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	old := Token{Value: "old", Expires: at}
	tests := []struct {
		name string
		t    Token
		old  Token
		want bool
	}{
		{"expires later", Token{Value: "new", Expires: at.Add(time.Millisecond)}, old, true},
		{"expires as late", Token{Value: "new", Expires: at}, old, true},
		{"expires sooner", Token{Value: "new", Expires: at.Add(-time.Millisecond)}, old, false},
		{"over none", Token{Value: "new", Expires: at}, Token{}, true},
	}
	for _, tt := range tests {
		if got := tt.t.Supersedes(tt.old); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
