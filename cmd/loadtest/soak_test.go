package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

func TestSchedule(t *testing.T) {
	pg := faultNames(true)
	tests := []struct {
		name               string
		names              []string
		every, total, room time.Duration
		want               []plannedFault
	}{
		{"cycles", pg, time.Minute, 6 * time.Minute, 10 * time.Second, []plannedFault{
			{time.Minute, "kill-bot"}, {2 * time.Minute, "pg-restart"}, {3 * time.Minute, "pg-lock"},
			{4 * time.Minute, "pg-sigstop"}, {5 * time.Minute, "kill-bot"}}},
		{"the last fits exactly", []string{"a", "b"}, 10 * time.Second, 30 * time.Second, 10 * time.Second, []plannedFault{
			{10 * time.Second, "a"}, {20 * time.Second, "b"}}},
		{"none fits", pg, time.Minute, 65 * time.Second, 10 * time.Second, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := schedule(tt.names, tt.every, tt.total, tt.room); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
	if got := faultNames(false); !slices.Equal(got, []string{"kill-bot", "sqlite-lock", "disk-full"}) {
		t.Errorf("SQLite's faults: got %v", got)
	}
}

// A game ended on time counts against the bot unless the driver left it to
// its deadline.
func TestLostOnTime(t *testing.T) {
	games := []*tttbot.Game{
		{ID: 1, Status: tttbot.StatusFinished, Reason: tttbot.ReasonTimeout},
		{ID: 2, Status: tttbot.StatusExpired},
		{ID: 3, Status: tttbot.StatusFinished, Reason: tttbot.ReasonTimeout},
		{ID: 4, Status: tttbot.StatusFinished, Reason: tttbot.ReasonResign},
		{ID: 5, Status: tttbot.StatusActive},
		{ID: 6, Status: tttbot.StatusExpired},
	}
	tests := []struct {
		name  string
		letGo []int64
		want  []int64
	}{
		{"all let go", []int64{1, 2, 3, 6}, nil},
		{"none let go", nil, []int64{1, 2, 3, 6}},
		{"some", []int64{2, 3, 0}, []int64{1, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lostOnTime(games, tt.letGo); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRSSFlat(t *testing.T) {
	curve := func(mbs ...int64) []rssSample {
		var out []rssSample
		for i, n := range mbs {
			out = append(out, rssSample{at: time.Duration(i) * time.Minute, rss: []int64{n << 20}, restarted: []bool{false}})
		}
		return out
	}
	tests := []struct {
		name    string
		samples []rssSample
		want    string
	}{
		{"flat", curve(40, 80, 82, 81, 83, 82, 84), "flat"},
		{"the warm-up's growth left out", curve(10, 80, 82, 81, 83, 82, 84), "flat"},
		{"a little growth", curve(40, 80, 84, 86, 88), "flat"},
		{"growing", curve(40, 80, 90, 100, 110, 120, 130), "NOT flat"},
		{"too few samples", curve(80, 81, 82), "unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, why := rssFlat(tt.samples); got != tt.want {
				t.Errorf("got %s (%s), want %s", got, why, tt.want)
			}
		})
	}
}

// The answer of a deferred interaction is found whether its webhook
// message comes before the driver looks or after, and a bot killed
// meanwhile loses it.
func TestWebhookAnswers(t *testing.T) {
	a := webhookAnswer{edit: true, msgID: "m1", data: responseData{Content: "board"}}
	never := func() bool { return false }
	t.Run("before", func(t *testing.T) {
		var w webhookAnswers
		w.put("t1", a, time.Now())
		w.put("t1", webhookAnswer{msgID: "m2"}, time.Now()) // the Rematch row after it
		got, err := w.take(t.Context(), "t1", time.Millisecond, never)
		if err != nil || got.msgID != "m1" || got.data.Content != "board" {
			t.Errorf("got %+v, %v; want the first answer", got, err)
		}
		if len(w.byToken) != 0 {
			t.Errorf("%d answers kept after take", len(w.byToken))
		}
	})
	t.Run("after", func(t *testing.T) {
		var w webhookAnswers
		done := make(chan struct{})
		var got webhookAnswer
		var err error
		go func() {
			defer close(done)
			got, err = w.take(t.Context(), "t1", time.Millisecond, never)
		}()
		for {
			w.mu.Lock()
			n := len(w.byToken)
			w.mu.Unlock()
			if n == 1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		w.put("t1", a, time.Now())
		<-done
		if err != nil || got.msgID != "m1" {
			t.Errorf("got %+v, %v; want the answer", got, err)
		}
	})
	t.Run("killed", func(t *testing.T) {
		var w webhookAnswers
		if _, err := w.take(t.Context(), "t1", time.Millisecond, func() bool { return true }); !errors.Is(err, errLost) {
			t.Errorf("got %v, want errLost", err)
		}
	})
	t.Run("old answers no one takes are dropped", func(t *testing.T) {
		var w webhookAnswers
		old := time.Now().Add(-2 * answerKeep)
		for i := range 1024 {
			w.put(strconv.Itoa(i), a, old)
		}
		w.put("new", a, time.Now())
		if len(w.byToken) != 1 {
			t.Errorf("got %d answers kept, want only the new one", len(w.byToken))
		}
	})
}

// After a deferral the REST stub takes the answer through the webhook: an
// edit of @original is of the clicked message for a click, of the
// command's own message for a command, and a follow-up is a new message.
// The driver reads each as Discord shows it.
func TestDeferredAnswers(t *testing.T) {
	ids := newRunIDs(time.Now())
	stub := newRESTStub(0, ids)
	call := func(method, token, body string) string {
		path := "/api/v9/webhooks/" + appID + "/" + token
		if method == http.MethodPatch {
			path += "/messages/@original"
		}
		w := httptest.NewRecorder()
		stub.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
		if w.Code != http.StatusOK {
			t.Fatalf("%s %s: status %d: %s", method, path, w.Code, w.Body)
		}
		var m struct{ ID string }
		if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil || m.ID == "" {
			t.Fatalf("%s %s: no message ID in %s (%v)", method, path, w.Body, err)
		}
		return m.ID
	}
	command := strconv.FormatInt(ids.message(2), 10)
	tests := []struct {
		name      string
		method    string
		token     string
		click     bool
		deferral  *response
		wantType  discordgo.InteractionResponseType
		wantMsg   string // "" for the stub's new message
		wantFlags discordgo.MessageFlags
	}{
		{"a click's board", http.MethodPatch, interactionToken(1, "555"), true,
			&response{Type: discordgo.InteractionResponseDeferredMessageUpdate}, discordgo.InteractionResponseUpdateMessage, "555", 0},
		{"a command's message", http.MethodPatch, interactionToken(2, ""), false,
			&response{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}, discordgo.InteractionResponseChannelMessageWithSource, command, 0},
		{"a private command's message", http.MethodPatch, interactionToken(3, ""), false,
			&response{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource, Data: &responseData{Flags: discordgo.MessageFlagsEphemeral}},
			discordgo.InteractionResponseChannelMessageWithSource, strconv.FormatInt(ids.message(3), 10), discordgo.MessageFlagsEphemeral},
		{"a click's new message", http.MethodPost, interactionToken(4, "555"), true,
			&response{Type: discordgo.InteractionResponseDeferredMessageUpdate}, discordgo.InteractionResponseChannelMessageWithSource, "", 0},
	}
	w := &worker{d: &driver{answers: &stub.answers}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := call(tt.method, tt.token, `{"content":"late","components":[]}`)
			if tt.wantMsg != "" && msg != tt.wantMsg {
				t.Errorf("the stub answered with message %s, want %s", msg, tt.wantMsg)
			}
			r, err := w.resolveDeferred(t.Context(), tt.deferral, tt.token, tt.click, func() bool { return false })
			if err != nil {
				t.Fatal(err)
			}
			if r.Type != tt.wantType || r.msgID != msg || r.Data.Content != "late" || r.Data.Flags != tt.wantFlags {
				t.Errorf("got type %d, message %s, %+v; want type %d, message %s, flags %d", r.Type, r.msgID, r.Data, tt.wantType, msg, tt.wantFlags)
			}
		})
	}
}

// Interaction IDs carry the time they are made, so that a run longer than
// an interaction token's life is not refused as too old, and never equal a
// message's.
func TestInteractionIDsCarryTheirTime(t *testing.T) {
	start := time.UnixMilli(1_750_000_000_000)
	ids := newRunIDs(start)
	later := start.Add(20 * time.Minute)
	id := ids.interaction(5, later)
	at, err := tttbot.IDTime(strconv.FormatInt(id, 10))
	if err != nil || !at.Equal(later) {
		t.Errorf("interaction made at %s: its ID says %s, %v", later, at, err)
	}
	if ids.interaction(5, later) == ids.interaction(6, later) {
		t.Error("two interactions of one millisecond got one ID")
	}
	if id%2 != 0 || ids.message(5)%2 != 1 {
		t.Errorf("interaction %d is odd or message %d even: they may meet", id, ids.message(5))
	}
}

// soakArgs are a short soak's, for the tests: a fault every 6 s, each
// stalling 3 s, deferrals included.
var soakArgs = []string{"-soak", "30s", "-fault-every", "6s", "-stall", "3s", "-warmup", "500ms", "-rate", "100", "-concurrency", "8",
	"-players", "40", "-channels", "4", "-seed", "1", "-abandon", "0"}

// A short soak on SQLite goes through each fault and reports zeros where
// they are due.
func TestSoakSQLite(t *testing.T) {
	if testing.Short() {
		t.Skip("a soak of 30 s")
	}
	testSoak(t, nil, "kill-bot", "sqlite-lock", "disk-full")
}

// A short soak on a PostgreSQL server of its own. It needs PostgreSQL's
// programs and runs only where the PostgreSQL tests do.
func TestSoakPostgres(t *testing.T) {
	pgtest.URL(t)
	if testing.Short() {
		t.Skip("a soak of 30 s")
	}
	bin := pgBinDir
	if b := os.Getenv("TTTBOT_PG_BIN"); b != "" {
		bin = b
	}
	if _, err := os.Stat(filepath.Join(bin, "initdb")); err != nil {
		t.Skipf("no PostgreSQL programs: %v", err)
	}
	testSoak(t, []string{"-postgres"}, "kill-bot", "pg-restart", "pg-lock")
}

func testSoak(t *testing.T, extra []string, faults ...string) {
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	err := run(ctx, &stdout, &stderr, append(append([]string{"-bot", raceBot(t)}, soakArgs...), extra...))
	out := stdout.String()
	if err != nil {
		t.Fatalf("loadtest: %v\n%s\nbot and driver logs:\n%s", err, out, stderr.Bytes())
	}
	t.Log("\n" + out)
	for _, f := range faults {
		if !regexp.MustCompile(`(?m)^soak \d+s ` + f + `: `).MatchString(out) {
			t.Errorf("no line for fault %s", f)
		}
	}
	for _, re := range []string{
		`answered later than 3s \(must be 0\)\s+0\n`,
		`deferred \(type 5/6, then the webhook\)\s+[1-9]`,
		`acknowledged moves lost \(must be 0\)\s+0 of [1-9]`,
		`games lost on time, not walked away from \(must be 0\)\s+0\n`,
		`database check: ok`,
		`RSS unknown`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("report does not match %s", re)
		}
	}
}
