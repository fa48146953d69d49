package commands

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/i18n"
)

// locales holds the message catalogs: every sentence a player reads, one
// file per language, en-US.toml the source the others translate.
//
//go:embed locales/*.toml
var locales embed.FS

// sourceLocale is the catalog the others translate and fall back to.
const sourceLocale = "en-US"

// catalog loads the shipped message catalogs. The files are embedded and
// checked by the package's tests, so an error means a broken build, which
// the constructors return for the program not to start.
func catalog() (*i18n.Catalog, error) {
	sub, err := fs.Sub(locales, "locales")
	if err != nil {
		return nil, fmt.Errorf("message catalogs: %w", err)
	}
	c, err := i18n.Load(sub, sourceLocale)
	if err != nil {
		return nil, fmt.Errorf("message catalogs: %w", err)
	}
	return c, nil
}

// Text is the message id of the catalog of locale, without values: for a
// tool that tells the bot's answers apart (cmd/loadtest's soak).
func Text(locale, id string) (string, error) {
	c, err := catalog()
	if err != nil {
		return "", err
	}
	return c.For(locale).T(id, nil), nil
}

// userLang is the language of whoever sent i, for what only they see.
func (h *Handler) userLang(i *discordgo.Interaction) *i18n.Language {
	return h.cat.For(string(i.Locale))
}

// publicLang is the language of what i posts for a channel to read: the
// server's — the one its admins chose with /ttt-admin language, else
// Discord's — or in a DM the invoker's.
func (h *Handler) publicLang(ctx context.Context, i *discordgo.Interaction) *i18n.Language {
	if i.GuildID == "" {
		return h.userLang(i)
	}
	if locale := h.look(ctx, i.GuildID).Locale; locale != "" {
		return h.cat.For(locale)
	}
	if i.GuildLocale != nil && *i.GuildLocale != "" {
		return h.cat.For(string(*i.GuildLocale))
	}
	return h.cat.Source()
}

// gameLang is the language game g speaks in its channel, chosen when it was
// created: timers edit its board long after any interaction.
func (h *Handler) gameLang(g *tttbot.Game) *i18n.Language { return h.cat.For(g.Language) }

// duration writes d in whole hours, minutes or seconds, the largest unit
// that divides it.
func duration(l *i18n.Language, d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return l.N("duration_hours", int(d/time.Hour), nil)
	case d >= time.Minute && d%time.Minute == 0:
		return l.N("duration_minutes", int(d/time.Minute), nil)
	}
	return l.N("duration_seconds", int(d.Round(time.Second)/time.Second), nil)
}
