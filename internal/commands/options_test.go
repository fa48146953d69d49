package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

// challenge is a challenge's options, with the resolved user Discord sends
// for the opponent.
func challenge(opts string) string {
	return `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[` + opts + `]}],` +
		`"resolved":{"users":{"20":{"id":"20","username":"bob"}}}}`
}

// TestCommandRefusesMalformedOptions: options that Discord's client never
// sends are refused, privately, before anything is stored.
func TestCommandRefusesMalformedOptions(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"null option", `{"name":"ttt","options":[null]}`, "garbled"},
		{"null among a subcommand's options", challenge(`{"name":"size","type":4,"value":4},null`), "garbled"},
		{"size 3.7", challenge(`{"name":"size","type":4,"value":3.7}`), "size must be a whole number"},
		{"win 3.5", challenge(`{"name":"win","type":4,"value":3.5}`), "win must be a whole number"},
		{"size past any integer", challenge(`{"name":"size","type":4,"value":1e300}`), "size must be a whole number"},
		{"leaderboard size 4.2", `{"name":"ttt","options":[{"name":"leaderboard","type":1,"options":[{"name":"size","type":4,"value":4.2}]}]}`, "whole number"},
		{"review game 1.5", `{"name":"ttt","options":[{"name":"review","type":1,"options":[{"name":"game","type":4,"value":1.5}]}]}`, "game must be a whole number"},
		{"size as a string", challenge(`{"name":"size","type":4,"value":"3"}`), "garbled"},
		{"size typed a string", challenge(`{"name":"size","type":3,"value":"3"}`), "garbled"},
		{"first as a number", challenge(`{"name":"first","type":3,"value":1}`), "garbled"},
		{"setting as a string", `{"name":"ttt","options":[{"name":"settings","type":1,"options":[{"name":"simultaneous_games","type":5,"value":"true"}]}]}`, "garbled"},
		{"opponent as a number", challenge(`{"name":"opponent","type":6,"value":20}`), "garbled"},
		{"opponent not resolved", `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"30"}]}]}`, "didn't tell me who the opponent is"},
		{"opponent resolved as another", `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"20"}]}],` +
			`"resolved":{"users":{"20":{"id":"30","bot":true}}}}`, "didn't tell me who"},
		{"opponent resolved as null", `{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"20"}]}],"resolved":{"users":{"20":null}}}`, "didn't tell me who"},
		{"history of an unresolved user", `{"name":"ttt","options":[{"name":"history","type":1,"options":[{"name":"user","type":6,"value":"20"}]}]}`, "didn't tell me who the user is"},
		{"a value on a subcommand", `{"name":"ttt","options":[{"name":"challenge","type":1,"value":3}]}`, "garbled"},
		{"a subcommand typed an option", `{"name":"ttt","options":[{"name":"challenge","type":3}]}`, "garbled"},
		{"options under an option", challenge(`{"name":"size","type":4,"value":3,"options":[null]}`), "garbled"},
		{"unknown option", challenge(`{"name":"colour","type":3,"value":"red"}`), "I don't know the option \"colour\""},
		{"unknown subcommand", `{"name":"ttt","options":[{"name":"cheat","type":1}]}`, "I don't know the option \"cheat\""},
		{"no subcommand", `{"name":"ttt"}`, "I don't know that command"},
		{"null data", `null`, "I don't know that command"},
	}
	// Every subcommand's options may arrive as [null].
	for _, sub := range mustDefinitions()[0].Options {
		tests = append(tests, struct{ name, data, want string }{
			sub.Name + " [null]", `{"name":"ttt","options":[{"name":"` + sub.Name + `","type":1,"options":[null]}]}`, "garbled",
		})
	}
	h, db := newTestHandler(t)
	ctx := context.Background()
	for n, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch := fmt.Sprint("c", n)
			wantRefused(t, h.Handle(ctx, slash(t, alice, "g1", ch, tt.data)), tttbot.EINVALID, tt.want)
			if g, err := db.OpenGame(ctx, ch, alice); tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
				t.Errorf("a refused command left game %+v, %v", g, err)
			}
		})
	}
}

// TestChallengeWellFormed: the checks let through what Discord sends.
func TestChallengeWellFormed(t *testing.T) {
	h, db := newTestHandler(t)
	ctx := context.Background()
	r := h.Handle(ctx, slash(t, alice, "g1", "c1", challenge(`{"name":"opponent","type":6,"value":"20"},{"name":"size","type":4,"value":4},{"name":"first","type":3,"value":"me"}`)))
	if r.Code != "" {
		t.Fatalf("got code %q (%s), want a challenge", r.Code, shown(r.Response.Data))
	}
	g, err := db.OpenGame(ctx, "c1", alice)
	if err != nil {
		t.Fatal(err)
	}
	if g.Opponent != bob || g.Rows != 4 || g.XPlayer != alice {
		t.Errorf("got opponent %s, %d rows, X %s; want %s, 4, %s", g.Opponent, g.Rows, g.XPlayer, bob, alice)
	}
}

// hasNil reports whether an options tree holds a null entry.
func hasNil(opts []*discordgo.ApplicationCommandInteractionDataOption) bool {
	return slices.ContainsFunc(opts, func(o *discordgo.ApplicationCommandInteractionDataOption) bool {
		return o == nil || hasNil(o.Options)
	})
}

