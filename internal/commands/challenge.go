package commands

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/play"
)

// challengeOptions are the checked options of /ttt challenge.
type challengeOptions struct {
	opponent   *discordgo.User // nil: the bot
	size, k    int
	first      play.First
	difficulty ai.Level
}

// parseChallenge reads the options of /ttt challenge and refuses a board,
// a first mover or a difficulty that does not exist.
func parseChallenge(opts options, resolved *discordgo.ApplicationCommandInteractionDataResolved) (challengeOptions, error) {
	// What is left out stays zero: the guild's defaults apply, in the
	// transaction that creates the game.
	var c challengeOptions
	if opts.has("opponent") {
		id := opts.str("opponent")
		c.opponent = &discordgo.User{ID: id}
		if resolved != nil && resolved.Users[id] != nil {
			c.opponent = resolved.Users[id]
		}
	}
	c.size, _ = opts.num("size")
	c.k, _ = opts.num("win")
	c.first = play.First(opts.str("first"))
	if opts.has("difficulty") {
		level, err := ai.ParseLevel(opts.str("difficulty"))
		if err != nil {
			return c, refuse(tttbot.EINVALID, "error_bad_difficulty", nil)
		}
		c.difficulty = level
	}
	if c.size != 0 {
		if _, err := boardShape(c.size, c.k); err != nil {
			return c, err
		}
	}
	if c.first != "" && !c.first.Valid() {
		return c, play.ErrBadFirst
	}
	return c, nil
}

// challenge answers /ttt challenge with the new game's board: a challenge
// to answer, or a game against the bot under way.
func (h *Handler) challenge(ctx context.Context, i *discordgo.Interaction, opts options, resolved *discordgo.ApplicationCommandInteractionDataResolved) (interaction.Reply, error) {
	c, err := parseChallenge(opts, resolved)
	if err != nil {
		return interaction.Reply{}, err
	}
	me := user(i)
	vsBot := c.opponent == nil || c.opponent.ID == h.botID
	switch {
	case !vsBot && c.opponent.ID == me.ID:
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_challenge_self", nil)
	case !vsBot && c.opponent.Bot:
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_challenge_bot", map[string]any{"Player": "<@" + c.opponent.ID + ">"})
	case !vsBot && privateReplies(i):
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_challenge_private", nil)
	case !vsBot && botDM(i):
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_challenge_bot_dm", map[string]any{"Player": "<@" + c.opponent.ID + ">"})
	}
	l := h.publicLang(ctx, i)
	req := play.Challenge{
		Place: h.place(i), Language: l.Code(),
		Challenger: me.ID, Roles: roles(i),
		Rows: c.size, Cols: c.size, K: c.k,
		First: c.first, Level: c.difficulty,
		// The names go into the transaction that creates the game.
		Players: []tttbot.Player{{ID: me.ID, Name: displayName(me), Avatar: me.Avatar}},
	}
	if !vsBot {
		req.Opponent = c.opponent.ID
		if c.opponent.Username != "" {
			req.Players = append(req.Players, tttbot.Player{ID: c.opponent.ID, Name: displayName(c.opponent), Avatar: c.opponent.Avatar})
		}
	}
	r, err := h.play.Challenge(ctx, req)
	if err != nil {
		return interaction.Reply{}, err
	}
	return newBoard(h.render(ctx, l, r.Game, r.Last), r.Game), nil
}
