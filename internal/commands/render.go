package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
)

// blank is the label of an empty cell: Discord needs a label or an emoji, and
// a zero-width space keeps the button looking empty.
const blank = "\u200b"

// message is a rendered board or challenge: the text and the buttons.
type message struct {
	content    string
	components []discordgo.MessageComponent
	// rematch is a separate message carrying the Rematch and Review buttons
	// when the board fills all five rows, so the buttons have no room of
	// their own.
	rematch *message
}

func (m message) data() *discordgo.InteractionResponseData {
	return &discordgo.InteractionResponseData{
		Content:         m.content,
		Components:      nonNil(m.components),
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}},
	}
}

// nonNil makes an empty component list explicit, so an edit removes old buttons.
func nonNil(c []discordgo.MessageComponent) []discordgo.MessageComponent {
	if c == nil {
		return []discordgo.MessageComponent{}
	}
	return c
}

// mention names a user: a mention Discord shows as their name, or, for a
// player who asked to be forgotten, forgottenName.
func mention(id string) string {
	if tttbot.Forgotten(id) {
		return forgottenName
	}
	return "<@" + id + ">"
}

// forgottenName stands for a player who asked to be forgotten.
const forgottenName = "*a forgotten player*"

// cellName is a cell in chess style: column letter, row number ("B2").
func cellName(g *game.Geometry, cell int) string {
	return fmt.Sprintf("%c%d", 'A'+cell%g.Cols, cell/g.Cols+1)
}

func relTime(t time.Time) string { return fmt.Sprintf("<t:%d:R>", t.Unix()) }

func (h *Handler) playerName(g *tttbot.Game, id string) string {
	if g.VsBot() && id == h.botID {
		return fmt.Sprintf("%s (%s)", mention(id), g.BotLevel)
	}
	return mention(id)
}

// render draws a game in any state, with last, when not nil, named as the
// move just played, in its guild's look.
func (h *Handler) render(ctx context.Context, g *tttbot.Game, last *tttbot.Move) message {
	st := h.look(ctx, g.GuildID)
	switch g.Status {
	case tttbot.StatusPending:
		return h.renderChallenge(st, g)
	case tttbot.StatusDeclined:
		return message{content: fmt.Sprintf("%s declined the challenge from %s.", mention(g.Opponent), mention(g.Challenger))}
	case tttbot.StatusCancelled:
		return message{content: fmt.Sprintf("%s withdrew the challenge to %s.", mention(g.Challenger), mention(g.Opponent))}
	case tttbot.StatusExpired:
		return message{content: fmt.Sprintf("The challenge from %s to %s expired unanswered.", mention(g.Challenger), mention(g.Opponent))}
	}
	pos, err := g.Position()
	if err != nil {
		return message{content: "This game's board could not be read."}
	}
	geo := pos.Geometry()
	var b strings.Builder
	x, o := st.Marks()
	fmt.Fprintf(&b, "**Tic-tac-toe** · %s\n%s %s vs %s %s\n", g.Shape(), x, h.playerName(g, g.XPlayer), o, h.playerName(g, g.OPlayer))
	if last != nil {
		fmt.Fprintf(&b, "Last move: %s played %s.\n", h.playerName(g, last.Player), cellName(geo, last.Cell))
	}
	var win game.Mask
	if g.Status == tttbot.StatusActive {
		fmt.Fprintf(&b, "%s %s, your turn", mark(st, g, g.Turn), mention(g.Turn))
		if !g.Deadline.IsZero() {
			fmt.Fprintf(&b, " — move %s", relTime(g.Deadline))
		}
		b.WriteString(".")
	} else {
		for _, l := range pos.Result().Lines {
			win |= l
		}
		b.WriteString(h.outcome(g))
	}
	m := message{content: b.String(), components: h.board(st, g, geo, pos, win)}
	if g.Status == tttbot.StatusFinished {
		after := discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{
			Label: "Rematch", Style: discordgo.PrimaryButton,
			CustomID: CustomID{Action: ActRematch, GameID: g.ID}.String(),
		}}}
		text := "Play again? Sides swap."
		if pos.Ply() > 0 {
			after.Components = append(after.Components, reviewButton(g.ID))
			text = "Play again? Sides swap. Or review the game, move by move."
		}
		if len(m.components) < 5 {
			m.components = append(m.components, after)
		} else {
			m.rematch = &message{content: text, components: []discordgo.MessageComponent{after}}
		}
	}
	return m
}

