package commands

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/play"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// TestDaily: an admin sets the daily puzzle's channel and hour, shown by
// /ttt-admin show; it is posted once at its hour, without its position;
// two members open it privately with Solve; turned off, it is not posted
// again.
func TestDaily(t *testing.T) {
	clock := testNow // 12:00 UTC
	now := func() time.Time { return clock }
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := ai.New(ai.Options{})
	svc := play.New(db, e, botUser, play.Options{Now: now, Seed: 1})
	msg := &channelPosts{}
	h, err := New(svc, db, e, msg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	svc.AddStarterPuzzles(ctx)
	const guild = "2000"
	admin := func(opts string) *discordgo.Interaction {
		return asAdmin(slash(t, "10", guild, "30", `{"name":"ttt-admin","options":[{"type":1,"name":"puzzle","options":[`+opts+`]}],`+
			`"resolved":{"channels":{"555":{"id":"555","guild_id":"`+guild+`","type":0}}}}`))
	}
	// at stamps i with the clock, as Discord would have.
	at := func(i *discordgo.Interaction) *discordgo.Interaction { i.ID = interactionAt(clock); return i }
	show := func() string {
		return shown(h.Handle(ctx, at(asAdmin(slash(t, "10", guild, "30", `{"name":"ttt-admin","options":[{"type":1,"name":"show"}]}`)))).Response.Data)
	}
	fire := func(at time.Time) int {
		t.Helper()
		clock = at
		n, err := svc.FireDaily(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	wantRefused(t, h.Handle(ctx, admin(`{"type":7,"name":"channel","value":"555"}`)), "invalid", "Give a channel and an hour")
	if r := h.Handle(ctx, admin(`{"type":7,"name":"channel","value":"555"},{"type":4,"name":"hour","value":13}`)); r.Code != "" {
		t.Fatalf("set: %q %+v", r.Code, r.Response.Data)
	}
	if s := show(); !strings.Contains(s, "**Daily puzzle**: in <#555> at 13:00 UTC") {
		t.Errorf("show: %q", s)
	}
	if n := fire(testNow.Add(time.Hour - time.Second)); n != 0 || len(msg.sent) != 0 {
		t.Fatalf("before its hour: %d posted", n)
	}
	if n := fire(testNow.Add(time.Hour)); n != 1 || len(msg.sent) != 1 {
		t.Fatalf("at its hour: %d posted, want 1", n)
	}
	if n := fire(testNow.Add(2 * time.Hour)); n != 0 || len(msg.sent) != 1 {
		t.Fatalf("later that day: %d posted again", n)
	}
	want, err := play.DailyPuzzle(testNow)
	if err != nil {
		t.Fatal(err)
	}
	post := msg.sent[0]
	if s := shown(post); !strings.Contains(s, "Daily puzzle of 2026-11-23 · 4×4, 3 in a row") {
		t.Errorf("post: %q", s)
	}
	ids := buttonIDs(post)
	if len(ids) != 1 || ids[0] != "ttt:zd:"+want.ID {
		t.Fatalf("post's buttons %v, want Solve of %s alone: no board in the channel", ids, want.ID)
	}
	// Two members open it privately and solve it by its line, the second
	// faster; each solve brings the post up to date through the edit
	// queue, its version the count of solvers.
	for n, member := range []struct {
		id   string
		took time.Duration
	}{{"20", 50 * time.Second}, {"21", 12 * time.Second}} {
		r := h.Handle(ctx, at(click(member.id, guild, "555", "901", "555", ids[0])))
		d := r.Response.Data
		if r.Code != "" || d.Flags&discordgo.MessageFlagsEphemeral == 0 || !strings.Contains(shown(d), "Puzzle · 4×4, 3 in a row") ||
			len(buttonIDs(d)) < 16 || !strings.HasPrefix(buttonIDs(d)[0], "ttt:z:"+want.ID+":") {
			t.Fatalf("Solve by %s: %q %+v", member.id, r.Code, d)
		}
		clock = clock.Add(member.took)
		for ply := 0; ply < len(want.Line); ply += 2 {
			id, ok := puzzleButtons(t, r)[want.Line[ply].Cell]
			if !ok {
				t.Fatalf("%s: no button on the line's cell %d", member.id, want.Line[ply].Cell)
			}
			if r = h.Handle(ctx, at(click(member.id, guild, "555", "m", "555", id))); r.Code != "" {
				t.Fatalf("%s's move %d: %q", member.id, ply, r.Code)
			}
		}
		e := r.Edit
		if !strings.Contains(shown(r.Response.Data), "Solved") || e == nil || e.MessageID != "901" || e.ChannelID != "555" || e.Version != n+1 {
			t.Fatalf("solve by %s: %q, edit %+v", member.id, shown(r.Response.Data), e)
		}
		if s := shown(e.Data); !strings.Contains(s, fmt.Sprintf("Solved so far: %d", n+1)) {
			t.Errorf("post after %s: %q", member.id, s)
		}
		if n == 1 {
			if s := shown(e.Data); !strings.Contains(s, "Fastest: <@21> 12 seconds, <@20> 50 seconds") {
				t.Errorf("post's fastest: %q", s)
			}
		}
	}
	wantRefused(t, h.Handle(ctx, at(click("20", guild, "555", "901", "555", "ttt:zd:4x4k3-nosuch"))), "invalid", "")

	if r := h.Handle(ctx, at(admin(`{"type":5,"name":"off","value":true}`))); r.Code != "" {
		t.Fatalf("off: %q", r.Code)
	}
	if s := show(); !strings.Contains(s, "**Daily puzzle**: off") {
		t.Errorf("show when off: %q", s)
	}
	if n := fire(testNow.AddDate(0, 0, 1).Add(time.Hour)); n != 0 {
		t.Errorf("off: %d posted", n)
	}
}
