package main

import (
	"crypto/ed25519"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// posts waits until the channel's messages satisfy ok and returns them.
func (h *harness) posts(t *testing.T, ch, what string, ok func([]*discordtest.Message) bool) []*discordtest.Message {
	t.Helper()
	var got []*discordtest.Message
	waitFor(t, 10*time.Second, what, func() bool {
		got = h.srv.Messages(ch)
		return ok(got)
	})
	return got
}

// boards are the game boards among msgs, oldest first.
func boards(msgs []*discordtest.Message) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range msgs {
		if len(cells(m)) > 0 {
			out = append(out, m)
		}
	}
	return out
}

// toMove is whichever of players the board asks to move.
func toMove(t *testing.T, board *discordtest.Message, players []discordtest.User) discordtest.User {
	t.Helper()
	for _, p := range players {
		if strings.Contains(board.Text(), p.Mention()+", your turn") {
			return p
		}
	}
	t.Fatalf("no player to move on:\n%s", board)
	return discordtest.User{}
}

// TestTournamentKnockout: an admin announces a 4-player knockout, members
// join with the button (one leaves and comes back), the organiser starts
// it; a semi-final is won on the board, the other lost on time; the bot
// restarts before the final, which is played to the podium.
func TestTournamentKnockout(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		org := h.srv.NewAdminUser("org")
		var players []discordtest.User
		for _, n := range []string{"ann", "bob", "cat", "dan"} {
			players = append(players, h.srv.NewUser(n))
		}
		ch := h.srv.NewChannel()
		wantEphemeral(t, h.srv.Slash(t, players[0], ch, "ttt tournament create", discordtest.StringOption("name", "Cup"),
			discordtest.StringOption("format", "knockout")).Wait(t), "manage the server")
		ann := h.srv.Slash(t, org, ch, "ttt tournament create", discordtest.StringOption("name", "Cup"),
			discordtest.StringOption("format", "knockout"), discordtest.IntOption("move_seconds", 60)).Result(t)
		if !strings.Contains(ann.Text(), "Cup") || !strings.Contains(ann.Text(), "Players: 0") {
			t.Fatalf("announcement:\n%s", ann)
		}
		join, leave := ann.Button(t, "Join").CustomID, ann.Button(t, "Leave").CustomID
		for _, p := range players {
			ann = h.srv.Click(t, p, ann, join).Result(t)
		}
		wantEphemeral(t, h.srv.Click(t, players[0], ann, join).Wait(t), "already in this tournament")
		ann = h.srv.Click(t, players[3], ann, leave).Result(t)
		if !strings.Contains(ann.Text(), "Players: 3") {
			t.Fatalf("after a player left:\n%s", ann)
		}
		ann = h.srv.Click(t, players[3], ann, join).Result(t)
		wantEphemeral(t, h.srv.Slash(t, players[0], ch, "ttt tournament start", discordtest.IntOption("id", 1)).Wait(t), "organiser")
		wantEphemeral(t, h.srv.Slash(t, org, ch, "ttt tournament start", discordtest.IntOption("id", 1)).Wait(t), "has started")

		msgs := h.posts(t, ch, "round 1 and its two boards", func(ms []*discordtest.Message) bool { return len(boards(ms)) == 2 })
		if !slices.ContainsFunc(msgs, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "— round 1 of 2") }) {
			t.Fatalf("no pairings of round 1 among %d messages", len(msgs))
		}
		semis := boards(msgs)
		// Semi-final 1 is played out: X takes the top row.
		board := semis[0]
		for _, c := range []int{0, 3, 1, 4, 2} {
			board = h.srv.Click(t, toMove(t, board, players), board, cells(board)[c].CustomID).Result(t)
		}
		winner := ""
		for _, p := range players {
			if strings.Contains(board.Text(), p.Mention()+" wins") {
				winner = p.Mention()
			}
		}
		// Semi-final 2: one move, then the other player's time runs out.
		b2 := semis[1]
		b2 = h.srv.Click(t, toMove(t, b2, players), b2, cells(b2)[4].CustomID).Result(t)
		h.clock.Advance(time.Minute + tttbot.DeadlineGrace) // the tournament's move timeout, 60 s
		h.srv.WaitMessage(t, ch, b2.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "ran out of time") })
		msgs = h.posts(t, ch, "the final's board", func(ms []*discordtest.Message) bool { return len(boards(ms)) == 3 })
		if winner == "" || !slices.ContainsFunc(msgs, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "— round 2 of 2") }) {
			t.Fatalf("no final: winner %q", winner)
		}

		h.restart()
		final := boards(msgs)[2]
		for _, c := range []int{0, 3, 1, 4, 2} {
			final = h.srv.Click(t, toMove(t, final, players), final, cells(final)[c].CustomID).Result(t)
		}
		msgs = h.posts(t, ch, "the final table", func(ms []*discordtest.Message) bool {
			return slices.ContainsFunc(ms, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "is over!") })
		})
		i := slices.IndexFunc(msgs, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "is over!") })
		table := msgs[i].Text()
		if !strings.Contains(table, "🥇") || !strings.Contains(table, "won the final") || strings.Count(table, "out in round") != 3 || strings.Contains(table, "Buchholz") {
			t.Errorf("final table:\n%s", table)
		}
		r := h.srv.Slash(t, players[1], ch, "ttt tournament standings", discordtest.IntOption("id", 1)).Wait(t)
		if r.Ephemeral() || !strings.Contains(r.Message.Text(), "is over!") {
			t.Errorf("standings after the end: %s", r.Data)
		}
		// /ttt stats lists the player's place.
		stats := h.srv.Slash(t, players[1], ch, "ttt stats").Result(t)
		if !strings.Contains(stats.Text(), "Tournaments: Cup: ") || !strings.Contains(stats.Text(), " of 4") {
			t.Errorf("stats after the tournament:\n%s", stats.Text())
		}
	})
}

