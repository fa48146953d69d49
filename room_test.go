package tttbot

import (
	"errors"
	"testing"
	"time"
)

func TestRoomPlayers(t *testing.T) {
	tests := []struct {
		name string
		g    Game
		want [2]string
	}{
		{"two people", Game{Challenger: "alice", Opponent: "bob"}, [2]string{"alice", "bob"}},
		{"against the bot", Game{Challenger: "alice", Opponent: "bot", BotLevel: "easy"}, [2]string{"alice", "alice"}},
	}
	for _, tt := range tests {
		if got := tt.g.RoomPlayers(); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSettingsRoom(t *testing.T) {
	on, off := true, false
	tests := []struct {
		name          string
		simultaneous  *bool
		def           bool
		room          Room
		actor         string
		wantErr       error
		wantExclusive bool
	}{
		{"an empty channel", nil, false, Room{}, "alice", nil, true},
		{"an empty channel that allows more", nil, true, Room{}, "alice", nil, false},
		{"the actor busy", nil, true, Room{PlayerGame: []string{"carol", "alice"}}, "alice", ErrPlayerBusy, false},
		{"the other player busy", nil, true, Room{PlayerGame: []string{"bob", "carol"}}, "alice", ErrOpponentBusy, false},
		{"a player busy before the channel", nil, false, Room{PlayerGame: []string{"bob", "carol"}, Occupied: true}, "alice", ErrOpponentBusy, false},
		{"an occupied channel", nil, false, Room{Occupied: true}, "alice", ErrChannelBusy, false},
		{"an occupied channel, by default shared", nil, true, Room{Occupied: true}, "alice", nil, false},
		{"the guild shares what the default does not", &on, false, Room{Occupied: true}, "alice", nil, false},
		{"the guild keeps what the default shares", &off, true, Room{Occupied: true}, "alice", ErrChannelBusy, false},
		{"the guild keeps an empty channel", &off, true, Room{}, "alice", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Settings{Simultaneous: tt.simultaneous}
			g := pending()
			exclusive, err := s.Room(g, tt.actor, tt.room, tt.def)
			if err != tt.wantErr {
				t.Fatalf("got error %v, want %v", err, tt.wantErr)
			}
			if exclusive != tt.wantExclusive {
				t.Errorf("got exclusive %v, want %v", exclusive, tt.wantExclusive)
			}
		})
	}
}

func TestSettingsShares(t *testing.T) {
	on, off := true, false
	tests := []struct {
		simultaneous *bool
		def          bool
		want         bool
	}{
		{nil, false, false},
		{nil, true, true},
		{&on, false, true},
		{&off, true, false},
	}
	for _, tt := range tests {
		s := Settings{Simultaneous: tt.simultaneous}
		if got := s.Shares(tt.def); got != tt.want {
			t.Errorf("Settings{Simultaneous: %v}.Shares(%v): got %v, want %v", tt.simultaneous, tt.def, got, tt.want)
		}
	}
}

// TestSettingsAccept: the game's refusals come first, then the guild's
// role, then the room; an accepted game's turn follows the guild's timeout.
func TestSettingsAccept(t *testing.T) {
	turn := t0.Add(5 * time.Minute)
	tests := []struct {
		name         string
		s            Settings
		user         string
		roles        []string
		room         Room
		want         error
		wantDeadline time.Time
	}{
		{"accepted", Settings{}, "bob", nil, Room{}, nil, turn},
		{"accepted, the guild's turn timeout", Settings{TurnTimeout: time.Hour}, "bob", nil, Room{}, nil, t0.Add(time.Hour)},
		{"not for the user, whatever the role and room", Settings{Role: "7"}, "carol", nil, Room{Occupied: true}, ErrNotForYou, time.Time{}},
		{"no role, whatever the room", Settings{Role: "7"}, "bob", []string{"8"}, Room{Occupied: true}, ErrRoleNeeded, time.Time{}},
		{"with the role", Settings{Role: "7"}, "bob", []string{"8", "7"}, Room{}, nil, turn},
		{"the accepting player busy", Settings{}, "bob", nil, Room{PlayerGame: []string{"bob", "carol"}}, ErrPlayerBusy, time.Time{}},
		{"the challenger busy", Settings{}, "bob", nil, Room{PlayerGame: []string{"alice", "carol"}}, ErrOpponentBusy, time.Time{}},
		{"an occupied channel", Settings{}, "bob", nil, Room{Occupied: true}, ErrChannelBusy, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := pending()
			err := tt.s.Accept(g, AcceptRequest{GameID: g.ID, Player: tt.user, Version: 1, XPlayer: "alice", At: t0, Deadline: turn, Roles: tt.roles}, tt.room, false, t0)
			if err != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if err == nil && (g.Status != StatusActive || !g.Deadline.Equal(tt.wantDeadline)) {
				t.Errorf("got %s until %s, want active until %s", g.Status, g.Deadline, tt.wantDeadline)
			}
		})
	}
}

// TestSettingsPlay: the deadline follows the guild's turn timeout, else the
// request's, from the last move made, the bot's answer included, or from
// when the move is stored when that is later.
func TestSettingsPlay(t *testing.T) {
	at := t0.Add(time.Minute)
	m := MoveRequest{GameID: 1, Player: "alice", Cell: 0, Version: 2, At: at, Deadline: at.Add(5 * time.Minute)}
	answered := m
	answered.Answer = &MoveRequest{GameID: 1, Player: "bob", Cell: 4, Version: 3, At: at.Add(time.Second), Deadline: at.Add(time.Hour)}
	tests := []struct {
		name         string
		s            Settings
		m            MoveRequest
		stored       time.Time
		wantMoves    int
		wantDeadline time.Time
		wantErr      error
	}{
		{"no timeout set", Settings{}, m, at, 1, at.Add(5 * time.Minute), nil},
		{"the guild's timeout", Settings{TurnTimeout: time.Hour}, m, at, 1, at.Add(time.Hour), nil},
		{"the guild's timeout from the answer", Settings{TurnTimeout: 2 * time.Hour}, answered, at, 2, at.Add(time.Second + 2*time.Hour), nil},
		{"stored late", Settings{}, m, at.Add(8 * time.Second), 1, at.Add(8*time.Second + 5*time.Minute), nil},
		{"stored late, the guild's timeout", Settings{TurnTimeout: time.Hour}, m, at.Add(8 * time.Second), 1, at.Add(8*time.Second + time.Hour), nil},
		{"answered, stored late", Settings{}, answered, at.Add(8 * time.Second), 2, at.Add(7*time.Second + time.Hour), nil},
		{"stored before the answer's time", Settings{TurnTimeout: 2 * time.Hour}, answered, at, 2, at.Add(time.Second + 2*time.Hour), nil},
		{"refused", Settings{TurnTimeout: time.Hour}, MoveRequest{GameID: 1, Player: "bob", Version: 2, At: at}, at.Add(8 * time.Second), 0, t0.Add(5 * time.Minute), ErrNotYourTurn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := active(".../.../...", "alice")
			moves, err := tt.s.Play(g, tt.m, tt.stored)
			if err != tt.wantErr {
				t.Fatalf("got %v, want %v", err, tt.wantErr)
			}
			if len(moves) != tt.wantMoves || !g.Deadline.Equal(tt.wantDeadline) {
				t.Errorf("got %d moves, deadline %s; want %d, %s", len(moves), g.Deadline, tt.wantMoves, tt.wantDeadline)
			}
		})
	}
}

