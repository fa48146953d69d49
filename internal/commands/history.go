package commands

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
)

// historySize is how many games /ttt history lists: two rows of five
// buttons open them.
const historySize = 10

// history answers /ttt history, privately: a player's last games on this
// server (in a DM, those played in DMs), each with a button that opens its
// replay.
func (h *Handler) history(ctx context.Context, i *discordgo.Interaction, opts options) (interaction.Reply, error) {
	who, err := targetUser(i, opts)
	if err != nil {
		return interaction.Reply{}, err
	}
	games, err := h.store.History(ctx, who, i.GuildID, historySize)
	if err != nil {
		return interaction.Reply{}, err
	}
	l := h.userLang(i)
	empty, header := "history_empty_server", "history_header_server"
	if i.GuildID == "" {
		empty, header = "history_empty_dm", "history_header_dm"
	}
	if len(games) == 0 {
		return post(message{content: l.T(empty, map[string]any{"Player": mention(l, who)})}, true), nil
	}
	var b strings.Builder
	b.WriteString(l.T(header, map[string]any{"Player": mention(l, who)}) + "\n")
	var rows []discordgo.MessageComponent
	for n, e := range games {
		opponent := mention(l, e.Opponent)
		switch {
		case who == h.botID:
			// The bot's own games: the opponent is the person, the level
			// the bot's.
			opponent = l.T("history_bot_level", map[string]any{"Player": opponent, "Level": gametext.Level(l, e.BotLevel)})
		}
		result := "history_drew"
		switch e.Outcome {
		case tttbot.Win:
			result = "history_won"
		case tttbot.Loss:
			result = "history_lost"
		}
		how := l.T(result, map[string]any{"Opponent": opponent})
		if e.BotLevel != "" && who != h.botID {
			// Against the bot: "me", which languages decline as they
			// cannot a mention.
			how = l.T(result+"_vs_me", map[string]any{"Level": gametext.Level(l, e.BotLevel)})
		}
		switch e.Reason {
		case tttbot.ReasonResign:
			how += " · " + l.T("history_by_resignation", nil)
		case tttbot.ReasonTimeout:
			how += " · " + l.T("history_on_time", nil)
		}
		b.WriteString(l.T("history_line", map[string]any{
			"N": n + 1, "Result": how, "Shape": gametext.Shape(l, e.Shape), "Game": gameNumber(e.GameID), "When": relTime(e.FinishedAt)}) + "\n")
		if n%5 == 0 {
			rows = append(rows, discordgo.ActionsRow{})
		}
		row := rows[len(rows)-1].(discordgo.ActionsRow)
		row.Components = append(row.Components, discordgo.Button{
			Label: l.T("button_replay_n", map[string]any{"N": n + 1}), Style: discordgo.SecondaryButton,
			CustomID: CustomID{Action: actReplay, GameID: e.GameID}.String(),
		})
		rows[len(rows)-1] = row
	}
	b.WriteString(l.T("history_footer", nil))
	m := message{content: b.String(), components: rows}
	return post(h.withLink(m, l, "button_web_profile", h.playerLink(ctx, who, i.GuildID)), true), nil
}

// lookBack refuses a review or replay of g unless the user may look back on
// it: it must be over, and they played in it or it was played on this
// server.
func lookBack(i *discordgo.Interaction, g *tttbot.Game) error {
	number := map[string]any{"Game": gameNumber(g.ID)}
	switch {
	case g.Status.Open():
		return refuse(tttbot.EINVALID, "lookback_open", number)
	case g.Status != tttbot.StatusFinished:
		return refuse(tttbot.EINVALID, "lookback_unplayed", number)
	case !g.HasPlayer(user(i).ID) && (g.GuildID == "" || g.GuildID != i.GuildID):
		return refuse(tttbot.ENOTYOURS, "lookback_elsewhere", number)
	}
	return nil
}

// replayed is a finished game replayed from its moves: the position before
// each move, and the last one.
type replayed struct {
	geo       *game.Geometry
	moves     []tttbot.Move
	positions []game.Position // positions[n] is after n moves
}

