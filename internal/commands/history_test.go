package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestHistoryOfTheBot: the bot's history names the people it played, not
// itself; a player's history names the bot as "me".
func TestHistoryOfTheBot(t *testing.T) {
	h, _ := newTestHandler(t)
	ctx := context.Background()
	if r := h.Handle(ctx, slash(t, alice, "g1", "c1", `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"first","type":3,"value":"me"}]}]}`)); r.Code != "" {
		t.Fatalf("challenge: %s", shown(r.Response.Data))
	}
	if r := h.Handle(ctx, slash(t, alice, "g1", "c1", `{"name":"ttt","options":[{"name":"resign","type":1}]}`)); r.Code != "" {
		t.Fatalf("resign: %s", shown(r.Response.Data))
	}
	history := func(who string) string {
		return `{"name":"ttt","options":[{"name":"history","type":1,"options":[{"name":"user","type":6,"value":"` + who + `"}]}],` +
			`"resolved":{"users":{"` + who + `":{"id":"` + who + `"}}}}`
	}
	tests := []struct {
		name, who, want, notWant string
	}{
		{"the bot's", botUser, "won against <@10> (I played perfect) · by resignation", "me ("},
		{"alice's", alice, "lost to me (perfect) · by resignation", "<@1>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.Handle(ctx, slash(t, bob, "g1", "c1", history(tt.who)))
			if r.Code != "" {
				t.Fatalf("got code %q: %s", r.Code, shown(r.Response.Data))
			}
			got := shown(r.Response.Data)
			if !strings.Contains(got, tt.want) || strings.Contains(got, tt.notWant) {
				t.Errorf("got %q, want it to say %q and not %q", got, tt.want, tt.notWant)
			}
		})
	}
}

// /ttt stats of the bot says why it has none, rather than "no rated games
// yet", as if it could have some.
func TestStatsOfTheBot(t *testing.T) {
	h, _ := newTestHandler(t)
	r := h.Handle(context.Background(), slash(t, alice, "g1", "c1",
		`{"name":"ttt","options":[{"name":"stats","type":1,"options":[{"name":"user","type":6,"value":"`+botUser+`"}]}],`+
			`"resolved":{"users":{"`+botUser+`":{"id":"`+botUser+`","bot":true}}}}`))
	if r.Code != "" {
		t.Fatalf("got code %q: %s", r.Code, shown(r.Response.Data))
	}
	if got, want := shown(r.Response.Data), "I'm not rated"; !strings.HasPrefix(got, want) {
		t.Errorf("got %q, want it to start %q", got, want)
	}
	if r.Response.Data.Flags&discordgo.MessageFlagsEphemeral == 0 {
		t.Errorf("got a public answer, want an ephemeral one")
	}
}
