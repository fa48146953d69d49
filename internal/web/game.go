package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
)

// judgeBudget bounds the solver's work for one game's verdicts, as
// /ttt review's does; positions left are marked unsolved, and not kept.
const judgeBudget = time.Second

type gamePage struct {
	Ply                                    int // the moves shown
	Title, Shape, Date, ISO, Outcome, Step string
	X, O                                   playerView
	Cols                                   []string
	Rows                                   []boardRow
	First, Prev, Next, Last                string
	Moves                                  []moveRow
}

func (gamePage) script() bool { return true }

type boardRow struct {
	Name  string
	Cells []cellView
}

type cellView struct{ Mark, Class string }

type moveRow struct {
	Mark, Cell, Verdict, URL string
	Current                  bool
}

// game serves /g/{id}?m=N: finished game id after its N-th move (all of
// them by default), with every move's verdict.
func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 || r.PathValue("id") != strconv.FormatInt(id, 10) {
		s.fail(w, r, http.StatusNotFound)
		return
	}
	var g *tttbot.Game
	var st *tttbot.Settings
	var profiles map[string]tttbot.Profile
	var moves []tttbot.Move
	// The reads hold a slot; the solver, which may take its budget, does
	// not.
	err = s.reading(ctx, func() (err error) {
		if g, err = s.store.Game(ctx, id); err != nil {
			return err
		}
		if g.Status != tttbot.StatusFinished {
			return tttbot.ErrNotFound
		}
		if st, err = s.store.Settings(ctx, g.GuildID); err != nil {
			return err
		}
		if profiles, err = s.store.Profiles(ctx, []string{g.Challenger, g.Opponent}); err != nil {
			return err
		}
		if !g.OnWeb(st, profiles) {
			return tttbot.ErrNotFound
		}
		moves, err = s.store.Moves(ctx, id)
		return err
	})
	if err != nil {
		s.failed(w, r, err)
		return
	}
	geo, err := game.NewGeometry(g.Rows, g.Cols, g.K)
	if err != nil {
		s.failed(w, r, fmt.Errorf("game %d: %w", id, err))
		return
	}
	positions := []game.Position{game.NewPosition(geo)}
	for _, m := range moves {
		next, err := positions[len(positions)-1].Play(m.Cell)
		if err != nil {
			s.failed(w, r, fmt.Errorf("game %d move %d: %w", id, m.Ply, err))
			return
		}
		positions = append(positions, next)
	}
	ply := len(moves)
	if m := r.URL.Query().Get("m"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 0 || n > len(moves) {
			s.fail(w, r, http.StatusNotFound)
			return
		}
		ply = n
	}
	l := s.lang(r)
	p := s.gamePage(l, g, st, profiles, geo, positions, moves, ply)
	p.Moves = s.judgeMoves(ctx, l, g, geo, positions, moves, ply)
	s.render(w, r, l, "game", p, http.StatusOK, g.FinishedAt)
}

// gamePage is game g's page after ply of its moves, but for the verdicts.
func (s *Server) gamePage(l *i18n.Language, g *tttbot.Game, st *tttbot.Settings, profiles map[string]tttbot.Profile,
	geo *game.Geometry, positions []game.Position, moves []tttbot.Move, ply int) gamePage {
	num := "#" + strconv.FormatInt(g.ID, 10)
	p := gamePage{Title: l.T("web_game_title", map[string]any{"Game": num}), Shape: gametext.Shape(l, g.Shape())}
	p.Date, p.ISO = date(l, g.FinishedAt)
	p.X = s.player(l, g.XPlayer, profiles[g.XPlayer], g.BotLevel, st)
	p.O = s.player(l, g.OPlayer, profiles[g.OPlayer], g.BotLevel, st)
	p.X.Name, p.O.Name = "X · "+p.X.Name, "O · "+p.O.Name
	winner, loser := s.name(l, g.Winner, profiles[g.Winner], g.BotLevel), s.name(l, g.Other(g.Winner), profiles[g.Other(g.Winner)], g.BotLevel)
	switch g.Reason {
	case tttbot.ReasonLine:
		p.Outcome = l.T("web_outcome_line", map[string]any{"Winner": winner})
	case tttbot.ReasonResign:
		p.Outcome = l.T("web_outcome_resign", map[string]any{"Winner": winner, "Loser": loser})
	case tttbot.ReasonTimeout:
		if g.BothLost() {
			p.Outcome = l.T("web_outcome_timeout_both", map[string]any{
				"X": s.name(l, g.XPlayer, profiles[g.XPlayer], g.BotLevel), "O": s.name(l, g.OPlayer, profiles[g.OPlayer], g.BotLevel)})
			break
		}
		p.Outcome = l.T("web_outcome_timeout", map[string]any{"Winner": winner, "Loser": loser})
	default:
		p.Outcome = l.T("web_outcome_draw", nil)
	}
	p.Ply = ply
	pos, last := positions[ply], -1
	p.Step = l.T("web_start", nil)
	if ply > 0 {
		m := moves[ply-1]
		last = m.Cell
		p.Step = l.T("web_move", map[string]any{"Ply": ply, "Total": len(moves), "Mark": markOf(g, m.Player), "Cell": gametext.Cell(geo, m.Cell)})
	}
	for c := range geo.Cols {
		p.Cols = append(p.Cols, string(rune('A'+c)))
	}
	for row := range geo.Rows {
		br := boardRow{Name: strconv.Itoa(row + 1)}
		for c := range geo.Cols {
			cell := geo.Cell(row, c)
			var v cellView
			switch pos.At(cell) {
			case game.X:
				v = cellView{Mark: "X", Class: "x"}
			case game.O:
				v = cellView{Mark: "O", Class: "o"}
			}
			if cell == last {
				v.Class += " last"
			}
			br.Cells = append(br.Cells, v)
		}
		p.Rows = append(p.Rows, br)
	}
	if ply > 0 {
		p.First, p.Prev = s.stepURL(g.ID, 0), s.stepURL(g.ID, ply-1)
	}
	if ply < len(moves) {
		p.Next, p.Last = s.stepURL(g.ID, ply+1), s.stepURL(g.ID, len(moves))
	}
	return p
}