// TestSettingsPlayPrepare: a request not completed for the game's version
// is completed for the game as it is before it is played, and one that was
// is played as it stands; a refusal of Prepare leaves the game alone.
func TestSettingsPlayPrepare(t *testing.T) {
	at := t0.Add(time.Minute)
	refused := &Error{Code: EINVALID, Message: "not here"}
	// prepare answers on the cell after the human's and counts its calls.
	prepare := func(calls *int, err error) func(m *MoveRequest, g *Game) error {
		return func(m *MoveRequest, g *Game) error {
			*calls++
			if err != nil {
				return err
			}
			m.Deadline = m.At.Add(time.Hour)
			m.Answer = &MoveRequest{GameID: g.ID, Player: g.Other(m.Player), Cell: m.Cell + 1, Version: g.Version + 1, At: m.At, Deadline: m.At.Add(2 * time.Hour)}
			return nil
		}
	}
	tests := []struct {
		name      string
		prepared  int // the version the request was completed for
		err       error
		wantCalls int
		wantBoard string
		wantErr   error
	}{
		{"not prepared", 0, nil, 1, "XO./.../...", nil},
		{"prepared for an older version", 1, nil, 1, "XO./.../...", nil},
		{"prepared for this version", 2, nil, 0, "X../.../...", nil},
		{"refused", 0, refused, 1, ".../.../...", refused},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := active(".../.../...", "alice")
			calls := 0
			m := MoveRequest{GameID: g.ID, Player: "alice", Cell: 0, Version: 2, At: at, Deadline: at.Add(5 * time.Minute),
				Prepare: prepare(&calls, tt.err), Prepared: tt.prepared}
			_, err := (&Settings{}).Play(g, m, at)
			if err != tt.wantErr {
				t.Fatalf("got %v, want %v", err, tt.wantErr)
			}
			if calls != tt.wantCalls || g.Board != tt.wantBoard {
				t.Errorf("got %d calls, board %s; want %d, %s", calls, g.Board, tt.wantCalls, tt.wantBoard)
			}
		})
	}
}

// TestSettingsAcceptPrepare: an accept completed by its Prepare runs it
// first, on the game, and takes the X player and deadline it sets; its
// refusal comes before the game's own.
func TestSettingsAcceptPrepare(t *testing.T) {
	refused := &Error{Code: EINVALID, Message: "not here"}
	tests := []struct {
		name    string
		user    string
		err     error // Prepare's
		wantErr error
		wantX   string
	}{
		{"completed", "bob", nil, nil, "bob"},
		{"refused", "bob", refused, refused, ""},
		{"refused before the game's refusal", "carol", refused, refused, ""},
		{"the game's refusal", "carol", nil, ErrNotForYou, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := pending()
			var seen *Game
			r := AcceptRequest{GameID: g.ID, Player: tt.user, Version: 1, At: t0,
				Prepare: func(r *AcceptRequest, got *Game) error {
					seen = got
					if tt.err != nil {
						return tt.err
					}
					r.XPlayer, r.Deadline = "bob", r.At.Add(time.Hour)
					return nil
				}}
			err := (&Settings{}).Accept(g, r, Room{}, false, t0)
			if err != tt.wantErr || seen != g {
				t.Fatalf("got %v, prepared on %p; want %v, on %p", err, seen, tt.wantErr, g)
			}
			if err == nil && (g.XPlayer != tt.wantX || g.Turn != tt.wantX || !g.Deadline.Equal(t0.Add(time.Hour))) {
				t.Errorf("got X %s, turn %s until %v; want %s until %v", g.XPlayer, g.Turn, g.Deadline, tt.wantX, t0.Add(time.Hour))
			}
		})
	}
}

// TestGameChange: a change that succeeds is a new version stamped at its
// time, and says whether it finished the game; a refused one changes
// nothing.
func TestGameChange(t *testing.T) {
	at := t0.Add(time.Minute)
	tests := []struct {
		name         string
		g            *Game
		fn           func(*Game) error
		wantErr      error
		wantFinished bool
	}{
		{"a move", active(".../.../...", "alice"), func(g *Game) error {
			_, err := g.Play(MoveRequest{Player: "alice", Cell: 0, Version: 2}, at)
			return err
		}, nil, false},
		{"a winning move", active("XX./OO./...", "alice"), func(g *Game) error {
			_, err := g.Play(MoveRequest{Player: "alice", Cell: 2, Version: 2}, at)
			return err
		}, nil, true},
		{"a resignation", active(".../.../...", "alice"), func(g *Game) error { return g.Resign("bob", at) }, nil, true},
		{"a declined challenge", pending(), func(g *Game) error { return g.Decline("bob", 1, at) }, nil, false},
		{"a refusal", active(".../.../...", "alice"), func(g *Game) error { return g.Resign("carol", at) }, ErrNotAPlayer, false},
		{"a finished game expired", func() *Game {
			g := active(".../.../...", "alice")
			g.Status = StatusFinished
			return g
		}(), func(g *Game) error { return nil }, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := *tt.g
			finished, err := tt.g.Change(at, tt.fn)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("got %v, want %v", err, tt.wantErr)
			}
			if finished != tt.wantFinished {
				t.Errorf("got finished %v, want %v", finished, tt.wantFinished)
			}
			wantVersion, wantUpdated := before.Version+1, at
			if err != nil {
				wantVersion, wantUpdated = before.Version, before.UpdatedAt
			}
			if tt.g.Version != wantVersion || !tt.g.UpdatedAt.Equal(wantUpdated) {
				t.Errorf("got version %d at %s, want %d at %s", tt.g.Version, tt.g.UpdatedAt, wantVersion, wantUpdated)
			}
		})
	}
}

