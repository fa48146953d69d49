package commands

import (
	"maps"

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
	public := option(discordgo.ApplicationCommandOptionBoolean, "public", "opt_public")
	public.Required = true
	tournamentID := func() *discordgo.ApplicationCommandOption {
		o := option(discordgo.ApplicationCommandOptionInteger, "id", "opt_tournament")
		o.Required, o.MinValue = true, new(1.0)
		return o
	}
	ranged := func(o *discordgo.ApplicationCommandOption, lo, hi float64) *discordgo.ApplicationCommandOption {
		o.MinValue, o.MaxValue = &lo, hi
		return o
	}
	tName := option(discordgo.ApplicationCommandOptionString, "name", "opt_tournament_name")
	tName.Required, tName.MaxLength = true, 100
	tFormat := option(discordgo.ApplicationCommandOptionString, "format", "opt_tournament_format",
		loc.choice("choice_format_swiss", nil, string(tttbot.Swiss)),
		loc.choice("choice_format_roundrobin", nil, string(tttbot.RoundRobin)),
		loc.choice("choice_format_knockout", nil, string(tttbot.Knockout)))
	tFormat.Required = true
	tPlayer := option(discordgo.ApplicationCommandOptionUser, "player", "opt_tournament_player")
	tPlayer.Required = true
	tournament := option(discordgo.ApplicationCommandOptionSubCommandGroup, "tournament", "cmd_tournament")
	tournament.Options = []*discordgo.ApplicationCommandOption{
		sub("create", "cmd_tournament_create", tName, tFormat,
			option(discordgo.ApplicationCommandOptionInteger, "size", "opt_size", sizes...),
			option(discordgo.ApplicationCommandOptionInteger, "win", "opt_win", wins...),
			ranged(option(discordgo.ApplicationCommandOptionInteger, "rounds", "opt_tournament_rounds"), 1, 12),
			ranged(option(discordgo.ApplicationCommandOptionInteger, "round_minutes", "opt_round_minutes"), 1, 10080),
			ranged(option(discordgo.ApplicationCommandOptionInteger, "move_seconds", "opt_move_seconds"), 10, 86400),
			ranged(option(discordgo.ApplicationCommandOptionInteger, "signup_minutes", "opt_signup_minutes"), 1, 10080),
			option(discordgo.ApplicationCommandOptionBoolean, "rated", "opt_tournament_rated")),
		sub("start", "cmd_tournament_start", tournamentID()),
		sub("cancel", "cmd_tournament_cancel", tournamentID()),
		sub("remove", "cmd_tournament_remove", tournamentID(), tPlayer),
		sub("standings", "cmd_tournament_standings", tournamentID()),
	}
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
					loc.choice("choice_scope_server", nil, "server"), loc.choice("choice_scope_global", nil, "global"),
					loc.choice("choice_scope_puzzles", nil, "puzzles")),
				option(discordgo.ApplicationCommandOptionInteger, "size", "opt_size", sizes...),
				option(discordgo.ApplicationCommandOptionInteger, "win", "opt_win", wins...),
			),
			sub("stats", "cmd_stats", option(discordgo.ApplicationCommandOptionUser, "user", "opt_user")),
			sub("history", "cmd_history", option(discordgo.ApplicationCommandOptionUser, "user", "opt_user")),
			sub("review", "cmd_review", review),
			sub("hint", "cmd_hint"),
			sub("puzzle", "cmd_puzzle"),
			sub("settings", "cmd_settings_moved", simultaneous),
			sub("forget-me", "cmd_forget_me", confirm),
			sub("profile", "cmd_profile", public),
			tournament,
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
