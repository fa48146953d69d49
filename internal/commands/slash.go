package commands

import (
	"context"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/play"
)

// Definitions are the slash commands the bot registers: one /ttt command
// with a subcommand per action, so new actions slot in as subcommands.
func Definitions() []*discordgo.ApplicationCommand {
	sizes := []*discordgo.ApplicationCommandOptionChoice{{Name: "3×3", Value: 3}, {Name: "4×4", Value: 4}, {Name: "5×5", Value: 5}}
	wins := []*discordgo.ApplicationCommandOptionChoice{{Name: "3 in a row", Value: 3}, {Name: "4 in a row", Value: 4}, {Name: "5 in a row", Value: 5}}
	return []*discordgo.ApplicationCommand{{
		Name:        "ttt",
		Description: "Play tic-tac-toe",
		Options: []*discordgo.ApplicationCommandOption{
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: "challenge",
				Description: "Challenge someone, or me, to a game",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who to play (me, if you leave it out)"},
					{Type: discordgo.ApplicationCommandOptionInteger, Name: "size", Description: "Board size (default 3×3)", Choices: sizes},
					{Type: discordgo.ApplicationCommandOptionInteger, Name: "win", Description: "How many in a row win (default: 3 on 3×3, else 4)", Choices: wins},
					{Type: discordgo.ApplicationCommandOptionString, Name: "first", Description: "Who moves first (default random)", Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "me", Value: "me"}, {Name: "them", Value: "them"}, {Name: "random", Value: "random"},
					}},
					{Type: discordgo.ApplicationCommandOptionString, Name: "difficulty", Description: "How well I play (default perfect)", Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "easy", Value: string(ai.Easy)}, {Name: "medium", Value: string(ai.Medium)},
						{Name: "hard", Value: string(ai.Hard)}, {Name: "perfect", Value: string(ai.Perfect)},
					}},
				},
			},
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "resign", Description: "Resign your game in this channel, or withdraw your challenge"},
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "help", Description: "How to play"},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: "leaderboard",
				Description: "Top players by rating",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionString, Name: "scope", Description: "This server's players or everyone's (default: this server)", Choices: []*discordgo.ApplicationCommandOptionChoice{
						{Name: "server", Value: "server"}, {Name: "global", Value: "global"},
					}},
					{Type: discordgo.ApplicationCommandOptionInteger, Name: "size", Description: "Board size (default 3×3)", Choices: sizes},
					{Type: discordgo.ApplicationCommandOptionInteger, Name: "win", Description: "How many in a row win (default: 3 on 3×3, else 4)", Choices: wins},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: "stats",
				Description: "Rating, rank, record and streaks",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose (default: yours)"},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: "history",
				Description: "The last games, each to replay move by move",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionUser, Name: "user", Description: "Whose (default: yours)"},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: "review",
				Description: "Every move of a finished game, judged by the solver",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionInteger, Name: "game", Required: true, MinValue: new(1.0), Description: "The game's number (see /ttt history)"},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: "settings",
				Description: "Server settings moved to /ttt-admin",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: "simultaneous_games", Required: true, Description: "Now /ttt-admin simultaneous"},
				},
			},
			{
				Type: discordgo.ApplicationCommandOptionSubCommand, Name: "forget-me",
				Description: "Erase your name, ratings and records; your games stay, anonymous",
				Options: []*discordgo.ApplicationCommandOption{
					{Type: discordgo.ApplicationCommandOptionBoolean, Name: "confirm", Required: true, Description: "true to erase: it cannot be undone"},
				},
			},
		},
	}, adminDefinition()}
}

const helpText = "**Tic-tac-toe** — get K in a row before your opponent.\n" +
	"• `/ttt challenge` — play me right away (I never lose at `perfect`).\n" +
	"• `/ttt challenge opponent:@friend` — challenge a friend; they accept or decline with the buttons.\n" +
	"• `/ttt challenge size:5 win:4 first:me difficulty:hard` — a 5×5 board, four in a row, you move first, me at hard.\n" +
	"• `/ttt resign` — give up your game in this channel (or withdraw your challenge).\n" +
	"• `/ttt leaderboard scope:global size:4` — the top players; `/ttt stats`, `/ttt history` — yours or anyone's.\n" +
	"• `/ttt review game:42` — every move of a finished game judged: best, inaccuracy or mistake.\n" +
	"• `/ttt forget-me confirm:true` — erase what I keep about you: your name, ratings and records.\n" +
	"• `/ttt-admin` — (Manage Server) this server's channels, role, cooldown, defaults, timeouts and marks.\n" +
	"Click a cell to move. A challenge expires after %s unanswered; a player who does not move within %s loses on time. " +
	"Boards go from 3×3 to 5×5; after a game, **Rematch** plays again with sides swapped and **Review** shows where it was won or lost. " +
	"Games between people are rated (Glicko-2, per server, globally, and per board); leaderboards rank by rating − 2×deviation " +
	"and list a player after %d rated games. Games against me are counted, not rated."

