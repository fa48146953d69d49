package commands

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
)

// reviewMoves is how many moves a review page judges: nine lines and a 5×5
// board stay well within Discord's 2,000 characters.
const reviewMoves = 9

// reviewBudget bounds the solver's work for one review page, so that the
// answer beats Discord's 3-second deadline. Positions left unsolved are
// marked so.
const reviewBudget = 2 * time.Second

// review answers /ttt review game:<id>, privately.
func (h *Handler) review(ctx context.Context, i *discordgo.Interaction, opts options) (interaction.Reply, error) {
	id, _ := opts.num("game")
	if id <= 0 {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "review_need_game", nil)
	}
	g, err := h.store.Game(ctx, int64(id))
	if err != nil {
		return interaction.Reply{}, err
	}
	return h.reviewPage(ctx, i, g, 0, true)
}

// reviewPage shows page of game g's review, privately: in a new message
// when open, else in place of the clicked one.
func (h *Handler) reviewPage(ctx context.Context, i *discordgo.Interaction, g *tttbot.Game, page int, open bool) (interaction.Reply, error) {
	r, err := h.replayMoves(ctx, i, g)
	if err != nil {
		return interaction.Reply{}, err
	}
	n := len(r.moves)
	pages := (n + reviewMoves - 1) / reviewMoves
	page = min(max(page, 0), pages-1)
	lo, hi := page*reviewMoves, min(n, (page+1)*reviewMoves)
	js, err := h.judgeMoves(ctx, r, lo, hi)
	if err != nil {
		return interaction.Reply{}, err
	}

	l := h.userLang(i)
	var b strings.Builder
	b.WriteString(l.T("review_header", h.gameTitle(l, g)))
	b.WriteString("\n" + textBoard(r.geo, r.positions[n], r.moves[n-1].Cell) + "\n")
	unproven := false
	for k, j := range js {
		m := r.moves[lo+k]
		fmt.Fprintf(&b, "**%s.** %s %s — %s\n", l.Int(m.Ply), mark(&tttbot.Settings{}, g, m.Player), gametext.Cell(r.geo, m.Cell), j.text(l, r.geo))
		unproven = unproven || j.verdict == ai.Unsolved
	}
	if unproven {
		b.WriteString(l.T("review_unsolved", nil) + "\n")
	}
	b.WriteString(l.T("review_footer", map[string]any{"Page": page + 1, "Pages": pages}))

	row := discordgo.ActionsRow{}
	if pages > 1 {
		row.Components = append(row.Components,
			discordgo.Button{Label: l.T("button_previous", nil), Style: discordgo.SecondaryButton, Disabled: page == 0,
				CustomID: CustomID{Action: actReviewPage, GameID: g.ID, Page: max(page-1, 0)}.String()},
			discordgo.Button{Label: l.T("button_next", nil), Style: discordgo.SecondaryButton, Disabled: page == pages-1,
				CustomID: CustomID{Action: actReviewPage, GameID: g.ID, Page: min(page+1, pages-1)}.String()})
	}
	row.Components = append(row.Components, discordgo.Button{Label: l.T("button_replay", nil), Style: discordgo.SecondaryButton,
		CustomID: CustomID{Action: actReplay, GameID: g.ID}.String()}, picturesButton(l, g.ID))
	if u := h.gamePage(ctx, g); u != "" {
		row.Components = append(row.Components, h.linkButton(l, "button_web_game", u))
	}
	m := message{content: b.String(), components: []discordgo.MessageComponent{row}}
	if open {
		return post(m, true), nil
	}
	return update(m), nil
}

// replayMoves replays g for a review or its pictures, refusing a game
// that ended before its first move.
func (h *Handler) replayMoves(ctx context.Context, i *discordgo.Interaction, g *tttbot.Game) (*replayed, error) {
	r, err := h.replayGame(ctx, i, g)
	if err == nil && len(r.moves) == 0 {
		err = refuse(tttbot.EINVALID, "review_nothing", map[string]any{"Game": gameNumber(g.ID)})
	}
	return r, err
}

// gameTitle is what the title of a finished game's review or pictures
// names: its number and shape, its players with their marks, and how it
// ended.
func (h *Handler) gameTitle(l *i18n.Language, g *tttbot.Game) map[string]any {
	return map[string]any{
		"Game": gameNumber(g.ID), "Shape": gametext.Shape(l, g.Shape()),
		"XMark": mark(&tttbot.Settings{}, g, g.XPlayer), "X": h.playerName(l, g, g.XPlayer), "OMark": mark(&tttbot.Settings{}, g, g.OPlayer), "O": h.playerName(l, g, g.OPlayer),
		"Outcome": h.outcome(l, g)}
}

// judgeMoves judges moves lo to hi-1 of a replayed game. It analyzes the
// positions from the game's end backwards, down to lo: the late positions
// are cheap and fill the solver's table for the early ones, which are not.
// Positions left when the budget runs out are judged unsolved.
func (h *Handler) judgeMoves(ctx context.Context, r *replayed, lo, hi int) ([]judgement, error) {
	ctx, cancel := context.WithTimeout(ctx, reviewBudget)
	defer cancel()
	out := make([]judgement, hi-lo)
	for p := len(r.moves) - 1; p >= lo; p-- {
		var a ai.Analysis
		if ctx.Err() == nil {
			var err error
			if a, err = h.ai.Analyze(ctx, r.positions[p]); err != nil && ctx.Err() == nil {
				return nil, fmt.Errorf("analyze move %d: %w", p+1, err)
			}
		}
		if p < hi {
			out[p-lo] = judge(a, r.moves[p].Cell)
		}
	}
	return out, nil
}

// judgement is the verdict on a move, with the values, for the player who
// made it, of the move and of the best moves, and the best moves.
type judgement struct {
	verdict      ai.Verdict
	played, best ai.MoveValue
	better       []int
}

// judge rates move cell against the analysis of the position it was
// played in.
func judge(a ai.Analysis, cell int) judgement {
	j := judgement{verdict: a.Verdict(cell)}
	if j.verdict == ai.Unsolved {
		return j
	}
	i := slices.IndexFunc(a.Moves, func(m ai.MoveValue) bool { return m.Cell == cell })
	j.played, j.best = a.Moves[i], ai.MoveValue{Value: a.Value, Plies: a.Plies}
	if j.verdict != ai.Best {
		j.better = a.Best
	}
	return j
}

func (j judgement) text(l *i18n.Language, geo *game.Geometry) string {
	return gametext.Verdict(l, geo, j.verdict, j.played.Value, j.best.Value, j.better)
}
