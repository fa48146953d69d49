package commands

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

// shippedLocales are the languages tttbot speaks, by Discord's codes.
var shippedLocales = []string{
	"en-US", "de", "fr", "es-ES", "es-419", "pt-BR", "it", "nl", "pl", "ru", "uk", "tr", "ja", "ko", "zh-CN", "zh-TW",
}

func TestCatalogLocales(t *testing.T) {
	cat := mustCatalog()
	got, want := cat.Codes(), slices.Concat([]string{sourceLocale}, slices.Sorted(slices.Values(shippedLocales[1:])))
	if !slices.Equal(got, want) {
		t.Errorf("got catalogs %v, want %v", got, want)
	}
	for _, code := range got {
		if !slices.Contains(discordtest.Locales(), code) {
			t.Errorf("catalog %s is named by no Discord locale", code)
		}
	}
}

// forms are a message's texts by CLDR plural category.
func forms(m *goi18n.Message) map[string]string {
	f := map[string]string{}
	for k, v := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if v != "" {
			f[k] = v
		}
	}
	return f
}

var placeholderRE = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

// placeholders lists the values a message's texts fill in.
func placeholders(m *goi18n.Message) []string {
	var names []string
	for _, text := range forms(m) {
		for _, p := range placeholderRE.FindAllStringSubmatch(text, -1) {
			names = append(names, p[1])
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// pluralCategories are the CLDR categories go-i18n picks for whole numbers
// in language code: the counts tttbot fills in are whole.
func pluralCategories(t *testing.T, code string) []string {
	t.Helper()
	probe := &goi18n.Message{ID: "probe", Zero: "zero", One: "one", Two: "two", Few: "few", Many: "many", Other: "other"}
	b := goi18n.NewBundle(language.English)
	if err := b.AddMessages(language.Make(code), probe); err != nil {
		t.Fatal(err)
	}
	l := goi18n.NewLocalizer(b, code)
	seen := map[string]bool{"other": true}
	for _, n := range slices.Concat(slices.Collect(func(yield func(int) bool) {
		for n := range 1001 {
			if !yield(n) {
				return
			}
		}
	}), []int{10_000, 100_000, 1_000_000, 10_000_000}) {
		s, err := l.Localize(&goi18n.LocalizeConfig{MessageID: "probe", PluralCount: n})
		if err != nil {
			t.Fatal(err)
		}
		seen[s] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// TestCatalogsMatchSource holds every translation to the source: the same
// messages, no others, the same placeholders, and a plural form for each
// category of its language where the source counts something.
func TestCatalogsMatchSource(t *testing.T) {
	cat := mustCatalog()
	source := map[string]*goi18n.Message{}
	for _, m := range cat.Messages(sourceLocale) {
		source[m.ID] = m
		if strings.TrimSpace(m.Description) == "" {
			t.Errorf("%s: source message %s has no description for translators", sourceLocale, m.ID)
		}
		if f := forms(m); len(f) != 1 && !slices.Equal(slices.Sorted(maps.Keys(f)), []string{"one", "other"}) {
			t.Errorf("%s: %s has forms %v, want other, or one and other", sourceLocale, m.ID, slices.Sorted(maps.Keys(f)))
		}
	}
	for _, code := range cat.Codes()[1:] {
		t.Run(code, func(t *testing.T) {
			categories := pluralCategories(t, code)
			got := map[string]*goi18n.Message{}
			for _, m := range cat.Messages(code) {
				got[m.ID] = m
				src, ok := source[m.ID]
				if !ok {
					t.Errorf("%s is not in the source", m.ID)
					continue
				}
				if g, w := placeholders(m), placeholders(src); !slices.Equal(g, w) {
					t.Errorf("%s: placeholders %v, want %v", m.ID, g, w)
				}
				want := []string{"other"}
				if src.One != "" {
					want = categories
				}
				if g := slices.Sorted(maps.Keys(forms(m))); !slices.Equal(g, want) {
					t.Errorf("%s: forms %v, want %v", m.ID, g, want)
				}
			}
			for id := range source {
				if got[id] == nil {
					t.Errorf("%s is missing", id)
				}
			}
		})
	}
}

// TestPluralCategories pins the categories the translations are checked
// against for a few languages whose rules differ.
func TestPluralCategories(t *testing.T) {
	tests := map[string][]string{
		"ja": {"other"}, "de": {"one", "other"}, "tr": {"one", "other"},
		"fr": {"many", "one", "other"}, "pt-BR": {"many", "one", "other"},
		"ru": {"few", "many", "one", "other"}, "uk": {"few", "many", "one", "other"}, "pl": {"few", "many", "one", "other"},
	}
	for code, want := range tests {
		if got := pluralCategories(t, code); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", code, got, want)
		}
	}
}

// TestLanguageFor checks the language chosen for each of Discord's
// locales: its own, a close one, or English.
func TestLanguageFor(t *testing.T) {
	cat := mustCatalog()
	want := map[string]string{"en-GB": "en-US", "": "en-US", "xx-YY": "en-US", "es-MX": "es-419", "pt-PT": "pt-BR", "zh-HK": "zh-TW"}
	for _, l := range discordtest.Locales() {
		if _, ok := want[l]; ok {
			continue
		}
		want[l] = sourceLocale
		if slices.Contains(shippedLocales, l) {
			want[l] = l
		}
	}
	for locale, code := range want {
		if got := cat.For(locale).Code(); got != code {
			t.Errorf("For(%q): got %s, want %s", locale, got, code)
		}
	}
}

// TestPluralsRender fills a plural message in languages with several
// forms, through the catalogs as the bot does.
func TestPluralsRender(t *testing.T) {
	cat := mustCatalog()
	tests := []struct {
		code string
		n    int
		want string
	}{
		{"en-US", 1, "1 minute"},
		{"en-US", 5, "5 minutes"},
		{"ru", 1, "1 минута"},
		{"ru", 3, "3 минуты"},
		{"ru", 5, "5 минут"},
		{"ru", 21, "21 минута"},
		{"pl", 2, "2 minuty"},
		{"pl", 5, "5 minut"},
		{"pl", 22, "22 minuty"},
		{"ja", 5, "5分"},
		{"de", 1501, "1.501 Minuten"},
	}
	for _, tt := range tests {
		l, ok := cat.Lookup(tt.code)
		if !ok {
			t.Errorf("no catalog %s", tt.code)
			continue
		}
		if got := duration(l, time.Duration(tt.n)*time.Minute); got != tt.want {
			t.Errorf("%s, %d minutes: got %q, want %q", tt.code, tt.n, got, tt.want)
		}
	}
}

// TestLanguageChoice: a private reply speaks the clicker's language; a
// public one the guild's, or in a DM the invoker's; a game the language it
// was created in, whoever clicks.
func TestLanguageChoice(t *testing.T) {
	h, _ := newTestHandler(t)
	locale := func(i *discordgo.Interaction, user, guild string) *discordgo.Interaction {
		i.Locale = discordgo.Locale(user)
		if guild != "" {
			l := discordgo.Locale(guild)
			i.GuildLocale = &l
		}
		return i
	}
	help := `{"name":"ttt","options":[{"name":"help","type":1}]}`
	tests := []struct {
		name           string
		i              *discordgo.Interaction
		private, board string // the first words of each
	}{
		{"guild", locale(slash(t, alice, "g1", "c1", help), "de", "fr"), "**Tic-Tac-Toe** — bring", "**Morpion**"},
		{"guild of unknown language", locale(slash(t, alice, "g1", "c2", help), "ja", "sv-SE"), "**三目並べ**", "**Tic-tac-toe**"},
		{"guild without a locale", locale(slash(t, alice, "g1", "c3", help), "ko", ""), "**틱택토**", "**Tic-tac-toe**"},
		{"DM", locale(slash(t, alice, "", "d1", help), "pt-BR", ""), "**Jogo da velha**", "**Jogo da velha**"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := h.Handle(context.Background(), tt.i).Response.Data.Content; !strings.HasPrefix(got, tt.private) {
				t.Errorf("help: got %.60q, want it to start %q", got, tt.private)
			}
			c := slash(t, alice, tt.i.GuildID, tt.i.ChannelID, `{"name":"ttt","options":[{"name":"challenge","type":1}]}`)
			c.Locale, c.GuildLocale = tt.i.Locale, tt.i.GuildLocale
			r := h.Handle(context.Background(), c)
			if got := shown(r.Response.Data); !strings.HasPrefix(got, tt.board) {
				t.Fatalf("board: got %.60q, want it to start %q", got, tt.board)
			}
			// Timers redraw it with no interaction to tell the language.
			g, err := h.store.Game(context.Background(), r.TrackGame)
			if err != nil {
				t.Fatal(err)
			}
			if got := h.render(context.Background(), h.gameLang(g), g, nil).content; !strings.HasPrefix(got, tt.board) {
				t.Errorf("the game redrawn: got %.60q, want it to start %q", got, tt.board)
			}
		})
	}
}
