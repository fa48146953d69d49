package commands

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/palette"
	"github.com/tttbot/tttbot/internal/puzzle"
	glicko "github.com/tttbot/tttbot/internal/rating"
)

// Puzzles reads the puzzles and the players' puzzle ratings.
type Puzzles interface {
	Puzzle(ctx context.Context, id string) (*tttbot.Puzzle, error)
	NextPuzzle(ctx context.Context, player string, shape tttbot.Shape, r float64) (*tttbot.Puzzle, error)
	PuzzleStanding(ctx context.Context, player string) (tttbot.PuzzleStanding, error)
	PuzzleLeaderboard(ctx context.Context, offset, limit int) (tttbot.PuzzleLeaderboardPage, error)
}

// actPuzzle is a move on a puzzle's board:
// ttt:z:PUZZLE:MOVES:START:CELL, MOVES the cells played since the puzzle's
// start, one base-36 digit each ("-" for none), START the Unix second the
// board was first shown, in base 36. A puzzle's board is private and
// keeps no state but its buttons: each click replays the moves.
const actPuzzle = "z"

// puzzleClick is what a click on a puzzle's board says.
type puzzleClick struct {
	id    string
	moves []int
	start time.Time
	cell  int
}

func (c puzzleClick) String() string {
	var b strings.Builder
	for _, m := range c.moves {
		b.WriteString(strconv.FormatInt(int64(m), 36))
	}
	if len(c.moves) == 0 {
		b.WriteByte('-')
	}
	return fmt.Sprintf("ttt:%s:%s:%s:%s:%d", actPuzzle, c.id, b.String(), strconv.FormatInt(c.start.Unix(), 36), c.cell)
}

// parsePuzzleClick reads a puzzle board's custom ID; it checks the syntax,
// and the caller the moves against the puzzle.
func parsePuzzleClick(s string) (puzzleClick, error) {
	f := strings.Split(s, ":")
	bad := fmt.Errorf("puzzle button %q: %w", s, errBadPuzzleClick)
	if len(f) != 6 || f[0] != "ttt" || f[1] != actPuzzle || f[2] == "" || len(f[3]) > game.MaxSize*game.MaxSize {
		return puzzleClick{}, bad
	}
	c := puzzleClick{id: f[2]}
	if f[3] != "-" {
		for _, ch := range f[3] {
			m, err := strconv.ParseInt(string(ch), 36, 0)
			if err != nil || m >= game.MaxSize*game.MaxSize {
				return puzzleClick{}, bad
			}
			c.moves = append(c.moves, int(m))
		}
	}
	start, err := strconv.ParseInt(f[4], 36, 64)
	if err != nil || start <= 0 || start > math.MaxInt32*4 {
		return puzzleClick{}, bad
	}
	c.start = time.Unix(start, 0).UTC()
	if c.cell, err = strconv.Atoi(f[5]); err != nil || c.cell < 0 || c.cell >= game.MaxSize*game.MaxSize {
		return puzzleClick{}, bad
	}
	return c, nil
}

var errBadPuzzleClick = errors.New("malformed")

// puzzleBudget bounds the solver's work on a click, as hintBudget does.
const puzzleBudget = 2 * time.Second

// puzzle answers /ttt puzzle, privately: the puzzle the player has not
// tried rated nearest their puzzle rating, as a board to solve.
func (h *Handler) puzzle(ctx context.Context, i *discordgo.Interaction) (interaction.Reply, error) {
	me := user(i).ID
	st, err := h.store.PuzzleStanding(ctx, me)
	if err != nil {
		return interaction.Reply{}, err
	}
	r := st.R
	if st.RD == 0 {
		r = glicko.DefaultR
	}
	p, err := h.store.NextPuzzle(ctx, me, tttbot.Shape{}, r)
	if tttbot.ErrorCode(err) == tttbot.ENOTFOUND {
		return interaction.Reply{}, refuse(tttbot.ENOTFOUND, "puzzle_none", nil)
	} else if err != nil {
		return interaction.Reply{}, err
	}
	return h.showPuzzle(ctx, i, p)
}

// showPuzzle answers with puzzle p's board, privately, its clock started.
func (h *Handler) showPuzzle(ctx context.Context, i *discordgo.Interaction, p *tttbot.Puzzle) (interaction.Reply, error) {
	pos, err := p.Position()
	if err != nil {
		return interaction.Reply{}, err
	}
	l := h.userLang(i)
	c := puzzleClick{id: p.ID, start: h.opts.Now().Truncate(time.Second)}
	m := h.puzzleBoard(ctx, l, i.GuildID, p, pos, c, "", 0, true)
	return privateMessage(m), nil
}

