package storetest

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot"
)

// Challenge returns a 3×3 challenge of a by b in channel, expiring a minute
// after t0.
func Challenge(channel, a, b string) *tttbot.Game {
	return &tttbot.Game{GuildID: "guild", ChannelID: channel, Rows: 3, Cols: 3, K: 3,
		Challenger: a, Opponent: b, Status: tttbot.StatusPending, Deadline: t0.Add(time.Minute)}
}

// setSimultaneous sets whether guild allows simultaneous games, in the
// suite's own SQL: the suite's guild ID is no snowflake, which
// UpdateSettings would refuse.
func (db *DB) setSimultaneous(t testing.TB, guild string, allow bool) {
	t.Helper()
	_, err := db.SQL.ExecContext(t.Context(), `INSERT INTO guilds (id, simultaneous_games, updated_at) VALUES ($1, $2, 0)
		ON CONFLICT (id) DO UPDATE SET simultaneous_games = excluded.simultaneous_games`, guild, allow)
	OK(t, err)
}

// StartGame creates a's challenge of b and has b accept it with a as X.
func StartGame(t testing.TB, db tttbot.GameStore, channel, a, b string) *tttbot.Game {
	t.Helper()
	g := Challenge(channel, a, b)
	if err := db.StartGame(t.Context(), g, nil); err != nil {
		t.Fatalf("create game: %v", err)
	}
	g, err := db.Accept(t.Context(), tttbot.AcceptRequest{GameID: g.ID, Player: b, Version: g.Version, XPlayer: a, At: t0, Deadline: t0.Add(2 * time.Minute)})
	if err != nil {
		t.Fatalf("accept: %v", err)
	}
	return g
}

// Click is player's click on cell of g as it stands.
func Click(g *tttbot.Game, player string, cell int) tttbot.MoveRequest {
	return tttbot.MoveRequest{GameID: g.ID, Player: player, Cell: cell, Version: g.Version,
		At: t0.Add(time.Second), Deadline: t0.Add(3 * time.Minute)}
}

// PlayCells applies cells in turn from g's current position.
func PlayCells(t testing.TB, db tttbot.GameStore, g *tttbot.Game, cells ...int) *tttbot.Game {
	t.Helper()
	for _, c := range cells {
		var err error
		if g, err = db.Play(t.Context(), Click(g, g.Turn, c), nil); err != nil {
			t.Fatalf("play %d: %v", c, err)
		}
	}
	return g
}

type result struct{ Player, Opponent, Outcome, Reason string }

