package commands

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/health"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/play"
)

// click answers a button: it reads the game its custom ID names (a move,
// an answer to a challenge, a resignation and a rematch only in the
// transaction of their change), has play make the change the button asks
// for, and redraws the board; a board that lags behind its game is
// brought up to date.
func (h *Handler) click(ctx context.Context, i *discordgo.Interaction) (interaction.Reply, error) {
	data, ok := i.Data.(discordgo.MessageComponentInteractionData)
	if !ok {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_garbled_click", nil)
	}
	if strings.HasPrefix(data.CustomID, "ttt:"+actLeaderboard+":") {
		return h.leaderboardPage(ctx, i, data.CustomID)
	}
	if strings.HasPrefix(data.CustomID, "ttt:"+actTournament+":") {
		return h.tournamentClick(ctx, i, data.CustomID)
	}
	if strings.HasPrefix(data.CustomID, "ttt:"+actDaily+":") {
		return h.dailySolve(ctx, i, data.CustomID)
	}
	if strings.HasPrefix(data.CustomID, "ttt:"+actPuzzle+":") {
		return h.puzzleMove(ctx, i, data.CustomID)
	}
	c, err := ParseCustomID(data.CustomID)
	if err != nil {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_button_start", nil)
	}
	me := user(i).ID
	h.logger(ctx).Debug("click", "game", c.GameID, "action", c.Action, "user", me)
	var r interaction.Reply
	switch {
	case c.Action == ActMove:
		// The move's transaction reads a game this process does not
		// remember, and checks there where the click comes from.
		r, err = h.move(ctx, i, h.play.Remembered(c.GameID), me, c)
	case isAnswer(c.Action):
		r, err = h.answer(ctx, i, me, c)
	case c.Action == ActRematch:
		r, err = h.rematch(ctx, i, me, c)
	default:
		var g *tttbot.Game
		if g, err = h.store.Game(ctx, c.GameID); err != nil {
			return interaction.Reply{}, err
		}
		if err := inPlace(i, g, c.Action); err != nil {
			return interaction.Reply{}, err
		}
		r, err = h.clickAction(ctx, i, g, me, c)
	}
	// A board that lags behind its game gets the game drawn again: moved
	// on, or ended elsewhere (a timer whose edit failed, an erasure).
	if code := tttbot.ErrorCode(err); i.Message == nil || code != tttbot.ESTALE && code != tttbot.EFINISHED {
		return r, err
	}
	cur := h.redraw(ctx, c.GameID, i.Message)
	switch {
	case cur == nil:
	case cur.game.Webhook && playsGame(c.Action):
		// Only the click's own answer can redraw the board now, and the
		// click's token, whose response is the board, then serves the
		// game's later edits.
		if err := h.keepToken(ctx, cur.game, i); tttbot.ErrorCode(err) == tttbot.EREPLAY {
			return interaction.Reply{}, err
		}
		return updateMessage(cur.message), nil
	default:
		r.Edit = cur.edit(i.Message)
	}
	return r, err
}

// move plays the click c on a cell of its game, seen as this process
// remembers it (nil: not at all), and draws the board.
func (h *Handler) move(ctx context.Context, i *discordgo.Interaction, seen *tttbot.Game, me string, c CustomID) (interaction.Reply, error) {
	r, err := h.play.Move(ctx, play.MoveClick{
		GameID: c.GameID, User: me, Cell: c.Cell, Version: c.Version, Seen: seen,
		Check: func(g *tttbot.Game) error { return inPlace(i, g, c.Action) },
	})
	if err != nil {
		return interaction.Reply{}, err
	}
	return updateMessage(h.render(ctx, h.gameLang(r.Game), r.Game, r.Last)), nil
}

// keepToken records i's token as game g's latest: the response to i is
// g's board, which later edits reach through that token's webhook. A
// failure is logged: the game keeps an older token, and a board it cannot
// reach shows the truth at its next click. EREPLAY is returned, for the
// caller to refuse the replay.
func (h *Handler) keepToken(ctx context.Context, g *tttbot.Game, i *discordgo.Interaction) error {
	err := h.play.SetToken(ctx, g.ID, h.token(i))
	if err != nil && tttbot.ErrorCode(err) != tttbot.EREPLAY {
		h.logger(ctx).Log(ctx, health.Level(err), "keep interaction token", "game", g.ID, "err", err)
	}
	return err
}