// replayGame replays g for the user of i, once lookBack lets them.
func (h *Handler) replayGame(ctx context.Context, i *discordgo.Interaction, g *tttbot.Game) (*replayed, error) {
	if err := lookBack(i, g); err != nil {
		return nil, err
	}
	moves, err := h.store.Moves(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	geo, err := game.NewGeometry(g.Rows, g.Cols, g.K)
	if err != nil {
		return nil, fmt.Errorf("game %d geometry: %w", g.ID, err)
	}
	r := &replayed{geo: geo, moves: moves, positions: []game.Position{game.NewPosition(geo)}}
	for _, m := range moves {
		next, err := r.positions[len(r.positions)-1].Play(m.Cell)
		if err != nil {
			return nil, fmt.Errorf("game %d move %d: %w", g.ID, m.Ply, err)
		}
		r.positions = append(r.positions, next)
	}
	return r, nil
}

// replay shows game g after ply moves (-1: all of them), privately: in a
// new message when open, else in place of the clicked one.
func (h *Handler) replay(ctx context.Context, i *discordgo.Interaction, g *tttbot.Game, ply int, open bool) (interaction.Reply, error) {
	r, err := h.replayGame(ctx, i, g)
	if err != nil {
		return interaction.Reply{}, err
	}
	n := len(r.moves)
	if ply < 0 || ply > n {
		ply = n
	}
	l := h.userLang(i)
	var b strings.Builder
	b.WriteString(l.T("replay_header", map[string]any{
		"Game": gameNumber(g.ID), "Shape": gametext.Shape(l, g.Shape()), "When": relTime(g.FinishedAt),
		"XMark": mark(&tttbot.Settings{}, g, g.XPlayer), "X": h.playerName(l, g, g.XPlayer), "OMark": mark(&tttbot.Settings{}, g, g.OPlayer), "O": h.playerName(l, g, g.OPlayer)}) + "\n")
	last := -1
	if ply == 0 {
		b.WriteString(l.N("replay_start", n, nil))
	} else {
		m := r.moves[ply-1]
		last = m.Cell
		b.WriteString(l.T("replay_move", map[string]any{
			"Ply": ply, "Total": n, "Mark": mark(&tttbot.Settings{}, g, m.Player), "Player": h.playerName(l, g, m.Player), "Cell": gametext.Cell(r.geo, m.Cell)}))
	}
	if ply == n {
		b.WriteString(" " + h.outcome(l, g))
	}
	b.WriteString("\n" + textBoard(r.geo, r.positions[ply], last))
	step := func(label string, to, slot int, disabled bool) discordgo.Button {
		return discordgo.Button{Label: label, Style: discordgo.SecondaryButton, Disabled: disabled,
			CustomID: CustomID{Action: actReplayStep, GameID: g.ID, Page: to, Slot: slot}.String()}
	}
	row := discordgo.ActionsRow{Components: []discordgo.MessageComponent{
		step("⏮", 0, 0, ply == 0),
		step("◀", max(ply-1, 0), 1, ply == 0),
		step("▶", min(ply+1, n), 2, ply == n),
		step("⏭", n, 3, ply == n),
	}}
	m := message{content: b.String(), components: []discordgo.MessageComponent{row}}
	if n > 0 {
		// The step buttons fill a row; the game's others take the next.
		m.components = append(m.components, discordgo.ActionsRow{Components: []discordgo.MessageComponent{reviewButton(l, g.ID), picturesButton(l, g.ID)}})
	}
	if open {
		return post(m, true), nil
	}
	return update(m), nil
}

func reviewButton(l *i18n.Language, id int64) discordgo.Button {
	return discordgo.Button{Label: l.T("button_review", nil), Style: discordgo.SecondaryButton, CustomID: CustomID{Action: actReview, GameID: id}.String()}
}

// gameNumber is a game's ID as players type it into /ttt review: digits
// alone, never grouped.
func gameNumber(id int64) string { return strconv.FormatInt(id, 10) }

// textBoard draws a position in a code block, with column letters and row
// numbers to read cell names by, and the cell mark in brackets.
func textBoard(geo *game.Geometry, pos game.Position, mark int) string {
	var b strings.Builder
	b.WriteString("```\n  ")
	for c := range geo.Cols {
		fmt.Fprintf(&b, " %c ", 'A'+c)
	}
	for r := range geo.Rows {
		fmt.Fprintf(&b, "\n%d ", r+1)
		for c := range geo.Cols {
			cell := geo.Cell(r, c)
			ch := "·"
			switch pos.At(cell) {
			case game.X:
				ch = "X"
			case game.O:
				ch = "O"
			}
			if cell == mark {
				fmt.Fprintf(&b, "[%s]", ch)
			} else {
				fmt.Fprintf(&b, " %s ", ch)
			}
		}
	}
	b.WriteString("\n```")
	return b.String()
}