func results(t testing.TB, db *DB, id int64) []result {
	t.Helper()
	rows, err := db.SQL.Query("SELECT player_id, opponent_id, outcome, reason FROM results WHERE game_id = $1 ORDER BY player_id", id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []result
	for rows.Next() {
		var r result
		if err := rows.Scan(&r.Player, &r.Opponent, &r.Outcome, &r.Reason); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func testCreateGame(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	g := Challenge("c1", "alice", "bob")
	if err := db.StartGame(t.Context(), g, nil); err != nil {
		t.Fatal(err)
	}
	want := &tttbot.Game{ID: g.ID, GuildID: "guild", ChannelID: "c1", Rows: 3, Cols: 3, K: 3,
		Challenger: "alice", Opponent: "bob", Status: tttbot.StatusPending, Board: ".../.../...",
		Version: 1, Deadline: t0.Add(time.Minute), CreatedAt: t0, UpdatedAt: t0}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("created game (-want +got):\n%s", diff)
	}
	got := Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored game (-want +got):\n%s", diff)
	}

	// A challenge may carry the X and O its challenger planned.
	planned := Challenge("c2", "alice", "bob")
	planned.XPlayer, planned.OPlayer = "bob", "alice"
	OK(t, db.StartGame(t.Context(), planned, nil))
	got = Must[*tttbot.Game](t)(db.Game(t.Context(), planned.ID))
	if got.XPlayer != "bob" || got.OPlayer != "alice" || got.Turn != "" {
		t.Errorf("planned challenge: got X %q O %q turn %q, want bob, alice and no turn", got.XPlayer, got.OPlayer, got.Turn)
	}

	// Against the bot the game starts active; the bot as X has a deadline
	// of now so that a crash before its reply leaves it due, once the
	// grace of every deadline has passed. The language
	// its messages speak is kept for the timers, which find it due.
	bot := &tttbot.Game{ChannelID: "dm", Rows: 5, Cols: 5, K: 4, Challenger: "carol", Opponent: "bot",
		BotLevel: "hard", XPlayer: "bot", OPlayer: "carol", Status: tttbot.StatusActive, Deadline: t0, Language: "pt-BR"}
	if err := db.StartGame(t.Context(), bot, nil); err != nil {
		t.Fatal(err)
	}
	if bot.Turn != "bot" || bot.Board != "...../...../...../...../....." || bot.GuildID != "" {
		t.Errorf("got turn %q board %q guild %q, want bot, the empty 5×5 board and no guild", bot.Turn, bot.Board, bot.GuildID)
	}
	due := Must[[]*tttbot.Game](t)(db.Due(t.Context(), t0.Add(tttbot.DeadlineGrace), 0))
	if len(due) != 1 || due[0].ID != bot.ID || due[0].Language != "pt-BR" {
		t.Errorf("due at t0 + grace: got %d games, want the bot's game in pt-BR", len(due))
	}
	if got := Must[*tttbot.Game](t)(db.Game(t.Context(), bot.ID)); got.Language != "pt-BR" {
		t.Errorf("stored game: language %q, want pt-BR", got.Language)
	}
}

// testStartOpened: a game against the bot may start with the bot's first
// move, stored with it in one transaction, the human then to move; an
// opening the game refuses stores nothing.
func testStartOpened(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	open := func(channel string, cell int) (*tttbot.Game, error) {
		g := &tttbot.Game{ChannelID: channel, Rows: 3, Cols: 3, K: 3, Challenger: "carol", Opponent: "bot",
			BotLevel: "hard", XPlayer: "bot", OPlayer: "carol", Status: tttbot.StatusActive, Deadline: t0}
		return g, db.StartGame(t.Context(), g, func(*tttbot.Game, tttbot.Admission) (*tttbot.MoveRequest, error) {
			return &tttbot.MoveRequest{Player: "bot", Cell: cell, Version: 1, At: t0.Add(123 * time.Microsecond), Deadline: t0.Add(time.Minute + 500*time.Microsecond)}, nil
		})
	}
	g, err := open("c1", 4)
	if err != nil {
		t.Fatal(err)
	}
	stored := Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID))
	if diff := cmp.Diff(g, stored); diff != "" {
		t.Errorf("stored game (-returned +stored):\n%s", diff)
	}
	if stored.Version != 2 || stored.Board != ".../.X./..." || stored.Turn != "carol" || !stored.Deadline.Equal(t0.Add(time.Minute)) {
		t.Errorf("got version %d %q, %s to move until %v; want 2, the bot's X in the middle, carol until %v",
			stored.Version, stored.Board, stored.Turn, stored.Deadline, t0.Add(time.Minute))
	}
	want := []tttbot.Move{{GameID: g.ID, Ply: 1, Cell: 4, Player: "bot", At: t0}}
	if got := Must[[]tttbot.Move](t)(db.Moves(t.Context(), g.ID)); !cmp.Equal(got, want) {
		t.Errorf("got moves %+v, want %+v", got, want)
	}
	if _, err := open("c2", 9); !errors.Is(err, tttbot.ErrOffBoard) {
		t.Errorf("an opening off the board: got %v, want %v", err, tttbot.ErrOffBoard)
	}
	if g, err := db.OpenGame(t.Context(), "c2", "carol"); tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
		t.Errorf("a refused opening stored %+v, %v", g, err)
	}
}

// testStartRematch: a rematch's prepare is handed the ended game its
// Rematch names, read in the transaction that creates the new game, in a
// guild and in a DM alike, and the game returned is the one stored; an
// unknown one is ENOTFOUND, and stores nothing.
func testStartRematch(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ended := finishGame(t, db, "c1", "alice", "bob", xWins)
	for _, guild := range []string{"guild", ""} {
		g := Challenge("c2"+guild, "bob", "alice")
		g.GuildID, g.Rematch = guild, ended.ID
		var got *tttbot.Game
		OK(t, db.StartGame(t.Context(), g, func(_ *tttbot.Game, adm tttbot.Admission) (*tttbot.MoveRequest, error) {
			got = adm.Rematched
			return nil, nil
		}))
		if diff := cmp.Diff(ended, got); diff != "" {
			t.Errorf("in guild %q, the game rematched (-stored +read):\n%s", guild, diff)
		}
		if diff := cmp.Diff(Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID)), g); diff != "" {
			t.Errorf("in guild %q, the rematch (-stored +returned):\n%s", guild, diff)
		}
	}
	g := Challenge("c3", "bob", "alice")
	g.Rematch = ended.ID + 100
	err := db.StartGame(t.Context(), g, func(*tttbot.Game, tttbot.Admission) (*tttbot.MoveRequest, error) {
		t.Error("prepare called without the game rematched")
		return nil, nil
	})
	WantCode(t, err, tttbot.ENOTFOUND)
	if g, err := db.OpenGame(t.Context(), "c3", "bob"); tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
		t.Errorf("a rematch of an unknown game stored %+v, %v", g, err)
	}
}

