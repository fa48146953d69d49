package web

import (
	"math"
	"strconv"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
)

// playerView is a player as a page shows them: their name, an avatar, and
// a link to their profile when it may be seen from here.
type playerView struct {
	Name, URL, Avatar, AvatarAlt string
}

// cdn is Discord's CDN, the avatars' only source.
const cdn = "https://cdn.discordapp.com"

// avatar is the address of p's avatar. A picture of one's own is at an
// address that holds one's Discord ID, so only a public profile's shows
// it; any other player gets one of Discord's default avatars, picked by
// the ID's bits as Discord picks them, which tell nothing of the ID.
func avatar(p tttbot.Profile) string {
	if p.Public && p.Avatar != "" {
		return cdn + "/avatars/" + p.ID + "/" + p.Avatar + ".png?size=64"
	}
	n, _ := strconv.ParseUint(p.ID, 10, 64)
	return cdn + "/embed/avatars/" + strconv.FormatUint((n>>22)%6, 10) + ".png"
}

// name is how a page names player id, known as p: the bot with its level
// in a game against it, a placeholder for a forgotten player.
func (s *Server) name(l *i18n.Language, id string, p tttbot.Profile, level string) string {
	switch {
	case id == s.opts.BotID && level != "":
		return l.T("web_bot", map[string]any{"Level": gametext.Level(l, level)})
	case tttbot.Forgotten(id):
		return l.T("web_forgotten", nil)
	case p.Name == "":
		return l.T("web_unknown_player", nil)
	}
	return p.Name
}

// player is player id, known as p, for a page; guild, the settings of the
// server whose page the viewer came from (nil: none), restricts a private
// profile's link to that server's games.
func (s *Server) player(l *i18n.Language, id string, p tttbot.Profile, level string, guild *tttbot.Settings) playerView {
	v := playerView{Name: s.name(l, id, p, level)}
	v.Avatar, v.AvatarAlt = avatar(p), l.T("web_avatar_alt", map[string]any{"Name": v.Name})
	if id == s.opts.BotID && level != "" {
		v.Avatar = cdn + "/embed/avatars/0.png"
	}
	switch {
	case p.WebID == "" || tttbot.Forgotten(id):
	case p.Public:
		v.URL = s.prefix + "/p/" + p.WebID
	case guild != nil && guild.Web != "":
		v.URL = s.prefix + "/p/" + p.WebID + "?s=" + guild.Web
	}
	return v
}

func rating(l *i18n.Language, r float64) string { return l.Int(int(math.Round(r))) }

// ratingText is a rating with its deviation: "1,612 ± 48".
func ratingText(l *i18n.Language, s tttbot.Standing) string {
	return rating(l, s.R) + " ± " + rating(l, s.RD)
}

// record is won–lost–drawn in digits.
func record(l *i18n.Language, w, lost, d int) string {
	return l.Int(w) + "–" + l.Int(lost) + "–" + l.Int(d)
}

// date is t's day as the language writes dates, in UTC, and in ISO 8601
// for the datetime attribute.
func date(l *i18n.Language, t time.Time) (text, iso string) {
	t = t.UTC()
	return l.T("web_date", map[string]any{
		"Year": strconv.Itoa(t.Year()), "Month": strconv.Itoa(int(t.Month())), "Day": strconv.Itoa(t.Day()),
	}), t.Format(time.RFC3339)
}

// outcomeText is a game's result for a player.
func outcomeText(l *i18n.Language, o tttbot.Outcome) string {
	switch o {
	case tttbot.Win:
		return l.T("web_win", nil)
	case tttbot.Loss:
		return l.T("web_loss", nil)
	}
	return l.T("web_draw", nil)
}
