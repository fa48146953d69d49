package commands

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/palette"
)

// blank is the label of an empty cell: Discord needs a label or an emoji, and
// a zero-width space keeps the button looking empty.
const blank = "\u200b"

// message is a rendered board, challenge or page: the text and the buttons.
type message struct {
	content    string
	components []discordgo.MessageComponent
	// accent, when set, makes the message a components V2 one: a container
	// with this accent colour holding the text, the components and, after a
	// separator, the controls.
	accent   *int
	controls []discordgo.MessageComponent
	// media, when set, makes the message a components V2 one: after the
	// text, a gallery of these pictures.
	media []media
}

func (m message) data() *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{
		Content:         m.content,
		Components:      nonNil(m.components),
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}},
	}
	head := []discordgo.MessageComponent{discordgo.TextDisplay{Content: m.content}}
	if len(m.media) > 0 {
		var g discordgo.MediaGallery
		g, d.Files = gallery(m.media)
		head = append(head, g)
	}
	switch {
	case m.accent != nil:
		c := &discordgo.Container{AccentColor: m.accent, Components: append(head, m.components...)}
		if len(m.controls) > 0 {
			c.Components = append(c.Components, discordgo.Separator{}, discordgo.ActionsRow{Components: m.controls})
		}
		d.Content, d.Components, d.Flags = "", []discordgo.MessageComponent{c}, discordgo.MessageFlagsIsComponentsV2
	case len(m.media) > 0:
		d.Content, d.Components, d.Flags = "", append(head, m.components...), discordgo.MessageFlagsIsComponentsV2
	}
	return d
}

// card is a message of text alone in a container of the neutral colour: a
// challenge that ended unplayed, a board that cannot be read.
func card(text string) message { return message{content: text, accent: accent(palette.Neutral)} }

func accent(c int) *int { return &c }

// nonNil makes an empty component list explicit, so an edit removes old buttons.
func nonNil(c []discordgo.MessageComponent) []discordgo.MessageComponent {
	if c == nil {
		return []discordgo.MessageComponent{}
	}
	return c
}

// mention names a user: a mention Discord shows as their name, or, for a
// player who asked to be forgotten, forgotten_player in language l.
func mention(l *i18n.Language, id string) string {
	if tttbot.Forgotten(id) {
		return l.T("forgotten_player", nil)
	}
	return "<@" + id + ">"
}

func relTime(t time.Time) string { return fmt.Sprintf("<t:%d:R>", t.Unix()) }

func (h *Handler) playerName(l *i18n.Language, g *tttbot.Game, id string) string {
	if g.VsBot() && id == h.botID {
		return l.T("bot_player", map[string]any{"Player": mention(l, id), "Level": gametext.Level(l, g.BotLevel)})
	}
	return mention(l, id)
}

// render draws a game in any state in language l and its guild's look, with
// last, when not nil, named as the move just played: one components V2
// message, whose container's accent is the side to move, the winner's
// once won, neutral otherwise; the header, the board, and the controls —
// Resign while the game is on, Rematch and Review once it is over.
func (h *Handler) render(ctx context.Context, l *i18n.Language, g *tttbot.Game, last *tttbot.Move) message {
	st := h.look(ctx, g.GuildID)
	players := map[string]any{"Challenger": mention(l, g.Challenger), "Opponent": mention(l, g.Opponent)}
	switch g.Status {
	case tttbot.StatusPending:
		return h.renderChallenge(l, st, g)
	case tttbot.StatusDeclined:
		return card(l.T("challenge_declined", players))
	case tttbot.StatusCancelled:
		return card(l.T("challenge_withdrawn", players))
	case tttbot.StatusExpired:
		return card(l.T("challenge_expired", players))
	}
	pos, err := g.Position()
	if err != nil {
		return card(l.T("board_unreadable", nil))
	}
	geo := pos.Geometry()
	var b strings.Builder
	b.WriteString(l.T("board_header", map[string]any{
		"Shape": gametext.Shape(l, g.Shape()), "XMark": mark(st, g, g.XPlayer), "X": h.playerName(l, g, g.XPlayer),
		"OMark": mark(st, g, g.OPlayer), "O": h.playerName(l, g, g.OPlayer)}))
	b.WriteByte('\n')
	if last != nil {
		b.WriteString(l.T("board_last_move", map[string]any{"Player": h.playerName(l, g, last.Player), "Cell": gametext.Cell(geo, last.Cell)}))
		b.WriteByte('\n')
	}
	var win game.Mask
	m := message{accent: accent(palette.Neutral)}
	if g.Status == tttbot.StatusActive {
		turn := map[string]any{"Mark": mark(st, g, g.Turn), "Player": mention(l, g.Turn)}
		if g.Deadline.IsZero() {
			b.WriteString(l.T("board_turn", turn))
		} else {
			turn["Deadline"] = relTime(g.Deadline)
			b.WriteString(l.T("board_turn_deadline", turn))
		}
		if cutShort(g, h.opts.TurnTimeout, st.TurnTimeout) {
			b.WriteString("\n" + webhookNote(l))
		}
		m.accent = sideColour(g, g.Turn)
		m.controls = []discordgo.MessageComponent{discordgo.Button{
			Label: l.T("button_resign", nil), Style: discordgo.DangerButton,
			CustomID: CustomID{Action: ActResign, GameID: g.ID}.String(),
		}}
	} else {
		for _, line := range pos.Result().Lines {
			win |= line
		}
		b.WriteString(h.outcome(l, g))
		if g.Winner != "" {
			m.accent = sideColour(g, g.Winner)
		}
	}
	m.content, m.components = b.String(), h.board(st, g, geo, pos, win)
	if g.Status == tttbot.StatusFinished {
		m.controls = []discordgo.MessageComponent{discordgo.Button{
			Label: l.T("button_rematch", nil), Style: discordgo.PrimaryButton,
			CustomID: CustomID{Action: ActRematch, GameID: g.ID}.String(),
		}}
		if pos.Ply() > 0 {
			m.controls = append(m.controls, reviewButton(l, g.ID))
		}
		if u := h.gamePage(ctx, g); u != "" {
			m.controls = append(m.controls, h.linkButton(l, "button_web_game", u))
		}
	}
	return m
}