func testCreateGameInvalid(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	tests := []struct {
		name string
		edit func(g *tttbot.Game)
	}{
		{"board too big", func(g *tttbot.Game) { g.Rows, g.Cols = 6, 6 }},
		{"k too long", func(g *tttbot.Game) { g.K = 4 }},
		{"no channel", func(g *tttbot.Game) { g.ChannelID = "" }},
		{"no opponent", func(g *tttbot.Game) { g.Opponent = "" }},
		{"self", func(g *tttbot.Game) { g.Opponent = g.Challenger }},
		{"played board", func(g *tttbot.Game) { g.Board = "X../.../..." }},
		{"has an ID", func(g *tttbot.Game) { g.ID = 7 }},
		{"has a winner", func(g *tttbot.Game) { g.Winner = "alice" }},
		{"finished", func(g *tttbot.Game) { g.Status = tttbot.StatusFinished }},
		{"no status", func(g *tttbot.Game) { g.Status = "" }},
		{"pending with a turn", func(g *tttbot.Game) { g.XPlayer, g.OPlayer, g.Turn = "alice", "bob", "alice" }},
		{"pending with X a stranger", func(g *tttbot.Game) { g.XPlayer, g.OPlayer = "carol", "bob" }},
		{"pending with X only", func(g *tttbot.Game) { g.XPlayer = "alice" }},
		{"active without X", func(g *tttbot.Game) { g.Status = tttbot.StatusActive }},
		{"active with a stranger", func(g *tttbot.Game) {
			g.Status, g.XPlayer, g.OPlayer = tttbot.StatusActive, "alice", "carol"
		}},
		{"active with O to move", func(g *tttbot.Game) {
			g.Status, g.XPlayer, g.OPlayer, g.Turn = tttbot.StatusActive, "alice", "bob", "bob"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := Challenge("c1", "alice", "bob")
			tt.edit(g)
			before := *g
			WantCode(t, db.StartGame(t.Context(), g, nil), tttbot.EINVALID)
			if diff := cmp.Diff(before, *g); diff != "" {
				t.Errorf("refused game changed (-before +after):\n%s", diff)
			}
		})
	}
	var n int
	if err := db.SQL.QueryRow("SELECT count(*) FROM games").Scan(&n); err != nil || n != 0 {
		t.Errorf("got %d games (%v), want 0", n, err)
	}
}

func testConflicts(t *testing.T, newDB Opener) {
	type game struct{ channel, a, b, bot string }
	tests := []struct {
		name     string
		opts     Options
		guildSet *bool // the guild's own setting
		existing []game
		create   game
		want     string // error code, "" for success
		wantErr  error  // the refusal, when it matters which
	}{
		{name: "channel busy", existing: []game{{"c1", "alice", "bob", ""}}, create: game{"c1", "carol", "dave", ""},
			want: tttbot.ECONFLICT, wantErr: tttbot.ErrChannelBusy},
		{name: "other channel", existing: []game{{"c1", "alice", "bob", ""}}, create: game{"c2", "alice", "bob", ""}},
		{name: "simultaneous by default", opts: Options{SimultaneousGames: true},
			existing: []game{{"c1", "alice", "bob", ""}}, create: game{"c1", "carol", "dave", ""}},
		{name: "simultaneous by guild", guildSet: new(true),
			existing: []game{{"c1", "alice", "bob", ""}}, create: game{"c1", "carol", "dave", ""}},
		{name: "guild overrides default", opts: Options{SimultaneousGames: true}, guildSet: new(false),
			existing: []game{{"c1", "alice", "bob", ""}}, create: game{"c1", "carol", "dave", ""}, want: tttbot.ECONFLICT},
		{name: "challenger busy", guildSet: new(true),
			existing: []game{{"c1", "alice", "bob", ""}}, create: game{"c1", "bob", "carol", ""},
			want: tttbot.ECONFLICT, wantErr: tttbot.ErrPlayerBusy},
		{name: "opponent busy", guildSet: new(true),
			existing: []game{{"c1", "alice", "bob", ""}}, create: game{"c1", "carol", "alice", ""},
			want: tttbot.ECONFLICT, wantErr: tttbot.ErrOpponentBusy},
		{name: "bot plays many", guildSet: new(true),
			existing: []game{{"c1", "alice", "bot", "easy"}}, create: game{"c1", "carol", "bot", "hard"}},
		{name: "human vs bot busy", guildSet: new(true),
			existing: []game{{"c1", "alice", "bot", "easy"}}, create: game{"c1", "alice", "bot", "hard"},
			want: tttbot.ECONFLICT, wantErr: tttbot.ErrPlayerBusy},
		{name: "bot game fills the channel", existing: []game{{"c1", "alice", "bot", "easy"}}, create: game{"c1", "carol", "bot", "easy"},
			want: tttbot.ECONFLICT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t, tt.opts)
			if tt.guildSet != nil {
				db.setSimultaneous(t, "guild", *tt.guildSet)
			}
			newGame := func(x game) *tttbot.Game {
				g := Challenge(x.channel, x.a, x.b)
				if x.bot != "" {
					g.BotLevel, g.Status, g.XPlayer, g.OPlayer = x.bot, tttbot.StatusActive, x.a, x.b
				}
				return g
			}
			for _, x := range tt.existing {
				if err := db.StartGame(t.Context(), newGame(x), nil); err != nil {
					t.Fatalf("create existing game: %v", err)
				}
			}
			err := db.StartGame(t.Context(), newGame(tt.create), nil)
			WantCode(t, err, tt.want)
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("got %v, want %v", err, tt.wantErr)
			}
		})
	}
}

func testClosedGamesFreeTheChannel(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	g := Challenge("c1", "alice", "bob")
	OK(t, db.StartGame(ctx, g, nil))
	Must[*tttbot.Game](t)(db.Decline(ctx, g.ID, "bob", g.Version, t0, nil))
	g = StartGame(t, db, "c1", "alice", "bob")
	Must[*tttbot.Game](t)(db.Resign(ctx, g.ID, "bob", t0, nil))
	StartGame(t, db, "c1", "bob", "carol")
}

func testAcceptConflict(t *testing.T, newDB Opener) {
	// Two challenges wait in a channel when the guild stops allowing
	// simultaneous games: the first accepted starts, the second is refused.
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	g1, g2 := Challenge("c1", "alice", "bob"), Challenge("c1", "carol", "dave")
	OK(t, db.StartGame(ctx, g1, nil))
	OK(t, db.StartGame(ctx, g2, nil))
	db.setSimultaneous(t, "guild", false)
	_, err := db.Accept(ctx, tttbot.AcceptRequest{GameID: g2.ID, Player: "dave", Version: g2.Version, XPlayer: "carol", At: t0, Deadline: time.Time{}})
	WantCode(t, err, tttbot.ECONFLICT)
	got := Must[*tttbot.Game](t)(db.Game(ctx, g2.ID))
	if got.Status != tttbot.StatusPending || got.Version != 1 {
		t.Errorf("refused accept: got status %s version %d, want pending version 1", got.Status, got.Version)
	}
}

func testAccept(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	ctx := t.Context()
	g := Challenge("c1", "alice", "bob")
	OK(t, db.StartGame(ctx, g, nil))

	refusals := []struct {
		name, user, xPlayer string
		version             int
		at                  time.Time
		want                string
	}{
		{"unknown game", "bob", "bob", 1, t0, tttbot.ENOTFOUND},
		{"by the challenger", "alice", "bob", 1, t0, tttbot.ENOTYOURS},
		{"by a stranger", "carol", "bob", 1, t0, tttbot.ENOTYOURS},
		{"stale", "bob", "bob", 2, t0, tttbot.ESTALE},
		{"expired", "bob", "bob", 1, t0.Add(time.Minute), tttbot.EFINISHED},
		{"X a stranger", "bob", "carol", 1, t0, tttbot.EINVALID},
	}
	for _, tt := range refusals {
		id := g.ID
		if tt.want == tttbot.ENOTFOUND {
			id = 999
		}
		_, err := db.Accept(ctx, tttbot.AcceptRequest{GameID: id, Player: tt.user, Version: tt.version, XPlayer: tt.xPlayer, At: tt.at, Deadline: t0.Add(time.Hour)})
		if tttbot.ErrorCode(err) != tt.want {
			t.Errorf("%s: got %v, want code %s", tt.name, err, tt.want)
		}
	}

	got, err := db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: 1, XPlayer: "bob", At: t0.Add(time.Second), Deadline: t0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	want := *g
	want.Status, want.XPlayer, want.OPlayer, want.Turn = tttbot.StatusActive, "bob", "alice", "bob"
	want.Version, want.Deadline, want.UpdatedAt = 2, t0.Add(time.Hour), t0.Add(time.Second)
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("accepted game (-want +got):\n%s", diff)
	}
	_, err = db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: "bob", Version: 2, XPlayer: "bob", At: t0, Deadline: t0.Add(time.Hour)})
	WantCode(t, err, tttbot.EFINISHED)
}

func testDecline(t *testing.T, newDB Opener) {
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	tests := []struct {
		user    string
		version int
		want    string
		status  tttbot.Status
	}{
		{"carol", 1, tttbot.ENOTYOURS, tttbot.StatusPending},
		{"bob", 2, tttbot.ESTALE, tttbot.StatusPending},
		{"bob", 1, "", tttbot.StatusDeclined},
		{"alice", 1, "", tttbot.StatusCancelled},
	}
	for i, tt := range tests {
		g := Challenge("c"+string(rune('0'+i)), "alice", "bob")
		OK(t, db.StartGame(ctx, g, nil))
		_, err := db.Decline(ctx, g.ID, tt.user, tt.version, t0.Add(time.Second), nil)
		WantCode(t, err, tt.want)
		got := Must[*tttbot.Game](t)(db.Game(ctx, g.ID))
		if got.Status != tt.status {
			t.Errorf("%s declines: got status %s, want %s", tt.user, got.Status, tt.status)
		}
		if tt.want == "" && (!got.FinishedAt.Equal(t0.Add(time.Second)) || !got.Deadline.IsZero() || got.Version != 2) {
			t.Errorf("%s declines: got finished at %v, deadline %v, version %d; want %v, none, 2",
				tt.user, got.FinishedAt, got.Deadline, got.Version, t0.Add(time.Second))
		}
	}
	g := StartGame(t, db, "c9", "alice", "bob")
	_, err := db.Decline(ctx, g.ID, "bob", g.Version, t0, nil)
	WantCode(t, err, tttbot.EFINISHED)
}

