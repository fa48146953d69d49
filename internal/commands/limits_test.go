package commands

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/palette"
)

// TestDefinitionsWithinLimits: the registration payload, with every
// language's descriptions and choice names, passes the local Discord's
// checks, and every description and named choice is translated into every
// shipped language.
func TestDefinitionsWithinLimits(t *testing.T) {
	defs := mustDefinitions()
	payload, err := json.Marshal(defs)
	if err != nil {
		t.Fatal(err)
	}
	if vs := discordtest.CheckCommands(payload); len(vs) > 0 {
		t.Errorf("the registration payload breaks Discord's limits: %v", vs)
	}
	want := len(shippedLocales) - 1
	check := func(what string, got int) {
		if got != want {
			t.Errorf("%s: %d translations, want %d", what, got, want)
		}
	}
	var walk func(path string, opts []*discordgo.ApplicationCommandOption)
	walk = func(path string, opts []*discordgo.ApplicationCommandOption) {
		for _, o := range opts {
			check(path+" "+o.Name, len(o.DescriptionLocalizations))
			for _, c := range o.Choices {
				// The languages of /ttt-admin language are named in their
				// own, the server's excepted.
				endonym := o.Name == "locale" && c.Value != serverLanguage
				if !endonym && strings.ContainsFunc(c.Name, func(r rune) bool { return r >= 'a' && r <= 'z' }) {
					check(path+" "+o.Name+" choice "+c.Name, len(c.NameLocalizations))
				}
			}
			walk(path+" "+o.Name, o.Options)
		}
	}
	for _, d := range defs {
		check("/"+d.Name, len(*d.DescriptionLocalizations))
		walk("/"+d.Name, d.Options)
	}
}

// TestMessagesWithinLimits fills every message of every language with
// long values — the longest mentions, six-digit numbers — and holds it to
// Discord's limits: 2,000 characters of content, 80 of a button's label.
func TestMessagesWithinLimits(t *testing.T) {
	cat := mustCatalog()
	long := map[string]any{}
	for _, m := range cat.Messages(sourceLocale) {
		for _, p := range placeholders(m) {
			long[p] = "<@12345678901234567890>"
		}
	}
	for _, code := range cat.Codes() {
		l, _ := cat.Lookup(code)
		for _, m := range cat.Messages(code) {
			data := map[string]any{}
			for k, v := range long {
				data[k] = v
			}
			data["N"], data["Count"] = 100_000, 100_000
			text := l.T(m.ID, data)
			limit := 2000
			if strings.HasPrefix(m.ID, "button_") {
				limit = 80
			}
			if n := utf8.RuneCountInString(text); n > limit {
				t.Errorf("%s %s: %d characters, over Discord's %d", code, m.ID, n, limit)
			}
		}
	}
}

// TestTourWithinLimits renders the tour in every language and checks each
// message against the local Discord's limits.
func TestTourWithinLimits(t *testing.T) {
	cat := mustCatalog()
	codes := shippedLocales
	if testing.Short() {
		codes = []string{"de", "ru", "ja"}
	}
	for _, code := range codes {
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			for _, r := range tour(t, cat, code) {
				payload, err := json.Marshal(r.data)
				if err != nil {
					t.Fatal(err)
				}
				if vs := discordtest.CheckMessage(payload); len(vs) > 0 {
					t.Errorf("%s: %v", r.what, vs)
				}
			}
		})
	}
}