func (h *Handler) command(ctx context.Context, i *discordgo.Interaction) (Reply, error) {
	data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	def := h.defs[data.Name]
	if !ok || def == nil || len(data.Options) != 1 {
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "I don't know that command.")
	}
	if err := checkOptions(def.Options, data.Options, data.Resolved); err != nil {
		return Reply{}, err
	}
	if def.Name == adminCommand {
		return h.admin(ctx, i, data.Options[0], data.Resolved)
	}
	sub := data.Options[0]
	switch sub.Name {
	case "challenge":
		return h.challenge(ctx, i, sub.Options, data.Resolved)
	case "resign":
		return h.resign(ctx, i)
	case "help":
		return ephemeral(fmt.Sprintf(helpText, h.opts.ChallengeTimeout, h.opts.TurnTimeout, tttbot.MinRatedGames)), nil
	case "settings":
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "Server settings moved: use `/ttt-admin simultaneous allow:true` (or `/ttt-admin show` for them all).")
	case "forget-me":
		return h.forgetMe(ctx, i, sub.Options)
	case "leaderboard":
		return h.leaderboard(ctx, i, sub.Options)
	case "stats":
		return h.stats(ctx, i, sub.Options)
	case "history":
		return h.history(ctx, i, sub.Options)
	case "review":
		return h.review(ctx, i, sub.Options)
	}
	return Reply{}, tttbot.Errorf(tttbot.EINVALID, "I don't know the subcommand %q. Try `/ttt help`.", sub.Name)
}

// challengeOptions are the checked options of /ttt challenge.
type challengeOptions struct {
	opponent   *discordgo.User // nil: the bot
	size, k    int
	first      play.First
	difficulty ai.Level
}

func parseChallenge(opts []*discordgo.ApplicationCommandInteractionDataOption, resolved *discordgo.ApplicationCommandInteractionDataResolved) (challengeOptions, error) {
	// What is left out stays zero: the guild's defaults apply, in the
	// transaction that creates the game.
	var c challengeOptions
	for _, o := range opts {
		switch o.Name {
		case "opponent":
			id, _ := o.Value.(string)
			c.opponent = &discordgo.User{ID: id}
			if resolved != nil && resolved.Users[id] != nil {
				c.opponent = resolved.Users[id]
			}
		case "size":
			v, _ := o.Value.(float64) // JSON numbers
			c.size = int(v)
		case "win":
			v, _ := o.Value.(float64)
			c.k = int(v)
		case "first":
			v, _ := o.Value.(string)
			c.first = play.First(v)
		case "difficulty":
			s, _ := o.Value.(string)
			level, err := ai.ParseLevel(s)
			if err != nil {
				return c, tttbot.Errorf(tttbot.EINVALID, "Difficulty must be easy, medium, hard or perfect.")
			}
			c.difficulty = level
		default:
			return c, tttbot.Errorf(tttbot.EINVALID, "I don't know the option %q.", o.Name)
		}
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

func (h *Handler) challenge(ctx context.Context, i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption, resolved *discordgo.ApplicationCommandInteractionDataResolved) (Reply, error) {
	c, err := parseChallenge(opts, resolved)
	if err != nil {
		return Reply{}, err
	}
	me := user(i)
	vsBot := c.opponent == nil || c.opponent.ID == h.botID
	switch {
	case !vsBot && c.opponent.ID == me.ID:
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "You can't challenge yourself. Challenge a friend, or leave the opponent out to play me.")
	case !vsBot && c.opponent.Bot:
		return Reply{}, tttbot.Errorf(tttbot.EINVALID, "%s is a bot and can't play. Challenge a person, or leave the opponent out to play me.", mention(c.opponent.ID))
	}
	req := play.Challenge{
		GuildID: i.GuildID, ChannelID: i.ChannelID,
		Challenger: me.ID, Roles: roles(i),
		Rows: c.size, Cols: c.size, K: c.k,
		First: c.first, Level: c.difficulty,
		// The names go into the transaction that creates the game.
		Players: []tttbot.Player{{ID: me.ID, Name: displayName(me)}},
	}
	if !vsBot {
		req.Opponent = c.opponent.ID
		if c.opponent.Username != "" {
			req.Players = append(req.Players, tttbot.Player{ID: c.opponent.ID, Name: displayName(c.opponent)})
		}
	}
	r, err := h.play.Challenge(ctx, req)
	if err != nil {
		return Reply{}, err
	}
	return newMessage(h.render(ctx, r.Game, r.Last), r.Game.ID), nil
}

func (h *Handler) resign(ctx context.Context, i *discordgo.Interaction) (Reply, error) {
	g, err := h.play.Resign(ctx, i.ChannelID, user(i).ID)
	if tttbot.ErrorCode(err) == tttbot.ESTALE {
		return Reply{}, tttbot.Errorf(tttbot.ESTALE, "Your game changed just now — try `/ttt resign` again.")
	} else if err != nil {
		return Reply{}, err
	}
	m := h.render(ctx, g, nil)
	if g.MessageID != "" {
		// The board is updated in place; the reply tells the channel what happened.
		text := h.outcome(g)
		if g.Status != tttbot.StatusFinished {
			text = m.content
		}
		return Reply{
			Response: &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: message{content: text}.data(),
			},
			Followup: followup(m),
			Edit:     &Edit{GameID: g.ID, Version: g.Version, ChannelID: g.ChannelID, MessageID: g.MessageID, Data: m.data()},
		}, nil
	}
	return newMessage(m, 0), nil
}