func testPlayErrors(t *testing.T, newDB Opener) {
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	g := StartGame(t, db, "c1", "alice", "bob") // alice is X
	g = PlayCells(t, db, g, 4)
	pending := Challenge("c2", "alice", "bob")
	OK(t, db.StartGame(ctx, pending, nil))
	over := PlayCells(t, db, StartGame(t, db, "c3", "alice", "bob"), 0, 3, 1, 4, 2)

	tests := []struct {
		name string
		req  tttbot.MoveRequest
		code string
		want error
	}{
		{"unknown game", tttbot.MoveRequest{GameID: 999, Player: "bob", Cell: 0, Version: g.Version},
			tttbot.ENOTFOUND, tttbot.ErrNotFound},
		{"stranger", Click(g, "carol", 0), tttbot.ENOTYOURS, tttbot.ErrNotAPlayer},
		{"pending", Click(pending, "alice", 0), tttbot.EINVALID, tttbot.ErrNotStarted},
		{"not your turn", Click(g, "alice", 0), tttbot.ENOTYOURTURN, tttbot.ErrNotYourTurn},
		{"stale", tttbot.MoveRequest{GameID: g.ID, Player: "bob", Cell: 0, Version: g.Version - 1},
			tttbot.ESTALE, tttbot.ErrStale},
		{"newer than the game", tttbot.MoveRequest{GameID: g.ID, Player: "bob", Cell: 0, Version: g.Version + 1},
			tttbot.ESTALE, tttbot.ErrStale},
		{"cell taken", Click(g, "bob", 4), tttbot.EINVALID, tttbot.ErrCellTaken},
		{"off the board", Click(g, "bob", 9), tttbot.EINVALID, tttbot.ErrOffBoard},
		{"negative cell", Click(g, "bob", -1), tttbot.EINVALID, tttbot.ErrOffBoard},
		{"over", Click(over, "bob", 8), tttbot.EFINISHED, tttbot.ErrGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := db.Game(ctx, tt.req.GameID)
			_, err := db.Play(ctx, tt.req, nil)
			WantCode(t, err, tt.code)
			if !errors.Is(err, tt.want) {
				t.Errorf("got %v, want %v", err, tt.want)
			}
			after, _ := db.Game(ctx, tt.req.GameID)
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("refused move changed the game (-before +after):\n%s", diff)
			}
		})
	}
	if n := len(Must[[]tttbot.Move](t)(db.Moves(ctx, g.ID))); n != 1 {
		t.Errorf("got %d moves, want 1", n)
	}
}

func testPlayToTheEnd(t *testing.T, newDB Opener) {
	tests := []struct {
		name    string
		cells   []int
		board   string
		winner  string
		reason  tttbot.Reason
		results []result
	}{
		{"X wins", []int{0, 3, 1, 4, 2}, "XXX/OO./...", "alice", tttbot.ReasonLine, []result{
			{"alice", "bob", "win", "line"}, {"bob", "alice", "loss", "line"}}},
		{"O wins", []int{0, 3, 1, 4, 8, 5}, "XX./OOO/..X", "bob", tttbot.ReasonLine, []result{
			{"alice", "bob", "loss", "line"}, {"bob", "alice", "win", "line"}}},
		{"draw", []int{0, 1, 2, 4, 3, 5, 7, 6, 8}, "XOX/XOO/OXX", "", tttbot.ReasonDraw, []result{
			{"alice", "bob", "draw", "draw"}, {"bob", "alice", "draw", "draw"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t, Options{})
			g := StartGame(t, db, "c1", "alice", "bob")
			g = PlayCells(t, db, g, tt.cells...)
			want := tttbot.Game{Status: tttbot.StatusFinished, Board: tt.board, Winner: tt.winner, Reason: tt.reason,
				Version: 2 + len(tt.cells), FinishedAt: t0.Add(time.Second)}
			got := tttbot.Game{Status: g.Status, Board: g.Board, Winner: g.Winner, Reason: g.Reason,
				Version: g.Version, FinishedAt: g.FinishedAt, Turn: g.Turn, Deadline: g.Deadline}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("finished game (-want +got):\n%s", diff)
			}
			stored := Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID))
			if diff := cmp.Diff(g, stored); diff != "" {
				t.Errorf("stored game (-returned +stored):\n%s", diff)
			}
			if diff := cmp.Diff(tt.results, results(t, db, g.ID)); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			moves := Must[[]tttbot.Move](t)(db.Moves(t.Context(), g.ID))
			for i, m := range moves {
				player := []string{"alice", "bob"}[i%2]
				if m.Ply != i+1 || m.Cell != tt.cells[i] || m.Player != player || !m.At.Equal(t0.Add(time.Second)) {
					t.Errorf("move %d: got %+v, want ply %d cell %d by %s", i, m, i+1, tt.cells[i], player)
				}
			}
		})
	}
}

