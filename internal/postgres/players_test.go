package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tttbot/tttbot"
)

// A game waits for no lock on its players' rows when their names stand: the
// bot's row is in every game against it, on every instance. A rename still
// lands.
func TestCreateGameLocksNoUnchangedPlayer(t *testing.T) {
	db, url := newDB(t, Options{SimultaneousGames: true})
	first := &tttbot.Game{ChannelID: "c1", Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bot",
		BotLevel: "easy", XPlayer: "alice", OPlayer: "bot", Turn: "alice", Status: tttbot.StatusActive}
	if err := db.StartGame(t.Context(), first, nil, tttbot.Player{ID: "alice", Name: "Alice"}, tttbot.Player{ID: "bot", Name: "tttbot"}); err != nil {
		t.Fatal(err)
	}

	// Another transaction holds the bot's row as an update does (the
	// lock ON CONFLICT DO UPDATE takes), to its commit; the games that
	// refer to the row still may.
	cfg, err := parse(url)
	if err != nil {
		t.Fatal(err)
	}
	holder, err := pgx.ConnectConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(context.Background())
	tx, err := holder.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(t.Context(), "SELECT FROM players WHERE id = 'bot' FOR NO KEY UPDATE"); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	second := &tttbot.Game{ChannelID: "c2", Rows: 3, Cols: 3, K: 3, Challenger: "carol", Opponent: "bot",
		BotLevel: "easy", XPlayer: "carol", OPlayer: "bot", Turn: "carol", Status: tttbot.StatusActive}
	if err := db.StartGame(ctx, second, nil, tttbot.Player{ID: "carol", Name: "Carol"}, tttbot.Player{ID: "bot", Name: "tttbot"}); err != nil {
		t.Fatalf("create a game while the bot's row is held: %v", err)
	}
	tx.Rollback(t.Context())

	third := &tttbot.Game{ChannelID: "c3", Rows: 3, Cols: 3, K: 3, Challenger: "alice", Opponent: "bot",
		BotLevel: "easy", XPlayer: "alice", OPlayer: "bot", Turn: "alice", Status: tttbot.StatusActive}
	if err := db.StartGame(t.Context(), third, nil, tttbot.Player{ID: "alice", Name: "Alice B."}, tttbot.Player{ID: "bot"}); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	rows, err := holder.Query(t.Context(), "SELECT id, name FROM players")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, name string
		if err := rows.Scan(&id, &name); err != nil {
			t.Fatal(err)
		}
		names[id] = name
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if names["alice"] != "Alice B." || names["bot"] != "tttbot" || names["carol"] != "Carol" {
		t.Errorf("got names %v, want alice renamed, the bot's kept without a name given, carol added", names)
	}
}