// stepURL is the address of game id after ply moves.
func (s *Server) stepURL(id int64, ply int) string {
	return s.prefix + "/g/" + strconv.FormatInt(id, 10) + "?m=" + strconv.Itoa(ply)
}

// markOf is the mark player plays in g.
func markOf(g *tttbot.Game, player string) string {
	if player == g.XPlayer {
		return "X"
	}
	return "O"
}

// judgeMoves lists the moves with their verdicts, the ply-th current.
func (s *Server) judgeMoves(ctx context.Context, l *i18n.Language, g *tttbot.Game, geo *game.Geometry,
	positions []game.Position, moves []tttbot.Move, ply int) []moveRow {
	analyses := s.analyze(ctx, g.ID, positions[:len(moves)])
	rows := make([]moveRow, len(moves))
	for i, m := range moves {
		rows[i] = moveRow{Mark: markOf(g, m.Player), Cell: gametext.Cell(geo, m.Cell), URL: s.stepURL(g.ID, i+1), Current: i+1 == ply,
			Verdict: gametext.MoveVerdict(l, geo, analyses[i], m.Cell)}
	}
	return rows
}

// analyze analyzes positions, the ones each move of game id was played
// in, from the last: the late ones are cheap and fill the solver's table
// for the early ones. Those the budget leaves unsolved stay unproven. A
// game's analyses are kept, unsolved ones too, so that a game the budget
// cannot solve costs its budget once, not on every view: a finished
// game's moves never change.
func (s *Server) analyze(ctx context.Context, id int64, positions []game.Position) []ai.Analysis {
	if as, ok := s.judged.get(id); ok && len(as) == len(positions) {
		return as
	}
	budget, cancel := context.WithTimeout(ctx, judgeBudget)
	defer cancel()
	as := make([]ai.Analysis, len(positions))
	for i := len(positions) - 1; i >= 0 && budget.Err() == nil; i-- {
		if a, err := s.ai.Analyze(budget, positions[i]); err == nil {
			as[i] = a
		}
	}
	if ctx.Err() == nil { // the viewer stayed: the budget, not a hang-up, cut it short
		s.judged.put(id, as)
	}
	return as
}

// judgeCacheSize bounds the games whose analyses are kept: a few KB each.
const judgeCacheSize = 4096

// judgeCache keeps the analyses of finished games, at most max of them;
// when full, it drops an arbitrary one.
type judgeCache struct {
	mu    sync.Mutex
	max   int
	games map[int64][]ai.Analysis
}

func newJudgeCache(max int) *judgeCache {
	return &judgeCache{max: max, games: make(map[int64][]ai.Analysis)}
}

func (c *judgeCache) get(id int64) ([]ai.Analysis, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	as, ok := c.games[id]
	return as, ok
}

func (c *judgeCache) put(id int64, as []ai.Analysis) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.games {
		if len(c.games) < c.max {
			break
		}
		delete(c.games, k)
	}
	c.games[id] = as
}