func testPlayWithAnswer(t *testing.T, newDB Opener) {
	// alice (X) has 0 and 1, bob (O) has 3 and 4; alice moves.
	tests := []struct {
		name        string
		cell        int // alice's move
		reply       int // bob's, chosen in advance
		replyTo     int // the version bob's reply was chosen against: 0 means the right one
		wantBoard   string
		wantVersion int // over the game's before alice's move
		wantTurn    string
	}{
		{"both played", 8, 5, 0, "XX./OOO/..X", 2, ""},
		{"the first move ends the game", 2, 5, 0, "XXX/OO./...", 1, ""},
		{"a refused reply leaves the first move alone", 8, 8, 0, "XX./OO./..X", 1, "bob"},
		{"a reply to the wrong version is refused", 8, 5, 1, "XX./OO./..X", 1, "bob"},
		{"a reply that does not end the game", 7, 2, 0, "XXO/OO./.X.", 2, "alice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := newDB(t, Options{})
			g := PlayCells(t, db, StartGame(t, db, "c1", "alice", "bob"), 0, 3, 1, 4)
			m := Click(g, "alice", tt.cell)
			r := Click(g, "bob", tt.reply)
			r.Version = g.Version + 1
			if tt.replyTo != 0 {
				r.Version = g.Version + 1 + tt.replyTo
			}
			m.Answer = &r
			got, err := db.Play(t.Context(), m, nil)
			if err != nil {
				t.Fatalf("play: %v", err)
			}
			if got.Board != tt.wantBoard || got.Version != g.Version+tt.wantVersion || got.Turn != tt.wantTurn {
				t.Errorf("got board %s version +%d turn %q, want %s +%d %q",
					got.Board, got.Version-g.Version, got.Turn, tt.wantBoard, tt.wantVersion, tt.wantTurn)
			}
			if stored := Must[*tttbot.Game](t)(db.Game(t.Context(), g.ID)); !cmp.Equal(got, stored) {
				t.Errorf("stored game differs from the returned one: %s", cmp.Diff(got, stored))
			}
			if n := len(Must[[]tttbot.Move](t)(db.Moves(t.Context(), g.ID))); n != 4+tt.wantVersion {
				t.Errorf("got %d moves, want %d", n, 4+tt.wantVersion)
			}
		})
	}
}

