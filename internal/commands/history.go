package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
)

// historySize is how many games /ttt history lists: two rows of five
// buttons open them.
const historySize = 10

// history answers /ttt history, privately: a player's last games on this
// server (in a DM, those played in DMs), each with a button that opens its
// replay.
func (h *Handler) history(ctx context.Context, i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) (Reply, error) {
	who, err := targetUser(i, opts)
	if err != nil {
		return Reply{}, err
	}
	games, err := h.store.History(ctx, who, i.GuildID, historySize)
	if err != nil {
		return Reply{}, err
	}
	where := "on this server"
	if i.GuildID == "" {
		where = "in direct messages"
	}
	if len(games) == 0 {
		return post(message{content: fmt.Sprintf("%s has no finished games %s yet.", mention(who), where)}, true), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "📜 **Last games of %s** %s\n", mention(who), where)
	var rows []discordgo.MessageComponent
	for n, e := range games {
		opponent := mention(e.Opponent)
		switch {
		case who == h.botID:
			// The bot's own games: the opponent is the person, the level
			// the bot's.
			opponent += fmt.Sprintf(" (I played %s)", e.BotLevel)
		case e.BotLevel != "":
			opponent = fmt.Sprintf("me (%s)", e.BotLevel)
		}
		var how string
		switch e.Outcome {
		case tttbot.Win:
			how = "✅ won against " + opponent
		case tttbot.Loss:
			how = "❌ lost to " + opponent
		default:
			how = "🤝 drew with " + opponent
		}
		switch e.Reason {
		case tttbot.ReasonResign:
			how += " by resignation"
		case tttbot.ReasonTimeout:
			how += " on time"
		}
		fmt.Fprintf(&b, "**%d.** %s · %s · game #%d · %s\n", n+1, how, e.Shape, e.GameID, relTime(e.FinishedAt))
		if n%5 == 0 {
			rows = append(rows, discordgo.ActionsRow{})
		}
		row := rows[len(rows)-1].(discordgo.ActionsRow)
		row.Components = append(row.Components, discordgo.Button{
			Label: fmt.Sprintf("Replay %d", n+1), Style: discordgo.SecondaryButton,
			CustomID: CustomID{Action: actReplay, GameID: e.GameID}.String(),
		})
		rows[len(rows)-1] = row
	}
	b.WriteString("Open a game to replay it move by move.")
	return post(message{content: b.String(), components: rows}, true), nil
}

// lookBack refuses a review or replay of g unless the user may look back on
// it: it must be over, and they played in it or it was played on this
// server.
func lookBack(i *discordgo.Interaction, g *tttbot.Game) error {
	switch {
	case g.Status.Open():
		return tttbot.Errorf(tttbot.EINVALID, "Game #%d isn't over yet: replays and reviews come after the last move.", g.ID)
	case g.Status != tttbot.StatusFinished:
		return tttbot.Errorf(tttbot.EINVALID, "Game #%d was a challenge that was never played.", g.ID)
	case !g.HasPlayer(user(i).ID) && (g.GuildID == "" || g.GuildID != i.GuildID):
		return tttbot.Errorf(tttbot.ENOTYOURS, "Game #%d was played elsewhere; only its players can look back on it.", g.ID)
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
func (h *Handler) replay(ctx context.Context, i *discordgo.Interaction, g *tttbot.Game, ply int, open bool) (Reply, error) {
	r, err := h.replayGame(ctx, i, g)
	if err != nil {
		return Reply{}, err
	}
	n := len(r.moves)
	if ply < 0 || ply > n {
		ply = n
	}
	var b strings.Builder
	fmt.Fprintf(&b, "🎞️ **Replay of game #%d** · %s · %s\n❌ %s vs ⭕ %s\n",
		g.ID, g.Shape(), relTime(g.FinishedAt), h.playerName(g, g.XPlayer), h.playerName(g, g.OPlayer))
	last := -1
	if ply == 0 {
		fmt.Fprintf(&b, "The empty board; %d move%s to go.", n, plural(n))
	} else {
		m := r.moves[ply-1]
		last = m.Cell
		fmt.Fprintf(&b, "Move %d of %d: %s %s played %s.", ply, n, mark(&tttbot.Settings{}, g, m.Player), h.playerName(g, m.Player), cellName(r.geo, m.Cell))
	}
	if ply == n {
		b.WriteString(" " + h.outcome(g))
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
	if n > 0 {
		row.Components = append(row.Components, reviewButton(g.ID))
	}
	m := message{content: b.String(), components: []discordgo.MessageComponent{row}}
	if open {
		return post(m, true), nil
	}
	return update(m), nil
}

func reviewButton(id int64) discordgo.Button {
	return discordgo.Button{Label: "Review", Style: discordgo.SecondaryButton, CustomID: CustomID{Action: actReview, GameID: id}.String()}
}

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
