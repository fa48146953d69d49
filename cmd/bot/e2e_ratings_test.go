package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// play makes the moves, by cell, on a board in turn: X first.
func (h *harness) play(board *discordtest.Message, x, o discordtest.User, moves ...int) (*discordtest.Message, *discordtest.Interaction) {
	h.t.Helper()
	var in *discordtest.Interaction
	for n, c := range moves {
		who := x
		if n%2 == 1 {
			who = o
		}
		in = h.srv.Click(h.t, who, board, cells(board)[c].CustomID)
		board = in.Result(h.t)
	}
	return board, in
}

// startGame has x challenge o with x moving first, and o accept.
func (h *harness) startGame(ch string, x, o discordtest.User, opts ...discordtest.Option) *discordtest.Message {
	h.t.Helper()
	opts = append(opts, discordtest.UserOption("opponent", o), discordtest.StringOption("first", "me"))
	msg := h.srv.Slash(h.t, x, ch, "ttt challenge", opts...).Result(h.t)
	return h.srv.Click(h.t, o, msg, msg.Button(h.t, "Accept").CustomID).Result(h.t)
}

// wantSays fails unless m's content has every one of want.
func wantSays(t *testing.T, m *discordtest.Message, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(m.Text(), w) {
			t.Errorf("message lacks %q:\n%s", w, m)
		}
	}
}

var gameNumber = regexp.MustCompile(`game #(\d+)`)

// TestRatedGameEndToEnd plays a rated game and looks back on it: the
// Review button on the board, stats, history with a replay stepping through
// the moves, and /ttt review.
func TestRatedGameEndToEnd(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.srv.NewUser("alice"), h.srv.NewUser("bob"), h.srv.NewUser("carol")
	ch := h.srv.NewChannel()

	// alice (X) opens in a corner; bob's edge reply loses, as the review
	// will say.
	board, _ := h.play(h.startGame(ch, alice, bob), alice, bob, 0, 1, 3, 4, 6)
	wantSays(t, board, alice.Mention()+" wins")
	grid := board.Grid()
	last := grid[len(grid)-1]
	if len(last) != 2 || last[0].Label != "Rematch" || last[1].Label != "Review" {
		t.Fatalf("want Rematch and Review side by side under the board:\n%s", board)
	}

	review := h.srv.Click(t, bob, board, last[1].CustomID).Wait(t)
	if !review.Ephemeral() {
		t.Fatalf("review is public, want it private: %s", review.Data)
	}
	r := review.Message
	wantSays(t, r, "Review of game #", "**1.** ❌ A1 — ✅ best", "**2.** ⭕ B1 — ❗ mistake: gives away the draw; B2 holds it",
		"**5.** ❌ A3 — ✅ best: wins by force", "Page 1 of 1", "```")
	if strings.Count(r.Text(), "**") < 2*6 {
		t.Errorf("want a line for each of the 5 moves:\n%s", r)
	}
	id := gameNumber.FindStringSubmatch(r.Text())[1]

	// Ratings: a win for alice, a loss for bob, nobody ranked yet.
	stats := h.srv.Slash(t, alice, ch, "ttt stats").Result(t)
	if stats.Ephemeral() {
		t.Errorf("stats are private, want them public:\n%s", stats)
	}
	wantSays(t, stats, "Stats of "+alice.Mention(), "3×3, 3 in a row", "1 won, 0 lost, 0 drawn", "ranked after 4 more games", "1 win in a row")
	stats = h.srv.Slash(t, carol, ch, "ttt stats", discordtest.UserOption("user", bob)).Result(t)
	wantSays(t, stats, "Stats of "+bob.Mention(), "0 won, 1 lost, 0 drawn", "1 loss in a row")
	empty := h.srv.Slash(t, carol, ch, "ttt leaderboard").Result(t)
	wantSays(t, empty, "Nobody is ranked here yet")

	// History, then the game's replay, step by step.
	hist := h.srv.Slash(t, bob, ch, "ttt history").Result(t)
	if !hist.Ephemeral() {
		t.Errorf("history is public, want it private:\n%s", hist)
	}
	wantSays(t, hist, "Last games of "+bob.Mention(), "❌ lost to "+alice.Mention(), "game #"+id)
	replay := h.srv.Click(t, bob, hist, hist.Button(t, "Replay 1").CustomID).Result(t)
	wantSays(t, replay, "Replay of game #"+id, "Move 5 of 5: ❌ "+alice.Mention()+" played A3.", alice.Mention()+" wins",
		"```\n   A  B  C \n1  X  O  · \n2  X  O  · \n3 [X] ·  · \n```")
	replay = h.srv.Click(t, bob, replay, replay.Button(t, "⏮").CustomID).Result(t)
	wantSays(t, replay, "The empty board; 5 moves to go.", "1  ·  ·  · ")
	replay = h.srv.Click(t, bob, replay, replay.Button(t, "▶").CustomID).Result(t)
	wantSays(t, replay, "Move 1 of 5: ❌ "+alice.Mention()+" played A1.", "1 [X] ·  · ")
	replay = h.srv.Click(t, bob, replay, replay.Button(t, "▶").CustomID).Result(t)
	wantSays(t, replay, "Move 2 of 5: ⭕ "+bob.Mention()+" played B1.", "1  X [O] · ")
	replay = h.srv.Click(t, bob, replay, replay.Button(t, "◀").CustomID).Result(t)
	wantSays(t, replay, "Move 1 of 5")
	replay = h.srv.Click(t, bob, replay, replay.Button(t, "⏭").CustomID).Result(t)
	wantSays(t, replay, "Move 5 of 5")
	for _, b := range replay.Buttons() {
		if want := b.Label == "▶" || b.Label == "⏭"; b.Disabled != want {
			t.Errorf("at the end, button %q: got disabled %v, want %v", b.Label, b.Disabled, want)
		}
	}
	fromReplay := h.srv.Click(t, bob, replay, replay.Button(t, "Review").CustomID).Result(t)
	wantSays(t, fromReplay, "Review of game #"+id)

	// Anyone on the server may review a game played there.
	byCommand := h.srv.Slash(t, carol, ch, "ttt review", discordtest.IntOption("game", atoi(t, id))).Result(t)
	if byCommand.Text() != r.Text() {
		t.Errorf("/ttt review and the Review button differ:\n%s\n%s", byCommand, r)
	}

	// What cannot be looked back on.
	live := h.startGame(h.srv.NewChannel(), carol, bob)
	liveID := strings.Split(cells(live)[0].CustomID, ":")[2]
	for _, tt := range []struct {
		name string
		game int
		want string
	}{
		{"unknown game", 99999, "doesn't exist"},
		{"game not over", atoi(t, liveID), "isn't over yet"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantEphemeral(t, h.srv.Slash(t, alice, ch, "ttt review", discordtest.IntOption("game", tt.game)).Wait(t), tt.want)
		})
	}
	dm := h.srv.NewDMChannel()
	wantEphemeral(t, h.srv.Slash(t, carol, dm, "ttt review", discordtest.IntOption("game", atoi(t, id))).Wait(t), "played elsewhere")
	wantEphemeral(t, h.srv.Slash(t, carol, dm, "ttt leaderboard", discordtest.StringOption("scope", "server")).Wait(t), "no server here")
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}

