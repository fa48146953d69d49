package commands

import (
	"context"
	"maps"
	"strconv"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/play"
)

// Definitions are the slash commands the bot registers: one /ttt command
// with a subcommand per action, so new actions slot in as subcommands. Its
// descriptions and choice names are in English, with their translations
// for every other language of the catalogs. The error is the catalogs'.
func Definitions() ([]*discordgo.ApplicationCommand, error) {
	cat, err := catalog()
	if err != nil {
		return nil, err
	}
	return definitions(cat), nil
}

func definitions(cat *i18n.Catalog) []*discordgo.ApplicationCommand {
	loc := localizer{cat}
	sizes := []*discordgo.ApplicationCommandOptionChoice{{Name: "3×3", Value: 3}, {Name: "4×4", Value: 4}, {Name: "5×5", Value: 5}}
	var wins []*discordgo.ApplicationCommandOptionChoice
	for k := 3; k <= 5; k++ {
		wins = append(wins, loc.choice("choice_win", map[string]any{"K": k}, k))
	}
	var levels []*discordgo.ApplicationCommandOptionChoice
	for _, l := range ai.Levels() {
		levels = append(levels, loc.choice("level_"+string(l), nil, string(l)))
	}
	option := func(typ discordgo.ApplicationCommandOptionType, name, id string, choices ...*discordgo.ApplicationCommandOptionChoice) *discordgo.ApplicationCommandOption {
		d, ds := loc.text(id, nil)
		return &discordgo.ApplicationCommandOption{Type: typ, Name: name, Description: d, DescriptionLocalizations: ds, Choices: choices}
	}
	sub := func(name, id string, opts ...*discordgo.ApplicationCommandOption) *discordgo.ApplicationCommandOption {
		o := option(discordgo.ApplicationCommandOptionSubCommand, name, id)
		o.Options = opts
		return o
	}
	review := option(discordgo.ApplicationCommandOptionInteger, "game", "opt_game")
	review.Required, review.MinValue = true, new(1.0)
	simultaneous := option(discordgo.ApplicationCommandOptionBoolean, "simultaneous_games", "opt_settings_moved")
	simultaneous.Required = true
	confirm := option(discordgo.ApplicationCommandOptionBoolean, "confirm", "opt_forget_confirm")
	confirm.Required = true
	description, descriptions := loc.text("cmd_ttt", nil)
	return []*discordgo.ApplicationCommand{{
		Name:                     "ttt",
		Description:              description,
		DescriptionLocalizations: &descriptions,
		// Everywhere a user can type it: installed to a server or to the
		// user, in servers, in the DM with the bot, and in DMs and group
		// DMs between users. /ttt-admin is the server's alone.
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{
			discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall,
		},
		Contexts: &[]discordgo.InteractionContextType{
			discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel,
		},
		Options: []*discordgo.ApplicationCommandOption{
			sub("challenge", "cmd_challenge",
				option(discordgo.ApplicationCommandOptionUser, "opponent", "opt_opponent"),
				option(discordgo.ApplicationCommandOptionInteger, "size", "opt_size", sizes...),
				option(discordgo.ApplicationCommandOptionInteger, "win", "opt_win", wins...),
				option(discordgo.ApplicationCommandOptionString, "first", "opt_first",
					loc.choice("choice_first_me", nil, string(play.FirstMe)),
					loc.choice("choice_first_them", nil, string(play.FirstThem)),
					loc.choice("choice_first_random", nil, string(play.FirstRandom))),
				option(discordgo.ApplicationCommandOptionString, "difficulty", "opt_difficulty", levels...),
			),
			sub("resign", "cmd_resign"),
			sub("help", "cmd_help"),
			sub("leaderboard", "cmd_leaderboard",
				option(discordgo.ApplicationCommandOptionString, "scope", "opt_scope",
					loc.choice("choice_scope_server", nil, "server"), loc.choice("choice_scope_global", nil, "global")),
				option(discordgo.ApplicationCommandOptionInteger, "size", "opt_size", sizes...),
				option(discordgo.ApplicationCommandOptionInteger, "win", "opt_win", wins...),
			),
			sub("stats", "cmd_stats", option(discordgo.ApplicationCommandOptionUser, "user", "opt_user")),
			sub("history", "cmd_history", option(discordgo.ApplicationCommandOptionUser, "user", "opt_user")),
			sub("review", "cmd_review", review),
			sub("settings", "cmd_settings_moved", simultaneous),
			sub("forget-me", "cmd_forget_me", confirm),
		},
	}, adminDefinition(loc)}
}

// localizer words the command definitions in every language of a catalog.
type localizer struct{ cat *i18n.Catalog }

// text is message id in the source language, and its translations keyed
// by Discord locale.
func (z localizer) text(id string, data map[string]any) (string, map[discordgo.Locale]string) {
	src := z.cat.Source()
	ls := map[discordgo.Locale]string{}
	for _, code := range z.cat.Codes() {
		if code == src.Code() {
			continue
		}
		l, _ := z.cat.Lookup(code)
		ls[discordgo.Locale(code)] = l.T(id, maps.Clone(data))
	}
	return src.T(id, maps.Clone(data)), ls
}