// playOut plays board to its end, the player to move taking the first
// free cell each turn, and returns the last board.
func (h *harness) playOut(t *testing.T, board *discordtest.Message, players []discordtest.User) *discordtest.Message {
	t.Helper()
	for range 10 {
		free := freeCells(board)
		if len(free) == 0 {
			return board
		}
		board = h.srv.Click(t, toMove(t, board, players), board, free[0].CustomID).Result(t)
	}
	t.Fatalf("game did not end:\n%s", board)
	return nil
}

// TestTournamentSwiss: an 8-player Swiss of 3 rounds from sign-up to the
// final table; a player leaves in round 2 (their game is lost and they are
// paired no more), so round 3 has a bye.
func TestTournamentSwiss(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		org := h.srv.NewAdminUser("org")
		var players []discordtest.User
		for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
			players = append(players, h.srv.NewUser(n))
		}
		ch := h.srv.NewChannel()
		ann := h.srv.Slash(t, org, ch, "ttt tournament create", discordtest.StringOption("name", "Swiss Cup"),
			discordtest.StringOption("format", "swiss"), discordtest.IntOption("rounds", 3)).Result(t)
		for _, p := range players {
			ann = h.srv.Click(t, p, ann, ann.Button(t, "Join").CustomID).Result(t)
		}
		if !strings.Contains(ann.Text(), "Players: 8") {
			t.Fatalf("announcement:\n%s", ann)
		}
		wantEphemeral(t, h.srv.Slash(t, org, ch, "ttt tournament start", discordtest.IntOption("id", 1)).Wait(t), "has started")
		seen := 0
		for round, games := range []int{4, 4, 3} {
			msgs := h.posts(t, ch, "the round's boards", func(ms []*discordtest.Message) bool { return len(boards(ms)) == seen+games })
			bs := boards(msgs)[seen:]
			seen += games
			if round == 1 {
				// A player of the round's first board leaves: they lose it.
				leaver := toMove(t, bs[0], players)
				h.srv.Click(t, leaver, ann, ann.Button(t, "Leave").CustomID).Wait(t)
				h.srv.WaitMessage(t, ch, bs[0].ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "resigned") })
				bs = bs[1:]
			}
			for _, b := range bs {
				h.playOut(t, b, players)
			}
		}
		msgs := h.posts(t, ch, "the final table", func(ms []*discordtest.Message) bool {
			return slices.ContainsFunc(ms, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "is over!") })
		})
		if !slices.ContainsFunc(msgs, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "has a bye") }) {
			t.Errorf("no bye in round 3")
		}
		i := slices.IndexFunc(msgs, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "is over!") })
		if table := msgs[i].Text(); strings.Count(table, "Buchholz") != 8 || !strings.Contains(table, "🥉") {
			t.Errorf("final table:\n%s", table)
		}
	})
}

