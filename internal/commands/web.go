package commands

import (
	"context"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
)

// Profiles reads what the web pages show of players, for the links to
// them.
type Profiles interface {
	Profiles(ctx context.Context, ids []string) (map[string]tttbot.Profile, error)
}

// Catalog loads the message catalogs the bot speaks, which the web pages
// share.
func Catalog() (*i18n.Catalog, error) { return catalog() }

// ServeWeb has the handler link to the web pages at base, their public
// URL ([web] public_url). It is called once, before the handler answers
// anything; without it no reply links to a page.
func (h *Handler) ServeWeb(base string) { h.web = strings.TrimSuffix(base, "/") }

// guildPage is the URL of the leaderboard page of st's guild, "" when it
// has none.
func (h *Handler) guildPage(st *tttbot.Settings) string {
	if h.web == "" || st == nil || st.Web == "" {
		return ""
	}
	return h.web + "/s/" + st.Web
}

// profilePage is the URL of p's profile: public, or else restricted to the
// games of st's guild when its page is on; "" when there is none.
func (h *Handler) profilePage(p tttbot.Profile, st *tttbot.Settings) string {
	switch {
	case h.web == "" || p.WebID == "" || tttbot.Forgotten(p.ID):
		return ""
	case p.Public:
		return h.web + "/p/" + p.WebID
	case st != nil && st.Web != "":
		return h.web + "/p/" + p.WebID + "?s=" + st.Web
	}
	return ""
}

// gamePage is the URL of game g's replay, "" when the web may not show it
// (see tttbot.Game.OnWeb).
func (h *Handler) gamePage(ctx context.Context, g *tttbot.Game) string {
	if h.web == "" || g.Status != tttbot.StatusFinished {
		return ""
	}
	st, err := h.store.Settings(ctx, g.GuildID)
	if err != nil {
		return ""
	}
	var ps map[string]tttbot.Profile
	if st.Web == "" {
		// Only then do the players' profiles decide.
		if ps, err = h.store.Profiles(ctx, []string{g.Challenger, g.Opponent}); err != nil {
			return ""
		}
	}
	if !g.OnWeb(st, ps) {
		return ""
	}
	return h.web + "/g/" + strconv.FormatInt(g.ID, 10)
}

// tournamentPage is the URL of st's web page, "" while its guild's pages
// are off or the settings cannot be read.
func (h *Handler) tournamentPage(ctx context.Context, st *tttbot.TournamentState) string {
	if h.web == "" || st.WebID == "" || h.guildLink(ctx, st.GuildID) == "" {
		return ""
	}
	return h.web + "/t/" + st.WebID
}

// guildLink is the URL of guildID's page, "" when it has none or the
// settings cannot be read: a link is an extra, never a reason to fail.
func (h *Handler) guildLink(ctx context.Context, guildID string) string {
	if h.web == "" || guildID == "" {
		return ""
	}
	st, err := h.store.Settings(ctx, guildID)
	if err != nil {
		return ""
	}
	return h.guildPage(st)
}

// playerLink is the URL of player's profile as seen from guildID ("": from
// no server), "" when there is none.
func (h *Handler) playerLink(ctx context.Context, player, guildID string) string {
	if h.web == "" {
		return ""
	}
	ps, err := h.store.Profiles(ctx, []string{player})
	if err != nil {
		return ""
	}
	st := &tttbot.Settings{}
	if guildID != "" {
		if st, err = h.store.Settings(ctx, guildID); err != nil {
			return ""
		}
	}
	return h.profilePage(ps[player], st)
}

// linkButton is a button, labelled by message id, that opens url.
func (h *Handler) linkButton(l *i18n.Language, id, url string) discordgo.Button {
	return discordgo.Button{Label: l.T(id, nil), Style: discordgo.LinkButton, URL: url}
}

// withLink adds to m a row with a link button, labelled by message id, to
// url, unless url is "".
func (h *Handler) withLink(m message, l *i18n.Language, id, url string) message {
	if url != "" {
		m.components = append(m.components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{h.linkButton(l, id, url)}})
	}
	return m
}

// profile answers /ttt profile public:…, privately: the user's web
// profile becomes public or private.
func (h *Handler) profile(ctx context.Context, i *discordgo.Interaction, opts options) (interaction.Reply, error) {
	me, public := user(i), opts.flag("public")
	if err := h.play.SetProfilePublic(ctx, tttbot.Player{ID: me.ID, Name: displayName(me), Avatar: me.Avatar}, public); err != nil {
		return interaction.Reply{}, err
	}
	h.logger(ctx).Info("profile visibility changed", "user", me.ID, "public", public)
	l := h.userLang(i)
	if !public {
		return ephemeral(l.T("profile_private", nil)), nil
	}
	m := message{content: l.T("profile_public", nil)}
	if h.web == "" {
		m.content += "\n" + l.T("profile_unserved", nil)
		return post(m, true), nil
	}
	ps, err := h.store.Profiles(ctx, []string{me.ID})
	if err != nil {
		return interaction.Reply{}, err
	}
	return post(h.withLink(m, l, "button_web_profile", h.profilePage(ps[me.ID], nil)), true), nil
}
