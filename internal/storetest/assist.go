package storetest

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot"
)

// testAssist: a hint marks a game against the bot without moving its
// version, so the board's buttons stay good, and the game then counts in
// no record against the bot; its result stays in the history.
func testAssist(t *testing.T, newDB Opener) {
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	people := StartGame(t, db, "c2", "alice", "bob")
	g := &tttbot.Game{GuildID: "guild", ChannelID: "c1", Rows: 3, Cols: 3, K: 3, Challenger: "carol", Opponent: "bot",
		BotLevel: "easy", XPlayer: "carol", OPlayer: "bot", Status: tttbot.StatusActive}
	OK(t, db.StartGame(ctx, g, nil))

	refusals := []struct {
		name    string
		id      int64
		user    string
		version int
		want    string
	}{
		{"a stranger", g.ID, "dave", g.Version, tttbot.ENOTYOURS},
		{"an old board", g.ID, "carol", g.Version - 1, tttbot.ESTALE},
		{"no such game", 999, "carol", 1, tttbot.ENOTFOUND},
		{"a game between people", people.ID, people.Turn, people.Version, tttbot.EINVALID},
	}
	for _, tt := range refusals {
		_, err := db.Assist(ctx, tt.id, tt.user, tt.version)
		if tttbot.ErrorCode(err) != tt.want {
			t.Errorf("%s: got error %v, want code %s", tt.name, err, tt.want)
		}
	}
	if got := Must[*tttbot.Game](t)(db.Game(ctx, people.ID)); got.Assisted {
		t.Errorf("a refused hint marked game %d", people.ID)
	}

	got := Must[*tttbot.Game](t)(db.Assist(ctx, g.ID, "carol", g.Version))
	if !got.Assisted || got.Version != g.Version {
		t.Errorf("got assisted %v at version %d, want assisted at version %d", got.Assisted, got.Version, g.Version)
	}
	if again := Must[*tttbot.Game](t)(db.Game(ctx, g.ID)); !again.Assisted || again.Version != g.Version {
		t.Errorf("read back: got assisted %v at version %d, want assisted at version %d", again.Assisted, again.Version, g.Version)
	}
	// The board the player saw before the hint still takes the moves, the
	// last one with the game as seen before the hint (Play's seen, as a
	// bot remembering its last write passes it): the hint stands.
	g = PlayCells(t, db, g, xWins[:len(xWins)-1]...)
	seen := *g
	seen.Assisted = false
	g = Must[*tttbot.Game](t)(db.Play(ctx, Click(g, g.Turn, xWins[len(xWins)-1]), &seen))
	if g.Status != tttbot.StatusFinished || !g.Assisted {
		t.Fatalf("got %s %q, assisted %v; want finished and assisted", g.Status, g.Board, g.Assisted)
	}
	if _, err := db.Assist(ctx, g.ID, "carol", g.Version); tttbot.ErrorCode(err) != tttbot.EFINISHED {
		t.Errorf("a hint after the end: got error %v, want code %s", err, tttbot.EFINISHED)
	}
	st := Must[*tttbot.Stats](t)(db.Stats(ctx, "guild", "carol"))
	if diff := gocmp.Diff(&tttbot.Stats{Player: "carol"}, st); diff != "" {
		t.Errorf("carol's stats after a game with a hint (-want +got):\n%s", diff)
	}
	if h := Must[[]tttbot.HistoryEntry](t)(db.History(ctx, "carol", "guild", 10)); len(h) != 1 || h[0].GameID != g.ID {
		t.Errorf("got history %+v, want the game with a hint", h)
	}
}
