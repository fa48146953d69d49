package commands

import (
	"context"
	"strings"
	"testing"
)

// TestHistoryOfTheBot: the bot's history names the people it played, not
// itself; a player's history names the bot as "me".
func TestHistoryOfTheBot(t *testing.T) {
	h, _ := newTestHandler(t)
	ctx := context.Background()
	if r := h.Handle(ctx, slash(t, alice, "g1", "c1", `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"first","type":3,"value":"me"}]}]}`)); r.Code != "" {
		t.Fatalf("challenge: %s", r.Response.Data.Content)
	}
	if r := h.Handle(ctx, slash(t, alice, "g1", "c1", `{"name":"ttt","options":[{"name":"resign","type":1}]}`)); r.Code != "" {
		t.Fatalf("resign: %s", r.Response.Data.Content)
	}
	history := func(who string) string {
		return `{"name":"ttt","options":[{"name":"history","type":1,"options":[{"name":"user","type":6,"value":"` + who + `"}]}],` +
			`"resolved":{"users":{"` + who + `":{"id":"` + who + `"}}}}`
	}
	tests := []struct {
		name, who, want, notWant string
	}{
		{"the bot's", botUser, "won against <@10> (I played perfect) by resignation", "me ("},
		{"alice's", alice, "lost to me (perfect) by resignation", "<@1>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := h.Handle(ctx, slash(t, bob, "g1", "c1", history(tt.who)))
			if r.Code != "" {
				t.Fatalf("got code %q: %s", r.Code, r.Response.Data.Content)
			}
			got := r.Response.Data.Content
			if !strings.Contains(got, tt.want) || strings.Contains(got, tt.notWant) {
				t.Errorf("got %q, want it to say %q and not %q", got, tt.want, tt.notWant)
			}
		})
	}
}
