package main

import (
	"crypto/ed25519"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// dailyPosts are the daily puzzle posts among msgs.
func dailyPosts(msgs []*discordtest.Message) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range msgs {
		if strings.Contains(m.Text(), "Daily puzzle of") {
			out = append(out, m)
		}
	}
	return out
}

// TestDailyEndToEnd, in both modes: an admin sets the daily puzzle at
// 13:00 UTC; nothing is posted before, the clock moves to the hour and the
// day's puzzle is posted once, with no board; two members open it with
// Solve, each privately, and solve it by its line; the post's count of
// solvers and fastest follow.
func TestDailyEndToEnd(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		admin := h.srv.NewAdminUser("admin")
		ch := h.srv.NewChannel()
		h.adminSays(t, admin, ch, "puzzle", []discordtest.Option{discordtest.ChannelOption("channel", ch), discordtest.IntOption("hour", 13)},
			"Daily puzzle", "13:00 UTC")
		h.show(t, admin, ch, "**Daily puzzle**: in <#"+ch+"> at 13:00 UTC")
		if got := dailyPosts(h.srv.Messages(ch)); len(got) != 0 {
			t.Fatalf("posted before its hour: %s", got[0])
		}
		h.clock.Advance(time.Hour) // 13:00
		post := h.posts(t, ch, "the daily post", func(ms []*discordtest.Message) bool { return len(dailyPosts(ms)) == 1 })
		p, err := play.DailyPuzzle(h.clock.Now())
		if err != nil {
			t.Fatal(err)
		}
		msg := dailyPosts(post)[0]
		if !strings.Contains(msg.Text(), "Daily puzzle of 2026-11-22") || len(msg.Buttons()) != 1 {
			t.Fatalf("post:\n%s", msg)
		}
		solve := msg.Button(t, "Solve").CustomID
		for n, m := range []struct {
			name string
			took time.Duration
		}{{"ann", 40 * time.Second}, {"bob", 15 * time.Second}} {
			u := h.srv.NewUser(m.name)
			board := h.srv.Click(t, u, msg, solve).Result(t)
			if !board.Ephemeral() || !strings.Contains(board.Text(), "find the forced win") {
				t.Fatalf("Solve by %s: %s, want a private board", m.name, board)
			}
			h.clock.Advance(m.took)
			for i := 0; i < len(p.Line); i += 2 {
				board = h.srv.Click(t, u, board, puzzleCell(t, board, p.Line[i].Cell).CustomID).Result(t)
			}
			if !strings.Contains(board.Text(), "Solved!") {
				t.Fatalf("%s after the line: %s", m.name, board)
			}
			want := []string{"Solved so far: 1", "Fastest: " + u.Mention() + " 40 seconds"}
			if n == 1 {
				want = []string{"Solved so far: 2", "Fastest: " + u.Mention() + " 15 seconds, "}
			}
			h.srv.WaitMessage(t, ch, msg.ID, func(m *discordtest.Message) bool {
				return strings.Contains(m.Text(), want[0]) && strings.Contains(m.Text(), want[1])
			})
		}
		h.clock.Advance(time.Hour)
		h.restart() // a restart the same day posts nothing more
		h.srv.Slash(t, admin, ch, "ttt help").Wait(t)
		if got := dailyPosts(h.srv.Messages(ch)); len(got) != 1 {
			t.Errorf("posted %d times, want once", len(got))
		}
	})
}

// TestDailySeveralInstances: two bot processes on one PostgreSQL database,
// their timers ticking at once when a server's daily puzzle falls due,
// post it once.
func TestDailySeveralInstances(t *testing.T) {
	url := pgtest.URL(t)
	key := ed25519.NewKeyFromSeed([]byte("tttbot-e2e-daily-key-0123456789a"))
	srv := discordtest.NewServerWith(t, discordtest.Options{Timeout: 30 * time.Second})
	a := startInstance(t, "a", srv, key, url)
	b := startInstance(t, "b", srv, key, url)
	srv.UseEndpoint("http://"+a.addr+"/interactions", key, time.Now)
	admin := srv.NewAdminUser("admin")
	ch := srv.NewChannel()
	// The instances run on the real clock: the hour set is the next, and
	// the test brings the stored next post forward to now, as the hour's
	// coming would.
	hour := (time.Now().UTC().Hour() + 1) % 24
	r := srv.Slash(t, admin, ch, "ttt-admin puzzle", discordtest.ChannelOption("channel", ch), discordtest.IntOption("hour", hour)).Wait(t)
	if !strings.Contains(r.Message.Text(), "Daily puzzle") {
		t.Fatalf("/ttt-admin puzzle: %s", r.Message)
	}
	db, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(t.Context())
	if _, err := db.Exec(t.Context(), "UPDATE guilds SET daily_due = $1 WHERE daily_channel_id = $2", time.Now().UnixMilli(), ch); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the daily post", func() bool { return len(dailyPosts(srv.Messages(ch))) > 0 })
	for _, in := range []*instance{a, b} {
		since := storeCalls(t, in.addr, "DueDaily")
		waitFor(t, 30*time.Second, in.name+"'s daily timer to tick three times", func() bool {
			return storeCalls(t, in.addr, "DueDaily") >= since+3
		})
	}
	if n := len(dailyPosts(srv.Messages(ch))); n != 1 {
		t.Errorf("posted %d times, want once", n)
	}
}