// TestTournamentSeveralInstances runs a 4-player knockout on two bot
// processes sharing one PostgreSQL database: the sign-up runs out on both
// at once and round 1 starts once; the games' clicks alternate between the
// instances; the final and the final table are posted once.
func TestTournamentSeveralInstances(t *testing.T) {
	url := pgtest.URL(t)
	key := ed25519.NewKeyFromSeed([]byte("tttbot-e2e-tourney-key-012345678"))
	srv := discordtest.NewServerWith(t, discordtest.Options{Timeout: 30 * time.Second})
	a := startInstance(t, "a", srv, key, url)
	b := startInstance(t, "b", srv, key, url)
	use := func(in *instance) { srv.UseEndpoint("http://"+in.addr+"/interactions", key, time.Now) }
	org := srv.NewAdminUser("org")
	var players []discordtest.User
	for _, n := range []string{"ann", "bob", "cat", "dan"} {
		players = append(players, srv.NewUser(n))
	}
	ch := srv.NewChannel()
	use(a)
	ann := srv.Slash(t, org, ch, "ttt tournament create", discordtest.StringOption("name", "Shared Cup"),
		discordtest.StringOption("format", "knockout"), discordtest.IntOption("signup_minutes", 1)).Result(t)
	for i, p := range players {
		use([]*instance{a, b}[i%2])
		ann = srv.Click(t, p, ann, ann.Button(t, "Join").CustomID).Result(t)
	}
	count := func(text string) int {
		n := 0
		for _, m := range srv.Messages(ch) {
			if strings.Contains(m.Text(), text) {
				n++
			}
		}
		return n
	}
	// The sign-up ends a minute after the announcement, on both instances'
	// clocks.
	waitFor(t, 2*time.Minute, "round 1's boards", func() bool { return len(boards(srv.Messages(ch))) == 2 })
	for _, in := range []*instance{a, b} {
		since := storeCalls(t, in.addr, "DueTournaments")
		waitFor(t, 30*time.Second, in.name+"'s tournament timers to tick three times", func() bool {
			return storeCalls(t, in.addr, "DueTournaments") >= since+3
		})
	}
	if n := count("— round 1 of 2"); n != 1 || len(boards(srv.Messages(ch))) != 2 {
		t.Fatalf("round 1 posted %d times with %d boards, want once with 2", n, len(boards(srv.Messages(ch))))
	}
	turn := 0
	play := func(board *discordtest.Message) {
		for _, c := range []int{0, 3, 1, 4, 2} {
			use([]*instance{a, b}[turn%2])
			turn++
			board = srv.Click(t, toMove(t, board, players), board, cells(board)[c].CustomID).Result(t)
		}
	}
	for _, board := range boards(srv.Messages(ch)) {
		play(board)
	}
	waitFor(t, 30*time.Second, "the final's board", func() bool { return len(boards(srv.Messages(ch))) == 3 })
	play(boards(srv.Messages(ch))[2])
	waitFor(t, 30*time.Second, "the final table", func() bool { return count("is over!") == 1 })
	if n := count("— round 2 of 2"); n != 1 {
		t.Errorf("the final posted %d times, want once", n)
	}
}
