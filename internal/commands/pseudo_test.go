package commands

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/bwmarrin/discordgo"
	"github.com/pelletier/go-toml/v2"

	"github.com/tttbot/tttbot/internal/i18n"
)

// pseudoLocale marks every literal of the source: what the bot renders in
// it shows which text came from the catalogs.
const pseudoLocale = "en-XA"

var (
	actionRE = regexp.MustCompile(`{{[^}]*}}`)
	markedRE = regexp.MustCompile(`⟦[^⟧]*⟧`)
	// What a message may hold besides the catalogs' text: mentions, times
	// Discord writes in the reader's language, the tour players' names and
	// the unknown option it sends, echoed.
	dataRE = regexp.MustCompile(`<@\d+>|<t:\d+:R>|user\d+|\bbob\b|"colour"`)
	// English that bypassed the catalogs: two letters or more in a row.
	// Single letters are cell names (B2) and marks (X, O).
	wordRE = regexp.MustCompile(`\p{Latin}{2,}`)
)

// pseudoCatalog is the shipped source with a pseudo-locale that wraps
// every literal run of its texts in ⟦ ⟧, leaving the values filled in
// outside.
func pseudoCatalog(t testing.TB) *i18n.Catalog {
	t.Helper()
	src, err := locales.ReadFile("locales/" + sourceLocale + ".toml")
	if err != nil {
		t.Fatal(err)
	}
	cat := mustCatalog()
	pseudo := map[string]map[string]string{}
	for _, m := range cat.Messages(sourceLocale) {
		forms := map[string]string{}
		for form, text := range map[string]string{"one": m.One, "other": m.Other} {
			if text == "" {
				continue
			}
			var b strings.Builder
			last := 0
			for _, loc := range append(actionRE.FindAllStringIndex(text, -1), []int{len(text), len(text)}) {
				if lit := text[last:loc[0]]; lit != "" {
					b.WriteString("⟦" + lit + "⟧")
				}
				b.WriteString(text[loc[0]:loc[1]])
				last = loc[1]
			}
			forms[form] = b.String()
		}
		pseudo[m.ID] = forms
	}
	data, err := toml.Marshal(pseudo)
	if err != nil {
		t.Fatal(err)
	}
	c, err := i18n.Load(fstest.MapFS{
		sourceLocale + ".toml": {Data: src},
		pseudoLocale + ".toml": {Data: data},
	}, sourceLocale)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// texts are what a player reads of a message: its content, or its text
// displays, and its buttons' labels.
func texts(d *discordgo.InteractionResponseData) []string {
	out := []string{d.Content}
	walk(d.Components, func(c discordgo.MessageComponent) {
		switch c := c.(type) {
		case discordgo.TextDisplay:
			out = append(out, c.Content)
		case discordgo.Button:
			out = append(out, c.Label)
		}
	})
	return out
}

// TestPseudoLocale renders the whole tour in the pseudo-locale and fails on
// any English that did not come from the catalogs.
func TestPseudoLocale(t *testing.T) {
	out := tour(t, pseudoCatalog(t), pseudoLocale)
	if len(out) < 100 {
		t.Fatalf("the tour rendered %d messages; it should see every kind", len(out))
	}
	marked := 0
	for _, r := range out {
		for _, text := range texts(r.data) {
			if strings.Contains(text, "⟦") {
				marked++
			}
			rest := dataRE.ReplaceAllString(markedRE.ReplaceAllString(text, " "), " ")
			if w := wordRE.FindAllString(rest, -1); len(w) > 0 {
				t.Errorf("%s: %q has words from outside the catalogs: %v", r.what, text, w)
			}
		}
	}
	if marked == 0 {
		t.Error("nothing rendered came from the pseudo-locale")
	}
}
