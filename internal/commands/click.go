package commands

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

func (h *Handler) click(ctx context.Context, log *slog.Logger, i *discordgo.Interaction) (Reply, error) {
	data, ok := i.Data.(discordgo.MessageComponentInteractionData)
	if !ok {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "That click arrived garbled. Try the button again.")
	}
	if strings.HasPrefix(data.CustomID, "ttt:"+actBoard+":") {
		return h.leaderboardPage(ctx, i, data.CustomID)
	}
	c, err := ParseCustomID(data.CustomID)
	if err != nil {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "That button isn't one I know. Start a new game with `/ttt challenge`.")
	}
	me := user(i).ID
	g, err := h.store.Game(ctx, c.GameID)
	if err != nil {
		return Reply{}, err
	}
	log.Debug("click", "game", g.ID, "action", c.Action, "user", me)
	if playsGame(c.Action) && !inPlace(i, g) {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "That button belongs to game #%d in another channel; it does nothing here.", g.ID)
	}
	if i.Message != nil && g.MessageID == "" && c.Version > 0 && g.Status.Open() {
		// The first click on a board tells us its message, for the timers.
		h.TrackMessage(ctx, g.ID, i.Message.ID)
	}
	r, err := h.clickAction(ctx, i, g, me, c)
	if tttbot.ErrorCode(err) == tttbot.ESTALE && i.Message != nil {
		r.Edit = h.refresh(ctx, g.ID, i.Message)
	}
	return r, err
}

// playsGame reports whether a button acts on its game — a move, an answer
// to a challenge, a rematch — rather than opening a private view of it.
// Reviews and replays are those views: /ttt history and /ttt review open
// them in any channel, and lookBack decides who may see them.
func playsGame(action string) bool {
	switch action {
	case ActMove, ActAccept, ActDecline, ActRematch:
		return true
	}
	return false
}

// inPlace reports whether a click comes from g's channel, in g's guild (or
// DM), on a message in that channel: the buttons that play g live only on
// its board, and a click from elsewhere would play it there, draw its board
// over the clicked message and record that message as its board.
func inPlace(i *discordgo.Interaction, g *tttbot.Game) bool {
	return i.GuildID == g.GuildID && i.ChannelID == g.ChannelID &&
		(i.Message == nil || i.Message.ChannelID == g.ChannelID)
}

// shownVersion is the game version a message's buttons carry, or 0.
func shownVersion(m *discordgo.Message) int {
	for _, row := range m.Components {
		r, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range r.Components {
			if b, ok := c.(*discordgo.Button); ok {
				if id, err := ParseCustomID(b.CustomID); err == nil && id.Version > 0 {
					return id.Version
				}
			}
		}
	}
	return 0
}

// refresh redraws a board message that shows an outdated game — say, when
// Discord lost the answer to the click that moved it on — so its buttons
// work again. A message already showing the current game is left alone.
func (h *Handler) refresh(ctx context.Context, id int64, m *discordgo.Message) *Edit {
	g, err := h.store.Game(ctx, id)
	if err != nil || shownVersion(m) == g.Version {
		return nil
	}
	var last *lastMove
	if moves, err := h.store.Moves(ctx, id); err == nil && len(moves) > 0 {
		mv := moves[len(moves)-1]
		last = &lastMove{player: mv.Player, cell: mv.Cell}
	}
	return &Edit{GameID: id, Version: g.Version, ChannelID: m.ChannelID, MessageID: m.ID, Data: h.render(g, last).data()}
}

func (h *Handler) clickAction(ctx context.Context, i *discordgo.Interaction, g *tttbot.Game, me string, c CustomID) (Reply, error) {
	var err error
	switch c.Action {
	case ActMove:
		return h.move(ctx, g, me, c)
	case ActAccept:
		g, err = h.store.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: me, Version: c.Version, XPlayer: g.XPlayer, At: h.opts.Now(), Deadline: h.opts.Now().Add(h.opts.TurnTimeout)})
		if err != nil {
			return Reply{}, err
		}
		return updateMessage(h.render(g, nil)), nil
	case ActDecline:
		g, err = h.store.Decline(ctx, g.ID, me, c.Version, h.opts.Now())
		if err != nil {
			return Reply{}, err
		}
		return updateMessage(h.render(g, nil)), nil
	case ActRematch:
		return h.rematch(ctx, i, g, me)
	case actReview, actReviewPage:
		return h.reviewPage(ctx, i, g, c.Page, c.Action == actReview)
	case actReplay:
		return h.replay(ctx, i, g, -1, true)
	case actReplayStep:
		return h.replay(ctx, i, g, c.Page, false)
	}
	return Reply{}, tttbot.Errorf(tttbot.EINVALID, "That button isn't one I know.")
}

