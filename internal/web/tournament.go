package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
)

type tournamentPage struct {
	Title, About, Status string
	Podium               []podiumStep
	Knockout             bool // the rounds drawn as a bracket, with no table
	Table                []placeRow
	Rounds               []roundView
	Empty                string
}

// podiumStep is a place of the podium: its rank, drawn as a medal of
// its colour (an emoji would need a font the viewer may lack), and who
// holds it.
type podiumStep struct {
	Rank, Class string
	Players     []playerView
}

// placeRow is a line of the table; Games and Record count the games
// played, not the byes, which only the points count.
type placeRow struct {
	Rank, Points, Buchholz, SB, Games, Record string
	Player                                    playerView
	Withdrawn                                 bool
}

type roundView struct {
	Title   string
	Current bool
	Boards  []boardView
}

// boardView is one board of a round: White (X) against Black (O), or a
// bye; its result in digits, linking to the game's page once it is over.
type boardView struct {
	Board          string
	White, Black   sideView
	Bye            bool
	ToCome         bool // a board of a knockout's round not yet drawn
	Result, URL    string
	ResultReadable string // the result in words, for titles
}

// sideView is a board's player, and whether they won it.
type sideView struct {
	Player playerView
	Won    bool
}

// tournament serves /t/{id}: the tournament whose page id is, while its
// guild's pages are on: its status, the table (Swiss, round robin) or the
// bracket (knockout), and every round's boards.
func (s *Server) tournament(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	st, err := s.store.WebTournament(ctx, r.PathValue("id"))
	if err != nil {
		s.failed(w, r, err)
		return
	}
	guild, err := s.store.Settings(ctx, st.GuildID)
	if err != nil {
		s.failed(w, r, err)
		return
	}
	if guild.Web == "" {
		s.fail(w, r, http.StatusNotFound)
		return
	}
	ids := make([]string, len(st.Entrants))
	for i, e := range st.Entrants {
		ids[i] = e.Player
	}
	profiles := map[string]tttbot.Profile{}
	if len(ids) > 0 {
		if profiles, err = s.store.Profiles(ctx, ids); err != nil {
			s.failed(w, r, err)
			return
		}
	}
	l := s.lang(r)
	who := func(id string) playerView { return s.player(l, id, profiles[id], "", guild) }
	p := s.tournamentPage(l, st, who)
	// A tournament changes until it is over: only then does Last-Modified
	// hold; the ETag revalidates the rest.
	var modified time.Time
	if st.Status == tttbot.TournamentFinished || st.Status == tttbot.TournamentCancelled {
		modified = st.UpdatedAt
	}
	s.render(w, r, l, "tournament", p, http.StatusOK, modified)
}

// tournamentPage is st's page in language l, naming players with who.
func (s *Server) tournamentPage(l *i18n.Language, st *tttbot.TournamentState, who func(string) playerView) tournamentPage {
	active := 0
	for _, e := range st.Entrants {
		if !e.Withdrawn {
			active++
		}
	}
	p := tournamentPage{Title: st.Name, Knockout: st.Format == tttbot.Knockout,
		About: l.T("web_tournament_about", map[string]any{"Format": l.T("choice_format_"+string(st.Format), nil),
			"Shape": gametext.Shape(l, st.Shape), "Count": l.Int(active)})}
	table := st.Standings()
	switch st.Status {
	case tttbot.TournamentSignup:
		p.Status = l.T("web_tournament_signup", nil)
		p.Empty = l.T("web_tournament_no_round", nil)
	case tttbot.TournamentRunning:
		p.Status = l.T("web_tournament_running", map[string]any{"Round": l.Int(st.Round), "Rounds": l.Int(st.Rounds)})
	case tttbot.TournamentCancelled:
		p.Status = l.T("web_tournament_cancelled", nil)
	case tttbot.TournamentFinished:
		p.Status = l.T("web_tournament_finished", nil)
		for n, class := range []string{"gold", "silver", "bronze"} {
			step := podiumStep{Rank: l.Int(n + 1), Class: class}
			for _, pl := range table {
				if pl.Rank == n+1 {
					step.Players = append(step.Players, who(pl.Player))
				}
			}
			if len(step.Players) > 0 {
				p.Podium = append(p.Podium, step)
			}
		}
	}
	if !p.Knockout && len(st.Games) > 0 {
		for _, pl := range table {
			p.Table = append(p.Table, placeRow{Rank: l.Int(pl.Rank), Points: points(pl.Points), Buchholz: points(pl.Buchholz),
				SB: points(pl.SonnebornBerger), Games: l.Int(pl.Wins + pl.Draws + pl.Losses), Record: record(l, pl.Wins, pl.Losses, pl.Draws),
				Player: who(pl.Player), Withdrawn: pl.Withdrawn})
		}
	}
	for _, g := range st.Games {
		if len(p.Rounds) < g.Round {
			p.Rounds = append(p.Rounds, roundView{Title: l.T("web_round", map[string]any{"Round": l.Int(g.Round)}),
				Current: g.Round == st.Round && st.Status == tttbot.TournamentRunning})
		}
		rv := &p.Rounds[len(p.Rounds)-1]
		rv.Boards = append(rv.Boards, s.boardView(l, g, who))
	}
	// A running knockout's bracket goes on to its final: each round still
	// to come is drawn with a board for every two of the last.
	if p.Knockout && st.Status == tttbot.TournamentRunning {
		for r := len(p.Rounds) + 1; r <= st.Rounds && len(p.Rounds) > 0; r++ {
			rv := roundView{Title: l.T("web_round", map[string]any{"Round": l.Int(r)})}
			for range (len(p.Rounds[len(p.Rounds)-1].Boards) + 1) / 2 {
				rv.Boards = append(rv.Boards, boardView{ToCome: true})
			}
			p.Rounds = append(p.Rounds, rv)
		}
	}
	return p
}

// boardView is board g, naming players with who.
func (s *Server) boardView(l *i18n.Language, g tttbot.TournamentGame, who func(string) playerView) boardView {
	b := boardView{Board: l.Int(g.Board), White: sideView{Player: who(g.White)}}
	if g.Black == "" {
		b.Bye, b.White.Won = true, true
		b.Result = l.T("web_bye", nil)
		b.ResultReadable = b.Result
		return b
	}
	b.Black = sideView{Player: who(g.Black)}
	switch g.Result {
	case tttbot.ResultWhite:
		b.Result, b.White.Won = "1–0", true
		b.ResultReadable = l.T("web_board_won", map[string]any{"Winner": b.White.Player.Name})
	case tttbot.ResultBlack:
		b.Result, b.Black.Won = "0–1", true
		b.ResultReadable = l.T("web_board_won", map[string]any{"Winner": b.Black.Player.Name})
	case tttbot.ResultDraw:
		b.Result = "½–½"
		b.ResultReadable = l.T("web_outcome_draw", nil)
	case tttbot.ResultBothLose:
		b.Result = "0–0"
		b.ResultReadable = l.T("web_board_both_lost", nil)
	default:
		b.Result = l.T("web_board_playing", nil)
		b.ResultReadable = b.Result
	}
	if g.GameID != 0 && g.Result != tttbot.ResultPending {
		b.URL = s.prefix + "/g/" + strconv.FormatInt(g.GameID, 10)
	}
	return b
}

// points writes a score as players read it: 2, 1.5, 0.75.
func points(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }
