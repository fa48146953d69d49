package commands

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
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