// answer plays click c, an answer to a challenge or a resignation, and
// draws the board. The store decides it in its own transaction, on the
// game as it reads it, where the click's own check runs too: what the
// click needs of the game (its channel, its players, the challenge's
// sides) never changes, and nothing is read before.
func (h *Handler) answer(ctx context.Context, i *discordgo.Interaction, me string, c CustomID) (interaction.Reply, error) {
	check := func(g *tttbot.Game) error { return inPlace(i, g, c.Action) }
	var g *tttbot.Game
	var err error
	switch c.Action {
	case ActAccept:
		g, err = h.play.Accept(ctx, c.GameID, me, roles(i), c.Version, check)
	case ActDecline:
		g, err = h.play.Decline(ctx, c.GameID, me, c.Version, check)
	default:
		g, err = h.play.ResignGame(ctx, c.GameID, me, check)
	}
	if err != nil {
		return interaction.Reply{}, err
	}
	return updateMessage(h.render(ctx, h.gameLang(g), g, nil)), nil
}

// rematch starts click c's ended game again. The ended game is read in
// the transaction that creates the new one, where the click's checks run
// on it: from the game's channel, and not a challenge between people
// where the answer could not be public.
func (h *Handler) rematch(ctx context.Context, i *discordgo.Interaction, me string, c CustomID) (interaction.Reply, error) {
	r, err := h.play.Rematch(ctx, c.GameID, me, roles(i), h.place(i), func(old *tttbot.Game) error {
		if err := inPlace(i, old, c.Action); err != nil {
			return err
		}
		if !old.VsBot() && privateReplies(i) {
			return refuse(tttbot.EINVALID, "error_challenge_private", nil)
		}
		return nil
	})
	if err != nil {
		return interaction.Reply{}, err
	}
	return newBoard(h.render(ctx, h.gameLang(r.Game), r.Game, r.Last), r.Game), nil
}

// isAnswer reports whether action is one that answer plays. Moves and
// rematches are not answers, and read nothing first either (see
// Handler.move, Handler.rematch).
func isAnswer(action string) bool {
	switch action {
	case ActAccept, ActDecline, ActResign:
		return true
	}
	return false
}

// playsGame reports whether a button acts on its game — a move, an answer
// to a challenge, a rematch — rather than opening a private view of it.
// Reviews and replays are those views: /ttt history and /ttt review open
// them in any channel, and lookBack decides who may see them.
func playsGame(action string) bool {
	switch action {
	case ActMove, ActAccept, ActDecline, ActRematch, ActResign:
		return true
	}
	return false
}

// inPlace refuses click i with action on game g unless the action only
// opens a private view (see playsGame) or the click comes from g's
// channel, in g's guild (or DM), on a message in that channel: the
// buttons that play g live only on its board, and a click from elsewhere
// would play it there, draw its board over the clicked message and record
// that message as its board.
func inPlace(i *discordgo.Interaction, g *tttbot.Game, action string) error {
	if playsGame(action) && (i.GuildID != g.GuildID || i.ChannelID != g.ChannelID ||
		i.Message != nil && i.Message.ChannelID != g.ChannelID) {
		return refuse(tttbot.EINVALID, "error_elsewhere", map[string]any{"Game": gameNumber(g.ID)})
	}
	return nil
}

// shownVersion is the game version a message's buttons carry, or 0: in
// rows at the top (a board from before components V2) or in a container.
func shownVersion(m *discordgo.Message) int {
	rows := m.Components
	for _, c := range m.Components {
		if box, ok := c.(*discordgo.Container); ok {
			rows = box.Components
		}
	}
	for _, row := range rows {
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

// edit redraws board message m, which shows an outdated version of the
// game — say, when Discord lost the answer to the click that moved it on —
// so that its buttons work again.
func (cur *current) edit(m *discordgo.Message) *interaction.Edit {
	return &interaction.Edit{GameID: cur.game.ID, Version: cur.game.Version, ChannelID: m.ChannelID, MessageID: m.ID, Data: cur.message.data()}
}

// current is a game as it is now, and its board.
type current struct {
	game    *tttbot.Game
	message message
}

// redraw is game id as it is now and its board, when board message m shows
// an older version of it; nil when m is up to date or the game cannot be
// read.
func (h *Handler) redraw(ctx context.Context, id int64, m *discordgo.Message) *current {
	g, moves, err := h.store.GameMoves(ctx, id)
	if err != nil || shownVersion(m) == g.Version {
		return nil
	}
	var last *tttbot.Move
	if len(moves) > 0 {
		last = &moves[len(moves)-1]
	}
	return &current{game: g, message: h.render(ctx, h.gameLang(g), g, last)}
}

func (h *Handler) clickAction(ctx context.Context, i *discordgo.Interaction, g *tttbot.Game, me string, c CustomID) (interaction.Reply, error) {
	switch c.Action {
	case actReview, actReviewPage:
		return h.reviewPage(ctx, i, g, c.Page, c.Action == actReview)
	case actReplay:
		return h.replay(ctx, i, g, -1, true)
	case actReplayStep:
		return h.replay(ctx, i, g, c.Page, false)
	case actPictures:
		return h.pictures(ctx, i, g)
	}
	return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_button", nil)
}