// TestBoardComponents draws a board of every shape in every state, in every
// language, and holds it to components V2's limits: one container whose
// accent is the side to move, the winner's after a win, neutral otherwise;
// its controls — Resign while the game is on, Rematch and Review after it
// — within it; and 40 components at most, nested ones counted. A 5×5 board
// is the largest: 35 components while played (the container, the header,
// 5 rows of 5 cells, the separator, the control row and Resign) and 36 once
// over (Rematch and Review), 37 where the web shows the game (its link).
func TestBoardComponents(t *testing.T) {
	cat := mustCatalog()
	h := &Handler{botID: botUser, cat: cat}
	type state struct {
		name     string
		g        tttbot.Game
		accent   int
		controls []string // the controls' actions
	}
	for rows := game.MinSize; rows <= game.MaxSize; rows++ {
		for cols := game.MinSize; cols <= game.MaxSize; cols++ {
			for k := game.MinK; k <= max(rows, cols); k++ {
				empty := strings.TrimSuffix(strings.Repeat(strings.Repeat(".", cols)+"/", rows), "/")
				oneIn := "X" + empty[1:]
				base := tttbot.Game{ID: 123456, ChannelID: "c1", Rows: rows, Cols: cols, K: k,
					Challenger: alice, Opponent: bob, XPlayer: alice, OPlayer: bob, Version: 99, Deadline: testNow.Add(time.Hour)}
				with := func(f func(g *tttbot.Game)) tttbot.Game {
					g := base
					f(&g)
					return g
				}
				states := []state{
					{"challenge", with(func(g *tttbot.Game) { g.Status, g.Board = tttbot.StatusPending, empty }), palette.Neutral, nil},
					{"X to move", with(func(g *tttbot.Game) { g.Status, g.Board, g.Turn = tttbot.StatusActive, empty, alice }), palette.X, []string{ActResign}},
					{"O to move", with(func(g *tttbot.Game) { g.Status, g.Board, g.Turn = tttbot.StatusActive, oneIn, bob }), palette.O, []string{ActResign}},
					{"won by O", with(func(g *tttbot.Game) {
						g.Status, g.Board, g.Winner, g.Reason = tttbot.StatusFinished, oneIn, bob, tttbot.ReasonResign
					}), palette.O, []string{ActRematch, actReview}},
					{"drawn", with(func(g *tttbot.Game) {
						g.Status, g.Board, g.Reason = tttbot.StatusFinished, oneIn, tttbot.ReasonDraw
					}), palette.Neutral, []string{ActRematch, actReview}},
					{"over unplayed", with(func(g *tttbot.Game) {
						g.Status, g.Board, g.Winner, g.Reason = tttbot.StatusFinished, empty, bob, tttbot.ReasonTimeout
					}), palette.O, []string{ActRematch}},
					{"declined", with(func(g *tttbot.Game) { g.Status, g.Board = tttbot.StatusDeclined, empty }), palette.Neutral, nil},
				}
				for _, code := range cat.Codes() {
					l, _ := cat.Lookup(code)
					for _, st := range states {
						what := fmt.Sprintf("%d×%d k=%d %s in %s", rows, cols, k, st.name, code)
						d := h.render(context.Background(), l, &st.g, nil).data()
						payload, err := json.Marshal(d)
						if err != nil {
							t.Fatal(err)
						}
						if vs := discordtest.CheckMessage(payload); len(vs) > 0 {
							t.Errorf("%s: %v", what, vs)
						}
						n, controls := 0, []string(nil)
						walk(d.Components, func(c discordgo.MessageComponent) {
							n++
							if b, ok := c.(discordgo.Button); ok {
								if id, err := ParseCustomID(b.CustomID); err == nil && id.Action != ActMove && st.g.Status != tttbot.StatusPending {
									controls = append(controls, id.Action)
								}
							}
						})
						c, ok := d.Components[0].(*discordgo.Container)
						if d.Flags != discordgo.MessageFlagsIsComponentsV2 || len(d.Components) != 1 || !ok || *c.AccentColor != st.accent {
							t.Errorf("%s: got flags %d, %d top-level components; want V2, one container of accent %06X", what, d.Flags, len(d.Components), st.accent)
						}
						if !slices.Equal(controls, st.controls) {
							t.Errorf("%s: got controls %q, want %q", what, controls, st.controls)
						}
						if rows == 5 && cols == 5 && st.controls != nil {
							if want := 33 + 1 + len(st.controls); n != want {
								t.Errorf("%s: %d components, want %d", what, n, want)
							}
						}
					}
				}
			}
		}
	}
}