// move plays a human's click and, against the bot, the bot's reply, so both
// arrive in the same board update and are stored in one transaction.
func (h *Handler) move(ctx context.Context, g *tttbot.Game, me string, c CustomID) (Reply, error) {
	if !g.HasPlayer(me) || (g.VsBot() && me == h.botID) {
		return Reply{}, tttbot.Errorf(tttbot.ENOTYOURS, "This isn't your game — start your own with `/ttt challenge`.")
	}
	now := h.opts.Now()
	req := tttbot.MoveRequest{
		GameID: g.ID, Player: me, Cell: c.Cell, Version: c.Version, At: now,
		Deadline: h.deadlineFor(g, g.Other(me), now),
	}
	if g.VsBot() {
		req.Reply = h.reply(ctx, g, req)
	}
	g, err := h.store.Play(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	last := &lastMove{player: me, cell: c.Cell}
	switch {
	case req.Reply != nil && g.Version == c.Version+2:
		last = &lastMove{player: h.botID, cell: req.Reply.Cell}
	case g.Status == tttbot.StatusActive && g.VsBot() && g.Turn == h.botID:
		// No reply was chosen (or it was refused): play it now.
		g2, botLast, err := h.botMove(ctx, g)
		switch {
		case tttbot.ErrorCode(err) == tttbot.ESTALE:
			// The timers played the reply first: show the game as it is.
			if cur, err := h.store.Game(ctx, g.ID); err == nil {
				g, last = cur, nil
			}
		case err != nil:
			// The human's move stands; the timers retry the bot's reply.
			h.log.Error("bot move", "game", g.ID, "err", err)
		default:
			g, last = g2, botLast
		}
	}
	return updateMessage(h.render(g, last)), nil
}

// reply chooses the bot's answer to the human's move m on the board m would
// make, or returns nil when the store is going to refuse m or m ends the
// game: Play then says why, or finishes it.
func (h *Handler) reply(ctx context.Context, g *tttbot.Game, m tttbot.MoveRequest) *tttbot.MoveRequest {
	if g.Status != tttbot.StatusActive || g.Turn != m.Player || g.Version != m.Version {
		return nil
	}
	pos, err := g.Position()
	if err != nil {
		return nil
	}
	next, err := pos.Play(m.Cell)
	if err != nil || next.Result().Over {
		return nil
	}
	r, err := h.botRequest(ctx, g, next, m.Version+1, m.At)
	if err != nil {
		h.log.Error("bot move", "game", g.ID, "err", err)
		return nil
	}
	return &r
}

// botRequest asks the AI for the bot's move on pos, the board of g at
// version, as a move made at time at.
func (h *Handler) botRequest(ctx context.Context, g *tttbot.Game, pos game.Position, version int, at time.Time) (tttbot.MoveRequest, error) {
	choice, err := h.ai.Move(ctx, pos, ai.Level(g.BotLevel), h.newRand())
	if err != nil {
		return tttbot.MoveRequest{}, fmt.Errorf("ai move: %w", err)
	}
	h.log.Debug("bot move", "game", g.ID, "cell", choice.Cell, "proven", choice.Proven, "nodes", choice.Nodes, "elapsed", choice.Elapsed)
	return tttbot.MoveRequest{
		GameID: g.ID, Player: h.botID, Cell: choice.Cell, Version: version, At: at,
		Deadline: h.deadlineFor(g, g.Other(h.botID), at),
	}, nil
}

// botMove asks the AI for the bot's move in g and plays it.
func (h *Handler) botMove(ctx context.Context, g *tttbot.Game) (*tttbot.Game, *lastMove, error) {
	if g.Status != tttbot.StatusActive || !g.VsBot() || g.Turn != h.botID {
		return g, nil, fmt.Errorf("game %d: not the bot's turn", g.ID)
	}
	pos, err := g.Position()
	if err != nil {
		return g, nil, err
	}
	m, err := h.botRequest(ctx, g, pos, g.Version, h.opts.Now())
	if err != nil {
		return g, nil, err
	}
	next, err := h.store.Play(ctx, m)
	if err != nil {
		return g, nil, fmt.Errorf("play bot move: %w", err)
	}
	return next, &lastMove{player: h.botID, cell: m.Cell}, nil
}

// rematch starts the same match with sides swapped: at once against the bot,
// as a new challenge between people.
func (h *Handler) rematch(ctx context.Context, i *discordgo.Interaction, old *tttbot.Game, me string) (Reply, error) {
	if !old.HasPlayer(me) {
		return Reply{}, tttbot.Errorf(tttbot.ENOTYOURS, "Only the players of this game can ask for a rematch.")
	}
	if old.Status != tttbot.StatusFinished {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "This game is not over yet.")
	}
	g := &tttbot.Game{
		GuildID: i.GuildID, ChannelID: i.ChannelID,
		Rows: old.Rows, Cols: old.Cols, K: old.K,
		Challenger: me, Opponent: old.Other(me), BotLevel: old.BotLevel,
		XPlayer: old.OPlayer, OPlayer: old.XPlayer,
	}
	if g.VsBot() {
		return h.startBotGame(ctx, g)
	}
	g.Status = tttbot.StatusPending
	g.Board = emptyBoard(g)
	g.Deadline = h.opts.Now().Add(h.opts.ChallengeTimeout)
	if err := h.store.CreateGame(ctx, g); err != nil {
		return Reply{}, err
	}
	return newMessage(h.render(g, nil), g.ID), nil
}
