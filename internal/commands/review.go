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
)

// reviewMoves is how many moves a review page judges: nine lines and a 5×5
// board stay well within Discord's 2,000 characters.
const reviewMoves = 9

// reviewBudget bounds the solver's work for one review page, so that the
// answer beats Discord's 3-second deadline. Positions left unsolved are
// marked so.
const reviewBudget = 2 * time.Second

// review answers /ttt review game:<id>, privately.
func (h *Handler) review(ctx context.Context, i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (Reply, error) {
	var id int64
	for _, o := range opts {
		if o.Name != "game" {
			return Reply{}, tttbot.Errorf(tttbot.EINVALID, "I don't know the option %q.", o.Name)
		}
		v, _ := o.Value.(float64) // JSON numbers
		id = int64(v)
	}
	if id <= 0 {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Give the game's number, as `/ttt history` shows it.")
	}
	g, err := h.store.Game(ctx, id)
	if err != nil {
		return Reply{}, err
	}
	return h.reviewPage(ctx, i, g, 0, true)
}

// reviewPage shows page of game g's review, privately: in a new message
// when open, else in place of the clicked one.
func (h *Handler) reviewPage(ctx context.Context, i *discordgo.Interaction, g *tttbot.Game, page int, open bool) (Reply, error) {
	r, err := h.replayGame(ctx, i, g)
	if err != nil {
		return Reply{}, err
	}
	n := len(r.moves)
	if n == 0 {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Game #%d ended before anyone moved: there is nothing to review.", g.ID)
	}
	pages := (n + reviewMoves - 1) / reviewMoves
	page = min(max(page, 0), pages-1)
	lo, hi := page*reviewMoves, min(n, (page+1)*reviewMoves)
	js, err := h.judgeMoves(ctx, r, lo, hi)
	if err != nil {
		return Reply{}, err
	}

	var b strings.Builder
	fmt.Fprintf(&b, "🔍 **Review of game #%d** · %s\n❌ %s vs ⭕ %s · %s\n%s\n",
		g.ID, g.Shape(), h.playerName(g, g.XPlayer), h.playerName(g, g.OPlayer), h.outcome(g),
		textBoard(r.geo, r.positions[n], r.moves[n-1].Cell))
	unproven := false
	for k, j := range js {
		m := r.moves[lo+k]
		fmt.Fprintf(&b, "**%d.** %s %s — %s\n", m.Ply, mark(&tttbot.Settings{}, g, m.Player), cellName(r.geo, m.Cell), j.text(r.geo))
		unproven = unproven || j.verdict == unsolved
	}
	if unproven {
		b.WriteString("❔ The solver could not settle these positions in the time a review gets: big boards run deep.\n")
	}
	fmt.Fprintf(&b, "Page %d of %d · best, inaccuracy (same result, slower), mistake (gives away a win or a draw)", page+1, pages)

	row := discordgo.ActionsRow{}
	if pages > 1 {
		row.Components = append(row.Components,
			discordgo.Button{Label: "◀ Previous", Style: discordgo.SecondaryButton, Disabled: page == 0,
				CustomID: CustomID{Action: actReviewPage, GameID: g.ID, Page: max(page-1, 0)}.String()},
			discordgo.Button{Label: "Next ▶", Style: discordgo.SecondaryButton, Disabled: page == pages-1,
				CustomID: CustomID{Action: actReviewPage, GameID: g.ID, Page: min(page+1, pages-1)}.String()})
	}
	row.Components = append(row.Components, discordgo.Button{Label: "Replay", Style: discordgo.SecondaryButton,
		CustomID: CustomID{Action: actReplay, GameID: g.ID}.String()})
	m := message{content: b.String(), components: []discordgo.MessageComponent{row}}
	if open {
		return post(m, true), nil
	}
	return update(m), nil
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

// verdict is what a review says of a move.
type verdict int

const (
	best       verdict = iota // it keeps the best result, as fast as any move
	inaccuracy                // the same result, slower: a win that takes longer, a loss that comes sooner
	mistake                   // it gives away a win or a draw
	unsolved                  // the solver did not settle the position in time
)

// judgement is the verdict on a move, with the values, for the player who
// made it, of the move and of the best moves, and the best moves.
type judgement struct {
	verdict      verdict
	played, best ai.MoveValue
	better       []int
}

// judge rates move cell against the analysis of the position it was
// played in.
func judge(a ai.Analysis, cell int) judgement {
	i := slices.IndexFunc(a.Moves, func(m ai.MoveValue) bool { return m.Cell == cell })
	if !a.Proven || i < 0 {
		return judgement{verdict: unsolved}
	}
	j := judgement{played: a.Moves[i], best: ai.MoveValue{Value: a.Value, Plies: a.Plies}}
	switch {
	case slices.Contains(a.Best, cell):
		j.verdict = best
	case j.played.Value == a.Value:
		j.verdict, j.better = inaccuracy, a.Best
	default:
		j.verdict, j.better = mistake, a.Best
	}
	return j
}

func (j judgement) text(geo *game.Geometry) string {
	better := cellList(geo, j.better)
	switch j.verdict {
	case best:
		switch j.played.Value {
		case 1:
			return "✅ best: wins by force"
		case -1:
			return "✅ best: the game was lost already"
		}
		return "✅ best"
	case inaccuracy:
		if j.best.Value > 0 {
			return fmt.Sprintf("⚠️ inaccuracy: still wins, but %s wins sooner", better)
		}
		return fmt.Sprintf("⚠️ inaccuracy: lost anyway, but %s holds out longer", better)
	case mistake:
		now := "a draw now"
		if j.played.Value < 0 {
			now = "lost now"
		}
		if j.best.Value > 0 {
			return fmt.Sprintf("❗ mistake: gives away the win (%s); %s wins", now, better)
		}
		return fmt.Sprintf("❗ mistake: gives away the draw; %s holds it", better)
	}
	return "❔ not solved in time"
}

// cellList names up to three cells: "B2", "B2 or C3", "A1, B2 or C3",
// "A1, B2, C3 or 2 more".
func cellList(geo *game.Geometry, cells []int) string {
	var names []string
	for _, c := range cells[:min(len(cells), 3)] {
		names = append(names, cellName(geo, c))
	}
	if more := len(cells) - len(names); more > 0 {
		names = append(names, fmt.Sprintf("%d more", more))
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