// puzzleMove answers a click on a puzzle's board: a winning move gets the
// bot's longest defence, until the win; the first move that does not win
// ends the attempt with what it leads to and the winning moves. The end of
// an attempt records it, rated when it is the player's first at the
// puzzle.
func (h *Handler) puzzleMove(ctx context.Context, i *discordgo.Interaction, customID string) (interaction.Reply, error) {
	c, err := parsePuzzleClick(customID)
	if err != nil {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_button_start", nil)
	}
	p, err := h.store.Puzzle(ctx, c.id)
	if err != nil {
		return interaction.Reply{}, err
	}
	pos, err := p.Position()
	if err != nil {
		return interaction.Reply{}, err
	}
	solver := pos.ToMove()
	for _, m := range c.moves {
		if pos, err = pos.Play(m); err != nil {
			return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_button_start", nil)
		}
	}
	if pos.ToMove() != solver || pos.Result().Over || !pos.Empty().Has(c.cell) {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_button_start", nil)
	}
	actx, cancel := context.WithTimeout(ctx, puzzleBudget)
	defer cancel()
	a, err := h.analyze(actx, pos)
	if err != nil {
		return interaction.Reply{}, err
	}
	l := h.userLang(i)
	took := h.opts.Now().Sub(c.start)
	u := user(i)
	if puzzle.Wins(a).Has(c.cell) {
		next, _ := pos.Play(c.cell)
		c.moves = append(c.moves, c.cell)
		if next.Result().Over {
			at, st, err := h.play.AttemptPuzzle(ctx, u.ID, displayName(u), p.ID, true, len(c.moves), took)
			if err != nil {
				return interaction.Reply{}, err
			}
			note := l.T("puzzle_solved", map[string]any{"Plies": len(c.moves), "Time": duration(l, took.Round(time.Second))}) +
				"\n" + h.puzzleRating(l, at, st)
			r := updateMessage(h.puzzleBoard(ctx, l, i.GuildID, p, next, c, note, 0, false))
			r.Edit = h.dailyEdit(ctx, i, p, c.start, took)
			return r, nil
		}
		b, err := h.analyze(actx, next)
		if err != nil {
			return interaction.Reply{}, err
		}
		d := puzzle.Defence(b)
		next, _ = next.Play(d)
		c.moves = append(c.moves, d)
		note := l.T("puzzle_answer", map[string]any{"Yours": gametext.Cell(next.Geometry(), c.cell), "Mine": gametext.Cell(next.Geometry(), d)})
		return updateMessage(h.puzzleBoard(ctx, l, i.GuildID, p, next, c, note, 0, true)), nil
	}
	// A move that does not win: what it leads to, and the winning moves.
	var note string
	for _, mv := range a.Moves {
		switch {
		case mv.Cell != c.cell:
		case mv.Value == 0:
			note = l.T("puzzle_wrong_draw", map[string]any{"Cell": gametext.Cell(pos.Geometry(), c.cell)})
		default:
			note = l.T("puzzle_wrong_loss", map[string]any{"Cell": gametext.Cell(pos.Geometry(), c.cell), "Plies": mv.Plies - 1})
		}
	}
	note += "\n" + l.T("puzzle_winning", map[string]any{"Cells": gametext.Cells(l, pos.Geometry(), puzzle.Wins(a).Cells())})
	at, st, err := h.play.AttemptPuzzle(ctx, u.ID, displayName(u), p.ID, false, len(c.moves)+1, took)
	if err != nil {
		return interaction.Reply{}, err
	}
	note += "\n" + h.puzzleRating(l, at, st)
	return updateMessage(h.puzzleBoard(ctx, l, i.GuildID, p, pos, c, note, puzzle.Wins(a), false)), nil
}

// analyze is the solver's proven verdict on pos.
func (h *Handler) analyze(ctx context.Context, pos game.Position) (ai.Analysis, error) {
	a, err := h.ai.Analyze(ctx, pos)
	if err == nil && !a.Proven {
		err = fmt.Errorf("analyze %s: %w", pos, puzzle.ErrUnproven)
	}
	return a, err
}

// puzzleRating says how an attempt moved the player's puzzle rating, or
// that a replay did not.
func (h *Handler) puzzleRating(l *i18n.Language, a tttbot.PuzzleAttempt, st tttbot.PuzzleStanding) string {
	if !a.Rated {
		return l.T("puzzle_unrated", nil)
	}
	return l.T("puzzle_rated", map[string]any{"Rating": int(math.Round(st.R)), "Streak": st.Streak})
}

// puzzleBoard draws puzzle p at pos, after the moves of c, in language l
// and guild's look: the header, note, and the cells, free ones playable
// while open; the cells of mark are green.
func (h *Handler) puzzleBoard(ctx context.Context, l *i18n.Language, guildID string, p *tttbot.Puzzle, pos game.Position, c puzzleClick, note string, mark game.Mask, open bool) message {
	st := h.look(ctx, guildID)
	x, o := st.Marks()
	side, colour := x.String(), palette.X
	if start, err := p.Position(); err == nil && start.ToMove() == game.O {
		side, colour = o.String(), palette.O
	}
	text := l.T("puzzle_header", map[string]any{"Shape": gametext.Shape(l, p.Shape), "Rating": int(math.Round(p.R)), "Moves": (p.Plies() + 1) / 2}) + "\n" +
		l.T("puzzle_task", map[string]any{"Mark": side})
	if note != "" {
		text += "\n" + note
	}
	var win game.Mask
	for _, line := range pos.Result().Lines {
		win |= line
	}
	m := message{content: text, accent: accent(colour)}
	m.components = cells(st, pos.Geometry(), pos, win|mark, func(cell int) (string, bool) {
		next := c
		next.cell = cell
		return next.String(), open
	})
	return m
}

// privateMessage answers with m, seen by the user alone.
func privateMessage(m message) interaction.Reply {
	d := quiet(m)
	d.Flags |= discordgo.MessageFlagsEphemeral
	return interaction.Reply{Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: d}}
}