// TestLeaderboardEndToEnd seeds 23 ranked players through the store, on the
// bot's own database, and pages through the leaderboard with its buttons.
func TestLeaderboardEndToEnd(t *testing.T) {
	h := newHarness(t)
	ctx := t.Context()
	db, err := sqlite.Open(ctx, h.db, sqlite.Options{Now: h.clock.Now, SimultaneousGames: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 23
	var users []discordtest.User
	for i := range n {
		users = append(users, h.srv.NewUser(fmt.Sprint("player", i)))
	}
	// The games record the players' names, as a challenge does.
	player := func(i int) tttbot.Player {
		return tttbot.Player{ID: users[i].ID, Name: fmt.Sprintf("Player %02d", i)}
	}
	// Three rounds in which everyone plays the players 1 to 3 places down
	// the list, and the one higher on the list wins: the list is the
	// ranking.
	for d := 1; d <= 3; d++ {
		for i := range n {
			a, b := users[i], users[(i+d)%n]
			g := &tttbot.Game{GuildID: h.srv.GuildID(), ChannelID: "seed", Rows: 3, Cols: 3, K: 3, Challenger: a.ID, Opponent: b.ID,
				XPlayer: a.ID, OPlayer: b.ID, Status: tttbot.StatusActive}
			if err := db.StartGame(ctx, g, nil, player(i), player((i+d)%n)); err != nil {
				t.Fatal(err)
			}
			loser := b
			if i+d >= n {
				loser = a
			}
			if _, err := db.Resign(ctx, g.ID, loser.ID, h.clock.Now(), nil); err != nil {
				t.Fatal(err)
			}
		}
	}

	viewer := h.srv.NewUser("viewer")
	ch := h.srv.NewChannel()
	page := h.srv.Slash(t, viewer, ch, "ttt leaderboard").Result(t)
	wantSays(t, page, "Leaderboard** · this server · 3×3, 3 in a row", "Page 1 of 3 · 23 players", "**1.** "+users[0].Mention(), "**10.** ")
	if b := page.Button(t, "◀ Previous"); !b.Disabled {
		t.Errorf("Previous is enabled on the first page:\n%s", page)
	}
	seen := map[string]int{}
	line := regexp.MustCompile(`\*\*(\d+)\.\*\* <@(\d+)>`)
	collect := func(m *discordtest.Message) {
		for _, l := range line.FindAllStringSubmatch(m.Text(), -1) {
			seen[l[2]] = atoi(t, l[1])
		}
	}
	collect(page)
	page = h.srv.Click(t, viewer, page, page.Button(t, "Next ▶").CustomID).Result(t)
	wantSays(t, page, "Page 2 of 3", "**11.** ")
	collect(page)
	page = h.srv.Click(t, viewer, page, page.Button(t, "Next ▶").CustomID).Result(t)
	wantSays(t, page, "Page 3 of 3", "**23.** ")
	collect(page)
	if b := page.Button(t, "Next ▶"); !b.Disabled {
		t.Errorf("Next is enabled on the last page:\n%s", page)
	}
	page = h.srv.Click(t, viewer, page, page.Button(t, "◀ Previous").CustomID).Result(t)
	wantSays(t, page, "Page 2 of 3")
	if len(seen) != n {
		t.Errorf("the pages list %d players, want %d: %v", len(seen), n, seen)
	}
	// player0 won every game it played; each player's stats give their
	// place on the board.
	if seen[users[0].ID] != 1 {
		t.Errorf("%s is ranked %d, want 1", users[0].Username, seen[users[0].ID])
	}
	for _, i := range []int{0, 11, 22} {
		st := h.srv.Slash(t, users[i], ch, "ttt stats").Result(t)
		wantSays(t, st, fmt.Sprintf("#%d on this server", seen[users[i].ID]))
	}

	global := h.srv.Slash(t, viewer, h.srv.NewDMChannel(), "ttt leaderboard").Result(t)
	wantSays(t, global, "Leaderboard** · everyone", "**1.** Player 00", "Page 1 of 3")
	other := h.srv.Slash(t, viewer, ch, "ttt leaderboard", discordtest.StringOption("scope", "global"), discordtest.IntOption("size", 4)).Result(t)
	wantSays(t, other, "everyone · 4×4, 4 in a row", "Nobody is ranked")
	wantEphemeral(t, h.srv.Slash(t, viewer, ch, "ttt leaderboard", discordtest.IntOption("size", 3), discordtest.IntOption("win", 5)).Wait(t), "5 in a row does not fit on a 3×3 board: its win length is 3.")
	wantEphemeral(t, h.srv.Slash(t, viewer, ch, "ttt leaderboard", discordtest.IntOption("size", 4), discordtest.IntOption("win", 5)).Wait(t), "5 in a row does not fit on a 4×4 board: pick a win length from 3 to 4.")
}

// TestReviewPagesEndToEnd reviews a drawn 4×4 game, 16 moves on two pages,
// and a 5×5 game, whose Review button is on its board below the five rows.
func TestReviewPagesEndToEnd(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")

	// XXOO / OOXX / XXOO / OOXX: no four in a row anywhere.
	board, _ := h.play(h.startGame(h.srv.NewChannel(), alice, bob, discordtest.IntOption("size", 4)), alice, bob,
		0, 2, 1, 3, 6, 4, 7, 5, 8, 10, 9, 11, 14, 12, 15, 13)
	wantSays(t, board, "Draw")
	r := h.srv.Click(t, alice, board, board.Button(t, "Review").CustomID).Result(t)
	wantSays(t, r, "Page 1 of 2", "**9.** ", "4×4, 4 in a row")
	if strings.Contains(r.Text(), "**10.**") {
		t.Errorf("page 1 goes past move 9:\n%s", r)
	}
	r = h.srv.Click(t, alice, r, r.Button(t, "Next ▶").CustomID).Result(t)
	wantSays(t, r, "Page 2 of 2", "**10.** ", "**16.** ")
	r = h.srv.Click(t, alice, r, r.Button(t, "◀ Previous").CustomID).Result(t)
	wantSays(t, r, "Page 1 of 2", "**1.** ")

	// 5×5 against the bot: Rematch and Review below the board's five rows.
	ch := h.srv.NewChannel()
	board = h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.IntOption("size", 5), discordtest.StringOption("first", "me")).Result(t)
	board = h.playBot(alice, board)
	r = h.srv.Click(t, alice, board, board.Button(t, "Review").CustomID).Result(t)
	wantSays(t, r, "Review of game #", "5×5, 4 in a row", "**1.** ❌ ")
	if len(r.Text()) > 2000 {
		t.Errorf("review page of %d bytes", len(r.Text()))
	}
}