// sideColour is the colour of user's side in g.
func sideColour(g *tttbot.Game, user string) *int {
	if user == g.XPlayer {
		return accent(palette.X)
	}
	return accent(palette.O)
}

// mark is the mark of user's side in g, in the look of st.
func mark(st *tttbot.Settings, g *tttbot.Game, user string) string {
	x, o := st.Marks()
	if user == g.XPlayer {
		return x.String()
	}
	return o.String()
}

func (h *Handler) outcome(l *i18n.Language, g *tttbot.Game) string {
	players := map[string]any{"Winner": h.playerName(l, g, g.Winner), "Loser": h.playerName(l, g, g.Other(g.Winner))}
	switch g.Reason {
	case tttbot.ReasonLine:
		return l.T("outcome_line", map[string]any{"Player": h.playerName(l, g, g.Winner), "K": g.K})
	case tttbot.ReasonDraw:
		return l.T("outcome_draw", nil)
	case tttbot.ReasonResign:
		return l.T("outcome_resign", players)
	case tttbot.ReasonTimeout:
		if g.BothLost() {
			return l.T("outcome_timeout_both", map[string]any{"X": h.playerName(l, g, g.XPlayer), "O": h.playerName(l, g, g.OPlayer)})
		}
		return l.T("outcome_timeout", players)
	}
	return l.T("outcome_over", nil)
}

// board draws the cells of game g as rows of buttons (see cells): only
// the free cells of an active game are enabled.
func (h *Handler) board(st *tttbot.Settings, g *tttbot.Game, geo *game.Geometry, pos game.Position, win game.Mask) []discordgo.MessageComponent {
	active := g.Status == tttbot.StatusActive
	return cells(st, geo, pos, win, func(cell int) (string, bool) {
		return CustomID{Action: ActMove, GameID: g.ID, Version: g.Version, Cell: cell}.String(), active
	})
}

// cells draws the cells of pos as rows of buttons, each with the custom ID
// id gives, enabled when id says so and the cell is free; the cells of win
// are green. A taken cell shows its side's letter, or the mark the guild
// chose as the button's emoji. Games and puzzles alike are drawn by it.
func cells(st *tttbot.Settings, geo *game.Geometry, pos game.Position, win game.Mask, id func(cell int) (string, bool)) []discordgo.MessageComponent {
	rows := make([]discordgo.MessageComponent, 0, geo.Rows)
	for r := range geo.Rows {
		row := discordgo.ActionsRow{Components: make([]discordgo.MessageComponent, 0, geo.Cols)}
		for c := range geo.Cols {
			cell := geo.Cell(r, c)
			customID, enabled := id(cell)
			btn := discordgo.Button{
				Label:    blank,
				Style:    discordgo.SecondaryButton,
				CustomID: customID,
				Disabled: !enabled,
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

// webhookNote says, in l, why turns and challenges are shorter where the
// bot reaches a board only through its latest click.
func webhookNote(l *i18n.Language) string {
	return l.T("board_webhook_note", map[string]any{
		"Life": duration(l, tttbot.TokenLife), "Wait": duration(l, tttbot.MaxWebhookWait)})
}

// cutShort reports whether g's place cuts a timeout short: the guild's,
// when it sets one, else the configured one.
func cutShort(g *tttbot.Game, configured, guild time.Duration) bool {
	t := cmp.Or(guild, configured)
	return g.Wait(t) < t
}

func (h *Handler) renderChallenge(l *i18n.Language, st *tttbot.Settings, g *tttbot.Game) message {
	content := l.T("challenge", map[string]any{
		"Challenger": mention(l, g.Challenger), "Opponent": mention(l, g.Opponent), "Shape": gametext.Shape(l, g.Shape()),
		"X": mention(l, g.XPlayer), "XMark": mark(st, g, g.XPlayer), "Deadline": relTime(g.Deadline)})
	if cutShort(g, h.opts.ChallengeTimeout, st.ChallengeTimeout) {
		content += "\n" + webhookNote(l)
	}
	row := discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		discordgo.Button{Label: l.T("button_accept", nil), Style: discordgo.SuccessButton, CustomID: CustomID{Action: ActAccept, GameID: g.ID, Version: g.Version}.String()},
		discordgo.Button{Label: l.T("button_decline", nil), Style: discordgo.DangerButton, CustomID: CustomID{Action: ActDecline, GameID: g.ID, Version: g.Version}.String()},
	}}
	return message{content: content, components: []discordgo.MessageComponent{row}, accent: accent(palette.Neutral)}
}

// buttonEmoji is m as a button's emoji, or nil when m is unset.
func buttonEmoji(m tttbot.Mark) *discordgo.ComponentEmoji {
	if m.IsZero() {
		return nil
	}
	return &discordgo.ComponentEmoji{Name: m.Name, ID: m.ID, Animated: m.Animated}
}