// FuzzHandle sends the handler interactions whose data is anything the
// decoder makes of JSON: option trees with null entries, values of every
// JSON type, resolved users missing or wrong, any custom_id, in a guild or
// a DM. Nothing may panic or fail inside; every refusal is private and
// stores no game; a tree with a null entry is refused as bad input.
func FuzzHandle(f *testing.F) {
	commands := []string{
		`{"name":"ttt","options":[null]}`,
		`{"name":"ttt","options":[{"name":"challenge","type":1,"options":[null]}]}`,
		`{"name":"ttt","options":[{"name":"stats","type":1,"options":[null,{"name":"user","type":6,"value":"20"}]}]}`,
		challenge(`{"name":"size","type":4,"value":3.7}`),
		challenge(`{"name":"size","type":4,"value":[3]}`),
		challenge(`{"name":"opponent","type":6,"value":"20"},{"name":"size","type":4,"value":4},{"name":"first","type":3,"value":"them"}`),
		`{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"30"}]}]}`,
		`{"name":"ttt","options":[{"name":"challenge","type":1,"options":[{"name":"difficulty","type":3,"value":"easy"}]}]}`,
		`{"name":"ttt","options":[{"name":"history","type":1,"options":[{"name":"user","type":6,"value":"1"}]}],"resolved":{"users":{"1":{"id":"1","bot":true}}}}`,
		`{"name":"ttt","options":[{"name":"stats","type":1,"options":[{"name":"user","type":6,"value":{"id":"1"}}]}]}`,
		`{"name":"ttt","options":[{"name":"leaderboard","type":1,"options":[{"name":"scope","type":3,"value":"global"},{"name":"size","type":4,"value":4}]}]}`,
		`{"name":"ttt","options":[{"name":"review","type":1,"options":[{"name":"game","type":4,"value":1}]}]}`,
		`{"name":"ttt","options":[{"name":"settings","type":1,"options":[{"name":"simultaneous_games","type":5,"value":true}]}]}`,
		`{"name":"ttt","options":[{"name":"resign","type":1}]}`,
		`{"name":"ttt","options":[{"name":"help","type":2,"options":[{"name":"x","type":1}]}]}`,
		`null`,
	}
	for _, s := range commands {
		f.Add(false, true, []byte(s))
		f.Add(false, false, []byte(s))
	}
	for _, id := range []string{"ttt:a:1:1", "ttt:d:1:1", "ttt:m:1:2:4", "ttt:r:1", "ttt:v:1", "ttt:vp:1:1", "ttt:h:1", "ttt:hp:1:0:0", "ttt:l:s:3:3:3:0", "ttt:m:x"} {
		f.Add(true, true, []byte(`{"custom_id":"`+id+`","component_type":2}`))
		f.Add(true, false, []byte(`{"custom_id":"`+id+`","component_type":2}`))
	}
	f.Add(true, true, []byte(`{"custom_id":null,"values":[null]}`))

	h, db := newTestHandler(f)
	ctx := context.Background()
	// Game 1, a challenge of bob's in c1, for the clicks to land on.
	g := &tttbot.Game{GuildID: "g1", ChannelID: "c1", Rows: 3, Cols: 3, K: 3, Challenger: alice, Opponent: bob,
		XPlayer: alice, OPlayer: bob, Status: tttbot.StatusPending, Deadline: testNow.Add(time.Minute)}
	if err := db.StartGame(ctx, g, nil); err != nil {
		f.Fatal(err)
	}
	var channels atomic.Int64
	f.Fuzz(func(t *testing.T, isClick, inGuild bool, data []byte) {
		guild := ""
		if inGuild {
			guild = "g1"
		}
		var i *discordgo.Interaction
		var opts []*discordgo.ApplicationCommandInteractionDataOption
		ch := fmt.Sprint("f", channels.Add(1))
		if isClick {
			var d discordgo.MessageComponentInteractionData
			if json.Unmarshal(data, &d) != nil {
				return
			}
			i = newInteraction(discordgo.InteractionMessageComponent, bob, guild, "c1", d)
			i.Message = &discordgo.Message{ID: "m1", ChannelID: "c1"}
		} else {
			var d discordgo.ApplicationCommandInteractionData
			if json.Unmarshal(data, &d) != nil {
				return
			}
			i, opts = newInteraction(discordgo.InteractionApplicationCommand, alice, guild, ch, d), d.Options
		}
		r := h.Handle(ctx, i)
		if r.Response == nil {
			t.Fatal("no response")
		}
		if r.Code == tttbot.EINTERNAL {
			t.Fatalf("failed inside: %+v", r.Response.Data)
		}
		if hasNil(opts) && r.Code != tttbot.EINVALID {
			t.Errorf("a null option: got code %q, want %q", r.Code, tttbot.EINVALID)
		}
		if r.Code == "" {
			return
		}
		if d := r.Response.Data; d == nil || d.Flags&discordgo.MessageFlagsEphemeral == 0 || d.Content == "" {
			t.Errorf("refusal %q: got response %+v, want a private explanation", r.Code, r.Response)
		}
		if r.TrackGame != 0 {
			t.Errorf("refusal %q tracks game %d", r.Code, r.TrackGame)
		}
		if g, err := db.OpenGame(ctx, ch, alice); !isClick && tttbot.ErrorCode(err) != tttbot.ENOTFOUND {
			t.Errorf("refusal %q left game %+v, %v", r.Code, g, err)
		}
	})
}
