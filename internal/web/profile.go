package web

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/picture"
)

// recentGames is how many of their last games a profile lists.
const recentGames = 20

type profilePage struct {
	Title      string
	Player     playerView
	ServerOnly string
	Ratings    []ratingRow
	Chart      string
	ChartAlt   string
	VsBot      []botRow
	Recent     []gameRow
}

type ratingRow struct{ Shape, Rating, Rank, Games, Record string }

type botRow struct{ Level, Record string }

type gameRow struct {
	Date, ISO, Shape, Result, URL string
	Opponent                      playerView
}

// profileScope is what a profile shows: the player, and the guild whose
// games alone it shows (nil: a public profile, everything).
type profileScope struct {
	p     *tttbot.Profile
	guild *tttbot.Settings
}

// scope is the profile at r's address, as the viewer may see it, with its
// ratings there: public, or restricted to the games of the enabled server
// named by ?s=. ENOTFOUND otherwise.
func (s *Server) scope(ctx context.Context, r *http.Request) (profileScope, *tttbot.Stats, error) {
	sc, err := s.profileOf(ctx, r)
	if err != nil {
		return sc, nil, err
	}
	st, err := s.store.Stats(ctx, sc.guildID(), sc.p.ID)
	return sc, st, err
}

// profileOf is scope's profile and where it may be seen.
func (s *Server) profileOf(ctx context.Context, r *http.Request) (profileScope, error) {
	p, err := s.store.Profile(ctx, r.PathValue("id"))
	if err != nil {
		return profileScope{}, err
	}
	if tttbot.Forgotten(p.ID) {
		return profileScope{}, tttbot.ErrNotFound
	}
	g := r.URL.Query().Get("s")
	if p.Public && g == "" {
		return profileScope{p: p}, nil
	}
	if g == "" {
		return profileScope{}, tttbot.ErrNotFound
	}
	st, err := s.store.WebGuild(ctx, g)
	if err != nil {
		return profileScope{}, err
	}
	return profileScope{p: p, guild: st}, nil
}

// guildID is the scope of the ratings shown: "" for the global ones.
func (sc profileScope) guildID() string {
	if sc.guild == nil {
		return ""
	}
	return sc.guild.GuildID
}

// profile serves /p/{id}, and /p/{id}?s={server}: a player's ratings,
// chart, records and recent games.
func (s *Server) profile(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	sc, st, err := s.scope(ctx, r)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	scope := sc.guildID()
	recent, err := s.store.RecentGames(ctx, sc.p.ID, scope, recentGames)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	if sc.guild != nil && len(recent) == 0 && len(st.Ratings) == 0 {
		// A private player who never played on this server is not shown
		// there: nothing says the profile exists.
		s.fail(w, r, http.StatusNotFound)
		return
	}
	var opponents []string
	for _, e := range recent {
		opponents = append(opponents, e.Opponent)
	}
	profiles, err := s.store.Profiles(ctx, opponents)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	l := s.lang(r)
	me := s.player(l, sc.p.ID, *sc.p, "", sc.guild)
	p := profilePage{Title: l.T("web_profile_title", map[string]any{"Name": me.Name}), Player: me}
	if sc.guild != nil {
		p.ServerOnly = l.T("web_profile_server_only", nil)
	}
	var modified time.Time
	for _, sd := range st.Ratings {
		rank := "–"
		if sd.Rank > 0 {
			rank = l.Int(sd.Rank)
		}
		p.Ratings = append(p.Ratings, ratingRow{Shape: gametext.Shape(l, sd.Shape), Rating: ratingText(l, sd), Rank: rank,
			Games: l.Int(sd.Games), Record: record(l, sd.Wins, sd.Losses, sd.Draws)})
		if sd.UpdatedAt.After(modified) {
			modified = sd.UpdatedAt
		}
	}
	if len(st.History) > 0 && len(st.History[0].Points) > 0 {
		p.Chart = s.prefix + "/p/" + sc.p.WebID + "/chart.svg"
		if sc.guild != nil {
			p.Chart += "?s=" + sc.guild.Web
		}
		p.ChartAlt = chartAlt(l, st.History[0])
	}
	if sc.guild == nil {
		// The record against the bot is kept for all servers at once: a
		// public profile's alone.
		levels := ai.Levels()
		slices.SortFunc(st.VsBot, func(a, b tttbot.BotRecord) int {
			return slices.Index(levels, ai.Level(a.Level)) - slices.Index(levels, ai.Level(b.Level))
		})
		for _, b := range st.VsBot {
			p.VsBot = append(p.VsBot, botRow{Level: gametext.Level(l, b.Level), Record: record(l, b.Wins, b.Losses, b.Draws)})
		}
	}
	for _, e := range recent {
		d, iso := date(l, e.FinishedAt)
		p.Recent = append(p.Recent, gameRow{Date: d, ISO: iso, Shape: gametext.Shape(l, e.Shape), Result: outcomeText(l, e.Outcome),
			URL:      s.prefix + "/g/" + strconv.FormatInt(e.GameID, 10),
			Opponent: s.player(l, e.Opponent, profiles[e.Opponent], e.BotLevel, sc.guild)})
		if e.FinishedAt.After(modified) {
			modified = e.FinishedAt
		}
	}
	s.render(w, r, l, "profile", p, http.StatusOK, modified)
}

// chartShapes is how many boards a profile's chart draws, those the player
// played most.
const chartShapes = 4

// chart serves /p/{id}/chart.svg: the profile's rating chart, a line per
// board, drawn by internal/picture.
func (s *Server) chart(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	_, st, err := s.scope(ctx, r)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	var modified time.Time
	for _, sd := range st.Ratings {
		if sd.UpdatedAt.After(modified) {
			modified = sd.UpdatedAt
		}
	}
	var b bytes.Buffer
	switch err := picture.Chart(&b, st.History[:min(len(st.History), chartShapes)], picture.SVG); {
	case errors.Is(err, picture.ErrNoRatings):
		s.fail(w, r, http.StatusNotFound)
		return
	case err != nil:
		s.failed(w, r, err)
		return
	}
	// The chart is an image: its styles are its own, and it runs nothing.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	s.send(w, r, page{body: b.Bytes(), typ: "image/svg+xml", modified: modified, cache: revalidate})
}

// chartAlt describes the chart's first line, h, in words.
func chartAlt(l *i18n.Language, h tttbot.RatingHistory) string {
	pts := h.Points
	lo, hi := pts[0].R, pts[0].R
	for _, pt := range pts {
		lo, hi = min(lo, pt.R), max(hi, pt.R)
	}
	return l.T("web_chart_alt", map[string]any{"Shape": gametext.Shape(l, h.Shape),
		"From": rating(l, pts[0].R), "To": rating(l, pts[len(pts)-1].R), "Low": rating(l, lo), "High": rating(l, hi)})
}