// mark is the mark of user's side in g, in the look of st.
func mark(st *tttbot.Settings, g *tttbot.Game, user string) string {
	x, o := st.Marks()
	if user == g.XPlayer {
		return x.String()
	}
	return o.String()
}

func (h *Handler) outcome(g *tttbot.Game) string {
	loser := g.Other(g.Winner)
	switch g.Reason {
	case tttbot.ReasonLine:
		return fmt.Sprintf("🏆 %s wins with %d in a row!", h.playerName(g, g.Winner), g.K)
	case tttbot.ReasonDraw:
		return "🤝 Draw — the board is full."
	case tttbot.ReasonResign:
		return fmt.Sprintf("🏳️ %s resigned. %s wins.", h.playerName(g, loser), h.playerName(g, g.Winner))
	case tttbot.ReasonTimeout:
		return fmt.Sprintf("⏰ %s ran out of time. %s wins.", h.playerName(g, loser), h.playerName(g, g.Winner))
	}
	return "The game is over."
}

// board draws the cells as rows of buttons. Only the free cells of an active
// game are enabled; the winning line is green. A taken cell shows its
// side's letter, or the mark the guild chose as the button's emoji.
func (h *Handler) board(st *tttbot.Settings, g *tttbot.Game, geo *game.Geometry, pos game.Position, win game.Mask) []discordgo.MessageComponent {
	active := g.Status == tttbot.StatusActive
	rows := make([]discordgo.MessageComponent, 0, geo.Rows)
	for r := range geo.Rows {
		row := discordgo.ActionsRow{Components: make([]discordgo.MessageComponent, 0, geo.Cols)}
		for c := range geo.Cols {
			cell := geo.Cell(r, c)
			btn := discordgo.Button{
				Label:    blank,
				Style:    discordgo.SecondaryButton,
				CustomID: CustomID{Action: ActMove, GameID: g.ID, Version: g.Version, Cell: cell}.String(),
				Disabled: !active,
			}
			switch pos.At(cell) {
			case game.X:
				btn.Label, btn.Style, btn.Disabled, btn.Emoji = "X", discordgo.PrimaryButton, true, buttonEmoji(st.X)
			case game.O:
				btn.Label, btn.Style, btn.Disabled, btn.Emoji = "O", discordgo.DangerButton, true, buttonEmoji(st.O)
			}
			if btn.Emoji != nil {
				btn.Label = ""
			}
			if win.Has(cell) {
				btn.Style = discordgo.SuccessButton
			}
			row.Components = append(row.Components, btn)
		}
		rows = append(rows, row)
	}
	return rows
}

func (h *Handler) renderChallenge(st *tttbot.Settings, g *tttbot.Game) message {
	x, _ := st.Marks()
	content := fmt.Sprintf("⚔️ %s challenges %s to tic-tac-toe (%s). %s plays %s and moves first.\n%s, do you accept? The challenge expires %s.",
		mention(g.Challenger), mention(g.Opponent), g.Shape(), mention(g.XPlayer), x, mention(g.Opponent), relTime(g.Deadline))
	row := discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: "Accept", Style: discordgo.SuccessButton, CustomID: CustomID{Action: ActAccept, GameID: g.ID, Version: g.Version}.String()},
		discordgo.Button{Label: "Decline", Style: discordgo.DangerButton, CustomID: CustomID{Action: ActDecline, GameID: g.ID, Version: g.Version}.String()},
	}}
	return message{content: content, components: []discordgo.MessageComponent{row}}
}

// buttonEmoji is m as a button's emoji, or nil when m is unset.
func buttonEmoji(m tttbot.Mark) *discordgo.ComponentEmoji {
	if m.IsZero() {
		return nil
	}
	return &discordgo.ComponentEmoji{Name: m.Name, ID: m.ID, Animated: m.Animated}
}