func testResign(t *testing.T, newDB Opener) {
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	g := PlayCells(t, db, StartGame(t, db, "c1", "alice", "bob"), 4)
	pending := Challenge("c2", "alice", "bob")
	OK(t, db.StartGame(ctx, pending, nil))

	_, err := db.Resign(ctx, g.ID, "carol", t0, nil)
	WantCode(t, err, tttbot.ENOTYOURS)
	_, err = db.Resign(ctx, pending.ID, "alice", t0, nil)
	WantCode(t, err, tttbot.EINVALID)
	_, err = db.Resign(ctx, 999, "alice", t0, nil)
	WantCode(t, err, tttbot.ENOTFOUND)

	// Either player may resign, on their turn or not.
	got, err := db.Resign(ctx, g.ID, "alice", t0.Add(time.Minute), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != tttbot.StatusFinished || got.Winner != "bob" || got.Reason != tttbot.ReasonResign ||
		got.Turn != "" || !got.Deadline.IsZero() || !got.FinishedAt.Equal(t0.Add(time.Minute)) {
		t.Errorf("got %+v, want finished, won by bob on resignation at %v", got, t0.Add(time.Minute))
	}
	want := []result{{"alice", "bob", "loss", "resign"}, {"bob", "alice", "win", "resign"}}
	if diff := cmp.Diff(want, results(t, db, g.ID)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	_, err = db.Resign(ctx, g.ID, "bob", t0, nil)
	WantCode(t, err, tttbot.EFINISHED)
}

func testDueAndExpire(t *testing.T, newDB Opener) {
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	pending := Challenge("c1", "alice", "bob") // expires at t0+1m
	OK(t, db.StartGame(ctx, pending, nil))
	active := PlayCells(t, db, StartGame(t, db, "c2", "carol", "dave"), 4) // dave to move by t0+3m
	noClock := &tttbot.Game{ChannelID: "c3", Rows: 3, Cols: 3, K: 3, Challenger: "erin", Opponent: "bot",
		BotLevel: "easy", XPlayer: "erin", OPlayer: "bot", Status: tttbot.StatusActive}
	OK(t, db.StartGame(ctx, noClock, nil))
	PlayCells(t, db, StartGame(t, db, "c4", "frank", "grace"), 0, 3, 1, 4, 2) // finished: never due

	ids := func(gs []*tttbot.Game) []int64 {
		out := []int64{}
		for _, g := range gs {
			out = append(out, g.ID)
		}
		return out
	}
	// A game is due tttbot.DeadlineGrace after its deadline, when no click
	// made before the deadline can still be on its way. Each call claims
	// what it lists for tttbot.ClaimLease: later calls pass it by until the
	// claim runs out.
	lease, grace := tttbot.ClaimLease, tttbot.DeadlineGrace
	dueTests := []struct {
		at    time.Time
		limit int
		want  []int64
	}{
		{t0, 10, []int64{}},
		{t0.Add(time.Minute - time.Millisecond), 10, []int64{}},
		{t0.Add(time.Minute), 10, []int64{}},
		{t0.Add(time.Minute + grace - time.Millisecond), 10, []int64{}},
		{t0.Add(time.Minute + grace), 1, []int64{pending.ID}},
		{t0.Add(time.Minute + grace), 10, []int64{}},
		{t0.Add(time.Minute + grace + lease - time.Millisecond), 10, []int64{}},
		{t0.Add(time.Hour), 1, []int64{pending.ID}},
		{t0.Add(time.Hour), 0, []int64{active.ID}},
		{t0.Add(time.Hour + lease), 0, []int64{pending.ID, active.ID}},
	}
	for _, tt := range dueTests {
		got := ids(Must[[]*tttbot.Game](t)(db.Due(ctx, tt.at, tt.limit)))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Due(%v, %d) (-want +got):\n%s", tt.at, tt.limit, diff)
		}
	}

	_, err := db.Expire(ctx, pending.ID, pending.Version+1, t0.Add(time.Hour))
	WantCode(t, err, tttbot.ESTALE)
	_, err = db.Expire(ctx, pending.ID, pending.Version, t0.Add(59*time.Second))
	WantCode(t, err, tttbot.EINVALID)
	_, err = db.Expire(ctx, pending.ID, pending.Version, t0.Add(time.Minute+grace-time.Millisecond))
	WantCode(t, err, tttbot.EINVALID)
	_, err = db.Expire(ctx, noClock.ID, noClock.Version, t0.Add(time.Hour))
	WantCode(t, err, tttbot.EINVALID)
	_, err = db.Expire(ctx, 999, 1, t0.Add(time.Hour))
	WantCode(t, err, tttbot.ENOTFOUND)

	got := Must[*tttbot.Game](t)(db.Expire(ctx, pending.ID, pending.Version, t0.Add(time.Minute+grace)))
	if got.Status != tttbot.StatusExpired || !got.FinishedAt.Equal(t0.Add(time.Minute+grace)) || !got.Deadline.IsZero() {
		t.Errorf("expired challenge: got %+v, want expired at %v with no deadline", got, t0.Add(time.Minute+grace))
	}
	_, err = db.Expire(ctx, pending.ID, got.Version, t0.Add(time.Hour))
	WantCode(t, err, tttbot.EFINISHED)

	got = Must[*tttbot.Game](t)(db.Expire(ctx, active.ID, active.Version, t0.Add(3*time.Minute+grace)))
	if got.Status != tttbot.StatusFinished || got.Reason != tttbot.ReasonTimeout || got.Winner != "carol" {
		t.Errorf("timed out game: got status %s reason %s winner %q, want finished on timeout, won by carol",
			got.Status, got.Reason, got.Winner)
	}
	want := []result{{"carol", "dave", "win", "timeout"}, {"dave", "carol", "loss", "timeout"}}
	if diff := cmp.Diff(want, results(t, db, active.ID)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if left := Must[[]*tttbot.Game](t)(db.Due(ctx, t0.Add(2*time.Hour), 0)); len(left) != 0 {
		t.Errorf("due after expiring: got %d games, want none", len(left))
	}
}

func testOpenGame(t *testing.T, newDB Opener) {
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	g1 := StartGame(t, db, "c1", "alice", "bob")
	g2 := Challenge("c1", "carol", "dave")
	OK(t, db.StartGame(ctx, g2, nil))
	StartGame(t, db, "c2", "alice", "erin")

	tests := []struct {
		channel, user string
		want          int64
	}{
		{"c1", "alice", g1.ID},
		{"c1", "bob", g1.ID},
		{"c1", "dave", g2.ID},
		{"c1", "erin", 0},
		{"c3", "alice", 0},
	}
	for _, tt := range tests {
		got, err := db.OpenGame(ctx, tt.channel, tt.user)
		if tt.want == 0 {
			WantCode(t, err, tttbot.ENOTFOUND)
			continue
		}
		if err != nil || got.ID != tt.want {
			t.Errorf("OpenGame(%s, %s): got %v, %v; want game %d", tt.channel, tt.user, got, err, tt.want)
		}
	}
	Must[*tttbot.Game](t)(db.Resign(ctx, g1.ID, "bob", t0, nil))
	_, err := db.OpenGame(ctx, "c1", "alice")
	WantCode(t, err, tttbot.ENOTFOUND)
}

func testSetMessageAndPlayers(t *testing.T, newDB Opener) {
	now := t0
	db := newDB(t, Options{Now: func() time.Time { return now }})
	ctx := t.Context()
	g := StartGame(t, db, "c1", "alice", "bob")
	// The same message learnt again is not written again: the game keeps
	// the time of the first; another message is written.
	for _, tt := range []struct {
		set     string
		want    string
		updated time.Time
	}{
		{"m1", "m1", t0.Add(time.Second)},
		{"m1", "m1", t0.Add(time.Second)},
		{"m2", "m2", t0.Add(3 * time.Second)},
	} {
		now = now.Add(time.Second)
		OK(t, db.SetMessage(ctx, g.ID, tt.set))
		got := Must[*tttbot.Game](t)(db.Game(ctx, g.ID))
		if got.MessageID != tt.want || got.Version != g.Version || !got.UpdatedAt.Equal(tt.updated) {
			t.Errorf("after SetMessage %q: got message %q, version %d, updated %v; want %s, version %d unchanged, updated %v",
				tt.set, got.MessageID, got.Version, got.UpdatedAt, tt.want, g.Version, tt.updated)
		}
	}
	WantCode(t, db.SetMessage(ctx, 999, "m1"), tttbot.ENOTFOUND)

	// StartGame records the names it is given, a new one over the old,
	// and keeps those it is not.
	for i, name := range []string{"Alice", "Alice B."} {
		g := &tttbot.Game{ChannelID: "n" + strconv.Itoa(i), Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "dave",
			Status: tttbot.StatusPending, Deadline: t0.Add(time.Minute)}
		if err := db.StartGame(ctx, g, nil, tttbot.Player{ID: "alice", Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	g2 := &tttbot.Game{ChannelID: "c2", Rows: 3, Cols: 3, K: 3, Challenger: "carol", Opponent: "alice",
		Status: tttbot.StatusPending, Deadline: t0.Add(time.Minute)}
	if err := db.StartGame(ctx, g2, nil, tttbot.Player{ID: "carol", Name: "Carol"}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"carol": "Carol", "alice": "Alice B."} {
		var got string
		if err := db.SQL.QueryRow("SELECT name FROM players WHERE id = $1", id).Scan(&got); err != nil || got != want {
			t.Errorf("%s: got name %q (%v), want %q", id, got, err, want)
		}
	}

	moves, err := db.Moves(ctx, g.ID)
	if err != nil || moves == nil || len(moves) != 0 {
		t.Errorf("moves of a new game: got %v, %v; want an empty list", moves, err)
	}
	_, err = db.Moves(ctx, 999)
	WantCode(t, err, tttbot.ENOTFOUND)

	// GameMoves reads what Game and Moves do, in one statement.
	played := PlayCells(t, db, StartGame(t, db, "c3", "dave", "erin"), 4, 0, 8)
	for _, id := range []int64{g.ID, played.ID} {
		gotGame, gotMoves, err := db.GameMoves(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		wantGame, wantMoves := Must[*tttbot.Game](t)(db.Game(ctx, id)), Must[[]tttbot.Move](t)(db.Moves(ctx, id))
		if !cmp.Equal(gotGame, wantGame) || !cmp.Equal(gotMoves, wantMoves) {
			t.Errorf("game %d: GameMoves got %+v, %v; want %+v, %v", id, gotGame, gotMoves, wantGame, wantMoves)
		}
	}
	_, _, err = db.GameMoves(ctx, 999)
	WantCode(t, err, tttbot.ENOTFOUND)
}

func testInternalErrors(t *testing.T, newDB Opener) {
	db := newDB(t, Options{})
	g := StartGame(t, db, "c1", "alice", "bob")

	// A failure of the database is internal (commands shows players a
	// generic text for it).
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := db.Play(ctx, Click(g, "alice", 0), nil)
	WantCode(t, err, tttbot.EINTERNAL)

	// So is a board that does not parse: refused, not a panic.
	if _, err := db.SQL.Exec("UPDATE games SET board = 'XXX/XXX/XXX' WHERE id = $1", g.ID); err != nil {
		t.Fatal(err)
	}
	_, err = db.Play(t.Context(), Click(g, "alice", 0), nil)
	WantCode(t, err, tttbot.EINTERNAL)
	if n := len(Must[[]tttbot.Move](t)(db.Moves(t.Context(), g.ID))); n != 0 {
		t.Errorf("got %d moves, want 0", n)
	}
}