// choice is a choice named by message id, with its translations.
func (z localizer) choice(id string, data map[string]any, value any) *discordgo.ApplicationCommandOptionChoice {
	name, names := z.text(id, data)
	return &discordgo.ApplicationCommandOptionChoice{Name: name, NameLocalizations: names, Value: value}
}

func (h *Handler) command(ctx context.Context, i *discordgo.Interaction) (Reply, error) {
	data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
	def := h.defs[data.Name]
	if !ok || def == nil || len(data.Options) != 1 {
		return Reply{}, refuse(tttbot.EINVALID, "error_unknown_command", nil)
	}
	if err := checkOptions(def.Options, data.Options, data.Resolved); err != nil {
		return Reply{}, err
	}
	if def.Name == adminCommand {
		return h.admin(ctx, i, data.Options[0], data.Resolved)
	}
	sub, opts := data.Options[0], options(data.Options[0].Options)
	switch sub.Name {
	case "challenge":
		return h.challenge(ctx, i, opts, data.Resolved)
	case "resign":
		return h.resign(ctx, i)
	case "help":
		l := h.userLang(i)
		return ephemeral(l.T("help", map[string]any{
			"ChallengeTimeout": duration(l, h.opts.ChallengeTimeout), "TurnTimeout": duration(l, h.opts.TurnTimeout),
			"Ranked": l.N("rated_games", tttbot.MinRatedGames, nil)}) + "\n" +
			l.T("help_anywhere", map[string]any{"Life": duration(l, tttbot.TokenLife), "Wait": duration(l, tttbot.MaxWebhookWait)})), nil
	case "settings":
		return Reply{}, refuse(tttbot.EINVALID, "settings_moved", nil)
	case "forget-me":
		return h.forgetMe(ctx, i, opts)
	case "leaderboard":
		return h.leaderboard(ctx, i, opts)
	case "stats":
		return h.stats(ctx, i, opts)
	case "history":
		return h.history(ctx, i, opts)
	case "review":
		return h.review(ctx, i, opts)
	}
	return Reply{}, refuse(tttbot.EINVALID, "error_unknown_subcommand", map[string]any{"Name": strconv.Quote(sub.Name)})
}

// challengeOptions are the checked options of /ttt challenge.
type challengeOptions struct {
	opponent   *discordgo.User // nil: the bot
	size, k    int
	first      play.First
	difficulty ai.Level
}

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

func (h *Handler) challenge(ctx context.Context, i *discordgo.Interaction, opts options, resolved *discordgo.ApplicationCommandInteractionDataResolved) (Reply, error) {
	c, err := parseChallenge(opts, resolved)
	if err != nil {
		return Reply{}, err
	}
	me := user(i)
	vsBot := c.opponent == nil || c.opponent.ID == h.botID
	switch {
	case !vsBot && c.opponent.ID == me.ID:
		return Reply{}, refuse(tttbot.EINVALID, "error_challenge_self", nil)
	case !vsBot && c.opponent.Bot:
		return Reply{}, refuse(tttbot.EINVALID, "error_challenge_bot", map[string]any{"Player": "<@" + c.opponent.ID + ">"})
	case !vsBot && privateReplies(i):
		return Reply{}, refuse(tttbot.EINVALID, "error_challenge_private", nil)
	case !vsBot && botDM(i):
		return Reply{}, refuse(tttbot.EINVALID, "error_challenge_bot_dm", map[string]any{"Player": "<@" + c.opponent.ID + ">"})
	}
	l := h.publicLang(ctx, i)
	req := play.Challenge{
		Place: h.place(i), Language: l.Code(),
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
	return newMessage(h.render(ctx, l, r.Game, r.Last), r.Game.ID), nil
}

func (h *Handler) resign(ctx context.Context, i *discordgo.Interaction) (Reply, error) {
	g, err := h.play.Resign(ctx, i.ChannelID, user(i).ID)
	if tttbot.ErrorCode(err) == tttbot.ESTALE {
		return Reply{}, refuse(tttbot.ESTALE, "resign_stale", nil)
	} else if err != nil {
		return Reply{}, err
	}
	l := h.gameLang(g)
	m := h.render(ctx, l, g, nil)
	if e := h.boardEdit(g, m); e != nil {
		// The board is updated in place; the reply tells the channel what happened.
		text := h.outcome(l, g)
		if g.Status != tttbot.StatusFinished {
			text = m.content
		}
		return Reply{
			Response: &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: message{content: text}.data(),
			},
			Followup: followup(m),
			Edit:     e,
		}, nil
	}
	return newMessage(m, 0), nil
}

// boardEdit is the edit that redraws g's board as m, through channel REST
// or the webhook of g's latest interaction, or nil when the bot cannot
// reach the board: it never learnt the board's message, or Discord no
// longer honours the token. The board then shows the truth at its next
// click.
func (h *Handler) boardEdit(g *tttbot.Game, m message) *Edit {
	e := &Edit{GameID: g.ID, Version: g.Version, ChannelID: g.ChannelID, MessageID: g.MessageID, Data: m.data()}
	switch {
	case !g.Webhook && g.MessageID != "":
		return e
	case g.Webhook && g.Token.Valid(h.opts.Now()):
		e.Token = g.Token.Value
		return e
	}
	return nil
}
