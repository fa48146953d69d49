package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
)

// pageSize is a leaderboard page's players.
const pageSize = 50

// trendGames is how many of their last games a row's trend draws.
const trendGames = 10

// maxPage bounds the page a leaderboard's address may ask for, well past
// any server's players.
const maxPage = 100_000

// shapes are the boards the leaderboard pages list, those /ttt challenge
// offers: square, 3 to 5 cells a side, 3 in a row up to the side.
var shapes = []tttbot.Shape{{Rows: 3, Cols: 3, K: 3}, {Rows: 4, Cols: 4, K: 3}, {Rows: 4, Cols: 4, K: 4},
	{Rows: 5, Cols: 5, K: 3}, {Rows: 5, Cols: 5, K: 4}, {Rows: 5, Cols: 5, K: 5}}

// shapeParam names a shape in an address: "4x4x3".
func shapeParam(sh tttbot.Shape) string { return fmt.Sprintf("%dx%dx%d", sh.Rows, sh.Cols, sh.K) }

type leaderboardPage struct {
	Title    string
	Shapes   []shapeLink
	Rows     []leaderRow
	Empty    string
	RankedBy string
	Footer   string
	Prev     string
	Next     string
}

type shapeLink struct {
	Name, URL string
	Current   bool
}

type leaderRow struct {
	Rank, Rating, Games, Record string
	Player                      playerView
	Trend                       *sparkline
}

// leaderboard serves /s/{id}?b=RxCxK&p=N: page N of the leaderboard of
// the server whose page id is, on board shape b.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	st, err := s.store.WebGuild(ctx, r.PathValue("id"))
	if err != nil {
		s.failed(w, r, err)
		return
	}
	q := r.URL.Query()
	shape, ok := shapes[0], true
	if b := q.Get("b"); b != "" {
		ok = false
		for _, sh := range shapes {
			if shapeParam(sh) == b {
				shape, ok = sh, true
			}
		}
	}
	n := 1
	if p := q.Get("p"); p != "" {
		n, err = strconv.Atoi(p)
		ok = ok && err == nil && n >= 1 && n <= maxPage
	}
	if !ok {
		s.fail(w, r, http.StatusNotFound)
		return
	}
	lb, err := s.store.Leaderboard(ctx, st.GuildID, shape, (n-1)*pageSize, pageSize)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	pages := max(1, (lb.Total+pageSize-1)/pageSize)
	if n > pages {
		s.fail(w, r, http.StatusNotFound)
		return
	}
	ids := make([]string, len(lb.Standings))
	for i, sd := range lb.Standings {
		ids[i] = sd.Player
	}
	var profiles map[string]tttbot.Profile
	var trends map[string][]tttbot.RatingPoint
	if len(ids) > 0 {
		if profiles, err = s.store.Profiles(ctx, ids); err != nil {
			s.failed(w, r, err)
			return
		}
		if trends, err = s.store.Trends(ctx, st.GuildID, shape, ids, trendGames); err != nil {
			s.failed(w, r, err)
			return
		}
	}
	l := s.lang(r)
	base := s.prefix + "/s/" + st.Web
	link := func(sh tttbot.Shape, page int) string {
		v := url.Values{}
		if sh != shapes[0] {
			v.Set("b", shapeParam(sh))
		}
		if page > 1 {
			v.Set("p", strconv.Itoa(page))
		}
		if len(v) == 0 {
			return base
		}
		return base + "?" + v.Encode()
	}
	p := leaderboardPage{
		Title:    l.T("web_leaderboard_title", map[string]any{"Shape": gametext.Shape(l, shape)}),
		Empty:    l.T("leaderboard_empty", map[string]any{"Ranked": l.N("rated_games", tttbot.MinRatedGames, nil)}),
		RankedBy: l.T("leaderboard_ranked_by", map[string]any{"Ranked": l.N("rated_games", tttbot.MinRatedGames, nil)}),
		Footer:   l.N("leaderboard_footer", lb.Total, map[string]any{"Page": n, "Pages": pages}),
	}
	for _, sh := range shapes {
		p.Shapes = append(p.Shapes, shapeLink{Name: gametext.Shape(l, sh), URL: link(sh, 1), Current: sh == shape})
	}
	if n > 1 {
		p.Prev = link(shape, n-1)
	}
	if n < pages {
		p.Next = link(shape, n+1)
	}
	var modified time.Time
	for _, sd := range lb.Standings {
		p.Rows = append(p.Rows, leaderRow{
			Rank: l.Int(sd.Rank), Rating: ratingText(l, sd), Games: l.Int(sd.Games),
			Record: record(l, sd.Wins, sd.Losses, sd.Draws),
			Player: s.player(l, sd.Player, profiles[sd.Player], "", st),
			Trend:  trend(l, trends[sd.Player]),
		})
		if sd.UpdatedAt.After(modified) {
			modified = sd.UpdatedAt
		}
	}
	s.render(w, r, l, "leaderboard", p, http.StatusOK, modified)
}

// sparkline is a small chart of ratings, drawn inline.
type sparkline struct {
	W, H   int
	Points string // the polyline's
	Alt    string
}

// trend draws points' ratings as a sparkline; nil for fewer than two.
func trend(l *i18n.Language, points []tttbot.RatingPoint) *sparkline {
	if len(points) < 2 {
		return nil
	}
	sp := &sparkline{W: 80, H: 24, Alt: l.T("web_trend_alt", map[string]any{
		"From": rating(l, points[0].R), "To": rating(l, points[len(points)-1].R)})}
	lo, hi := points[0].R, points[0].R
	for _, pt := range points {
		lo, hi = min(lo, pt.R), max(hi, pt.R)
	}
	span := max(hi-lo, 1)
	var b []byte
	for i, pt := range points {
		x := float64(i) * float64(sp.W-2) / float64(len(points)-1)
		y := float64(sp.H-2) - (pt.R-lo)/span*float64(sp.H-4)
		b = fmt.Appendf(b, "%.1f,%.1f ", x+1, y)
	}
	sp.Points = string(b[:len(b)-1])
	return sp
}