func TestTokenCheck(t *testing.T) {
	tests := []struct {
		name string
		tok  Token
		want error
	}{
		{"a token", Token{Value: "t", Expires: t0}, nil},
		{"no value", Token{Expires: t0}, ErrBadToken},
		{"no expiry", Token{Value: "t"}, ErrBadToken},
	}
	for _, tt := range tests {
		if got := tt.tok.Check(); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestGameStart: a new game is what prepare makes of it, checked, at
// version 1, or 2 after the opening prepare returns, and without the
// Rematch the store has read; a refusal by prepare, by Create or of the
// opening stores nothing.
func TestGameStart(t *testing.T) {
	errNo := &Error{Code: EFORBIDDEN, Message: "no"}
	adm := Admission{Settings: Settings{Defaults: Defaults{Size: 4}}}
	// vsBot makes the game the bot's, X, and opens it with the bot on cell.
	vsBot := func(cell, version int) func(*Game, Admission) (*MoveRequest, error) {
		return func(g *Game, _ Admission) (*MoveRequest, error) {
			g.Opponent, g.BotLevel, g.Status = "bot", "hard", StatusActive
			g.XPlayer, g.OPlayer = "bot", "alice"
			return &MoveRequest{Player: "bot", Cell: cell, Version: version, At: t0, Deadline: t0.Add(time.Minute)}, nil
		}
	}
	tests := []struct {
		name    string
		prepare func(*Game, Admission) (*MoveRequest, error)
		want    error
		rows    int
		version int
		board   string
	}{
		{"as it is", nil, nil, 3, 1, ".../.../..."},
		{"as prepared", func(g *Game, a Admission) (*MoveRequest, error) {
			g.Rows, g.Cols, g.K = a.Settings.Defaults.Size, a.Settings.Defaults.Size, 4
			return nil, nil
		}, nil, 4, 1, "..../..../..../...."},
		{"opened by the bot", vsBot(4, 1), nil, 3, 2, ".../.X./..."},
		{"an opening off the board", vsBot(9, 1), ErrOffBoard, 0, 0, ""},
		{"an opening on another version", vsBot(4, 2), ErrStale, 0, 0, ""},
		{"refused by prepare", func(*Game, Admission) (*MoveRequest, error) { return nil, errNo }, errNo, 0, 0, ""},
		{"refused by Create", func(g *Game, _ Admission) (*MoveRequest, error) { g.Opponent = g.Challenger; return nil, nil }, ErrSelfChallenge, 0, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &Game{ChannelID: "c", Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bob", Status: StatusPending, Rematch: 7}
			moves, err := g.Start(adm, tt.prepare, t0)
			if err != tt.want {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
			if err != nil {
				return
			}
			if g.Version != tt.version || !g.CreatedAt.Equal(t0) || !g.UpdatedAt.Equal(t0) || g.Rows != tt.rows || g.Board != tt.board || g.Rematch != 0 {
				t.Errorf("got %+v, want version %d of %q created at %s, no Rematch", *g, tt.version, tt.board, t0)
			}
			if opened := tt.version == 2; opened && (len(moves) != 1 || moves[0].Ply != 1 || moves[0].Player != "bot" || g.Turn != "alice" || !g.Deadline.Equal(t0.Add(time.Minute))) ||
				!opened && len(moves) != 0 {
				t.Errorf("got moves %+v, %s to move until %v", moves, g.Turn, g.Deadline)
			}
		})
	}
}

// TestSettingsAcceptStoredLate: the first turn runs from when the store
// writes the acceptance, when that is later than the click.
func TestSettingsAcceptStoredLate(t *testing.T) {
	turn := 5 * time.Minute
	tests := []struct {
		name   string
		s      Settings
		stored time.Time
		want   time.Time
	}{
		{"stored at once", Settings{}, t0, t0.Add(turn)},
		{"stored late", Settings{}, t0.Add(8 * time.Second), t0.Add(8*time.Second + turn)},
		{"stored late, the guild's timeout", Settings{TurnTimeout: time.Hour}, t0.Add(8 * time.Second), t0.Add(8*time.Second + time.Hour)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := pending()
			if err := tt.s.Accept(g, AcceptRequest{GameID: g.ID, Player: "bob", Version: 1, XPlayer: "alice", At: t0, Deadline: t0.Add(turn)}, Room{}, false, tt.stored); err != nil {
				t.Fatal(err)
			}
			if !g.Deadline.Equal(tt.want) {
				t.Errorf("got deadline %s, want %s", g.Deadline, tt.want)
			}
		})
	}
}

// TestClicked: a move or an accept records the board message clicked
// when the game has none, and the click's token on a webhook's board when
// it outlives the game's; a refused one records nothing.
func TestClicked(t *testing.T) {
	at := t0.Add(time.Minute)
	older := Token{Value: "old", Expires: at.Add(TokenLife - time.Minute)}
	click := BoardClick{Message: "m2", Token: Token{Value: "click", Expires: at.Add(TokenLife)}}
	move := func(player string) func(g *Game, c BoardClick) error {
		return func(g *Game, c BoardClick) error {
			_, err := (&Settings{}).Play(g, MoveRequest{GameID: g.ID, Player: player, Cell: 0, Version: g.Version, At: at, Deadline: at.Add(time.Minute), Click: c}, at)
			return err
		}
	}
	accept := func(room Room) func(g *Game, c BoardClick) error {
		return func(g *Game, c BoardClick) error {
			g.Status, g.Turn, g.XPlayer, g.OPlayer = StatusPending, "", "", ""
			return (&Settings{}).Accept(g, AcceptRequest{GameID: g.ID, Player: "bob", Version: g.Version, XPlayer: "alice", At: at, Deadline: at.Add(time.Minute), Click: c}, room, false, at)
		}
	}
	tests := []struct {
		name      string
		webhook   bool
		message   string
		token     Token
		change    func(g *Game, c BoardClick) error
		wantMsg   string
		wantToken string
	}{
		{"a move on a board not known", false, "", older, move("alice"), "m2", "old"},
		{"a move on a board known", false, "m1", older, move("alice"), "m1", "old"},
		{"a move refused", false, "", older, move("bob"), "", "old"},
		{"an accept", false, "", older, accept(Room{}), "m2", "old"},
		{"an accept refused", false, "", older, accept(Room{Occupied: true}), "", "old"},
		{"a webhook's move", true, "", older, move("alice"), "m2", "click"},
		{"a webhook's accept", true, "", older, accept(Room{}), "m2", "click"},
		{"a webhook's move, its token newer", true, "", Token{Value: "newer", Expires: at.Add(time.Hour)}, move("alice"), "m2", "newer"},
		{"a webhook's move refused", true, "", older, move("bob"), "", "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := active(".../.../...", "alice")
			g.Webhook, g.MessageID, g.Token = tt.webhook, tt.message, tt.token
			tt.change(g, click)
			if g.MessageID != tt.wantMsg || g.Token.Value != tt.wantToken {
				t.Errorf("got message %q, token %q; want %q, %q", g.MessageID, g.Token.Value, tt.wantMsg, tt.wantToken)
			}
		})
	}
}

// TestTokenCovers: a board can wait for its first click while the token
// that posted it outlives its deadline by the timers' minute.
func TestTokenCovers(t *testing.T) {
	tok := Token{Value: "t", Expires: t0.Add(TokenLife)}
	tests := []struct {
		name     string
		tok      Token
		deadline time.Time
		want     bool
	}{
		{"a turn of five minutes", tok, t0.Add(5 * time.Minute), true},
		{"the longest a webhook game waits", tok, t0.Add(MaxWebhookWait), true},
		{"a second longer", tok, t0.Add(MaxWebhookWait + time.Second), false},
		{"no deadline", tok, time.Time{}, false},
		{"no token", Token{}, t0.Add(time.Minute), false},
	}
	for _, tt := range tests {
		g := Game{Token: tt.tok, Deadline: tt.deadline}
		if got := g.TokenCovers(); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
