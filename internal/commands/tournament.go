package commands

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gametext"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/palette"
	"github.com/tttbot/tttbot/internal/play"
	glicko "github.com/tttbot/tttbot/internal/rating"
)

// actTournament is the Join and Leave buttons' action:
// ttt:t:TOURNAMENT:j and ttt:t:TOURNAMENT:l.
const actTournament = "t"

// The defaults of /ttt tournament create's options.
const (
	defaultRounds      = 3
	defaultRoundTime   = 60 * time.Minute
	defaultMoveTimeout = 5 * time.Minute
	defaultSignup      = 30 * time.Minute
)

// tournament answers /ttt tournament's subcommands.
func (h *Handler) tournament(ctx context.Context, i *discordgo.Interaction, group *discordgo.ApplicationCommandInteractionDataOption) (interaction.Reply, error) {
	if i.GuildID == "" {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "tournament_guild_only", nil)
	}
	if len(group.Options) != 1 {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_garbled_command", nil)
	}
	sub, opts := group.Options[0], options(group.Options[0].Options)
	l, me := h.userLang(i), user(i).ID
	if sub.Name == "create" {
		return h.tournamentCreate(ctx, i, opts)
	}
	id, _ := opts.num("id")
	st, err := h.play.Tournament(ctx, int64(id))
	if err != nil {
		return interaction.Reply{}, err
	}
	if st.GuildID != i.GuildID {
		return interaction.Reply{}, tttbot.ErrNoTournament
	}
	name := map[string]any{"Name": st.Name}
	switch sub.Name {
	case "start":
		if err := h.play.StartTournament(ctx, st.ID, me, h); err != nil {
			return interaction.Reply{}, err
		}
		return ephemeral(l.T("tournament_started", name)), nil
	case "cancel":
		if err := h.play.CancelTournament(ctx, st.ID, me, h); err != nil {
			return interaction.Reply{}, err
		}
		return ephemeral(l.T("tournament_cancel_done", name)), nil
	case "remove":
		who := opts.str("player")
		ended, err := h.play.RemoveFromTournament(ctx, st.ID, me, who)
		if err != nil {
			return interaction.Reply{}, err
		}
		h.showForfeits(ctx, ended)
		h.refreshAnnouncement(ctx, st.ID)
		return ephemeral(l.T("tournament_removed", map[string]any{"Name": st.Name, "Player": mention(l, who)})), nil
	case "standings":
		l := h.publicLang(ctx, i)
		return post(h.withLink(h.renderStandings(l, st, 0), l, "button_web_tournament", h.tournamentPage(ctx, st)), false), nil
	}
	return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_subcommand", map[string]any{"Name": strconv.Quote(sub.Name)})
}

// tournamentCreate announces a tournament in the channel, its organiser
// the member who asked, who must be able to manage the server.
func (h *Handler) tournamentCreate(ctx context.Context, i *discordgo.Interaction, opts options) (interaction.Reply, error) {
	// The rule's settings read now, not the cached look's.
	st, err := h.store.Settings(ctx, i.GuildID)
	if err != nil {
		return interaction.Reply{}, err
	}
	if !st.MayOrganise(canManage(i), i.Member.Roles) {
		return interaction.Reply{}, refuse(tttbot.EFORBIDDEN, "tournament_admins_only", nil)
	}
	minutes := func(name string, def time.Duration) time.Duration {
		if n, ok := opts.num(name); ok {
			return time.Duration(n) * time.Minute
		}
		return def
	}
	size, k := 3, 3
	if n, ok := opts.num("size"); ok {
		size, k = n, n
	}
	if n, ok := opts.num("win"); ok {
		k = n
	}
	rounds, ok := opts.num("rounds")
	if !ok {
		rounds = defaultRounds
	}
	move := defaultMoveTimeout
	if n, ok := opts.num("move_seconds"); ok {
		move = time.Duration(n) * time.Second
	}
	format := tttbot.TournamentFormat(opts.str("format"))
	if format != tttbot.Swiss {
		rounds = 0
	}
	t := &tttbot.Tournament{GuildID: i.GuildID, ChannelID: i.ChannelID, Organiser: user(i).ID, Name: strings.TrimSpace(opts.str("name")),
		Format: format, Shape: tttbot.Shape{Rows: size, Cols: size, K: k}, Rounds: rounds,
		RoundTime: minutes("round_minutes", defaultRoundTime), MoveTimeout: move, Unrated: opts.has("rated") && !opts.flag("rated"),
		Deadline: h.opts.Now().Add(minutes("signup_minutes", defaultSignup))}
	if err := h.play.CreateTournament(ctx, t); err != nil {
		return interaction.Reply{}, tournamentInvalid(err)
	}
	h.logger(ctx).Info("tournament announced", "tournament", t.ID)
	return post(h.renderAnnouncement(h.publicLang(ctx, i), &tttbot.TournamentState{Tournament: *t}), false), nil
}

// tournamentInvalid words a tournament's refused options: the shape's own
// refusal, else the bounds of every option at once.
func tournamentInvalid(err error) error {
	if tttbot.ErrorCode(err) != tttbot.EINVALID || errors.Is(err, tttbot.ErrBadShape) {
		return err
	}
	return refuse(tttbot.EINVALID, "tournament_bad_options", nil)
}

// tournamentClick answers Join and Leave on an announcement: the player
// enters or leaves, and the announcement shows the new count; and the
// pages of a table (s and the page's index).
func (h *Handler) tournamentClick(ctx context.Context, i *discordgo.Interaction, customID string) (interaction.Reply, error) {
	f := strings.Split(customID, ":")
	id, err := strconv.ParseInt(f[len(f)-2], 10, 64)
	page := -1
	if p, ok := strings.CutPrefix(f[len(f)-1], "s"); ok {
		if n, err := strconv.Atoi(p); err == nil && n >= 0 && strconv.Itoa(n) == p {
			page = n
		}
	}
	if len(f) != 4 || err != nil || id <= 0 || f[3] != "j" && f[3] != "l" && page < 0 {
		return interaction.Reply{}, refuse(tttbot.EINVALID, "error_unknown_button_start", nil)
	}
	st, err := h.play.Tournament(ctx, id)
	if err != nil {
		return interaction.Reply{}, err
	}
	if page >= 0 {
		l := h.publicLang(ctx, i)
		return update(h.withLink(h.renderStandings(l, st, page), l, "button_web_tournament", h.tournamentPage(ctx, st))), nil
	}
	me := user(i).ID
	if f[3] == "j" {
		r := float64(glicko.DefaultR)
		if s, err := h.store.Stats(ctx, st.GuildID, me); err == nil {
			for _, sd := range s.Ratings {
				if sd.Shape == st.Shape {
					r = sd.R
				}
			}
		}
		err = h.play.JoinTournament(ctx, id, me, r)
	} else {
		var ended []*tttbot.Game
		ended, err = h.play.LeaveTournament(ctx, id, me)
		h.showForfeits(ctx, ended)
	}
	if err != nil {
		return interaction.Reply{}, err
	}
	if st.MessageID == "" && i.Message != nil {
		if err := h.play.SetTournamentMessage(ctx, id, i.Message.ID); err != nil {
			h.logger(ctx).Warn("tournament announcement not recorded", "tournament", id, "err", err)
		}
	}
	if st, err = h.play.Tournament(ctx, id); err != nil {
		return interaction.Reply{}, err
	}
	return update(h.renderAnnouncement(h.tournamentLang(ctx, st), st)), nil
}

// showForfeits redraws the boards of the games a player forfeited by
// leaving.
func (h *Handler) showForfeits(ctx context.Context, ended []*tttbot.Game) {
	for _, g := range ended {
		if err := h.Fired(ctx, play.Result{Game: g}); err != nil {
			h.logger(ctx).Warn("forfeited board not redrawn", "game", g.ID, "err", err)
		}
	}
}

// tournamentLang is the language a tournament's messages speak: its
// server's.
func (h *Handler) tournamentLang(ctx context.Context, st *tttbot.TournamentState) *i18n.Language {
	return h.guildLang(ctx, st.GuildID)
}

// guildLang is the language of the messages the bot posts in a guild on its
// own, outside an interaction: the guild's setting, else the catalogs'
// source.
func (h *Handler) guildLang(ctx context.Context, guildID string) *i18n.Language {
	if locale := h.look(ctx, guildID).Locale; locale != "" {
		return h.cat.For(locale)
	}
	return h.cat.Source()
}

// refreshAnnouncement redraws a tournament's announcement, once its
// message is known: the count, or that it has started or ended.
func (h *Handler) refreshAnnouncement(ctx context.Context, id int64) {
	st, err := h.play.Tournament(ctx, id)
	if err != nil || st.MessageID == "" {
		return
	}
	if err := h.msg.EditMessage(ctx, st.ChannelID, st.MessageID, quiet(h.renderAnnouncement(h.tournamentLang(ctx, st), st))); err != nil {
		h.log.Warn("tournament announcement not redrawn", "tournament", id, "err", err)
	}
}

// RoundStarted posts a round's pairings and a board for each of its games
// in the tournament's channel: play's runner shown on Discord.
func (h *Handler) RoundStarted(ctx context.Context, st *tttbot.TournamentState, games []*tttbot.Game) error {
	h.refreshAnnouncement(ctx, st.ID)
	l := h.tournamentLang(ctx, st)
	for _, m := range h.renderRound(l, st) {
		if _, err := h.msg.SendMessage(ctx, st.ChannelID, m.data()); err != nil {
			return err
		}
	}
	return h.BoardsStarted(ctx, st, games)
}

// BoardsStarted posts a board for each of games in the tournament's
// channel, and tracks each for the timers.
func (h *Handler) BoardsStarted(ctx context.Context, st *tttbot.TournamentState, games []*tttbot.Game) error {
	for _, g := range games {
		// A board speaks its game's language, as its later edits do.
		id, err := h.msg.SendMessage(ctx, st.ChannelID, h.render(ctx, h.gameLang(g), g, nil).data())
		if err != nil {
			return fmt.Errorf("post board of game %d: %w", g.ID, err)
		}
		// The board's message, for the timers and a forfeit to redraw it.
		h.TrackMessage(ctx, g.ID, id)
	}
	return nil
}

// TournamentOver posts the final table with its podium, or that the
// tournament was cancelled.
func (h *Handler) TournamentOver(ctx context.Context, st *tttbot.TournamentState) error {
	h.refreshAnnouncement(ctx, st.ID)
	l := h.tournamentLang(ctx, st)
	m := card(l.T("tournament_cancelled", map[string]any{"Name": st.Name}))
	if st.Status == tttbot.TournamentFinished {
		m = h.withLink(h.renderStandings(l, st, 0), l, "button_web_tournament", h.tournamentPage(ctx, st))
	}
	_, err := h.msg.SendMessage(ctx, st.ChannelID, quiet(m))
	return err
}

var _ play.TournamentBoards = (*Handler)(nil)

func formatText(l *i18n.Language, f tttbot.TournamentFormat) string {
	return l.T("choice_format_"+string(f), nil)
}

// renderAnnouncement is a tournament's announcement: what it is, how it
// runs and its entrants; with Join and Leave while it signs up.
func (h *Handler) renderAnnouncement(l *i18n.Language, st *tttbot.TournamentState) message {
	active := 0
	for _, e := range st.Entrants {
		if !e.Withdrawn {
			active++
		}
	}
	text := l.T("tournament_announce", map[string]any{"Name": st.Name, "Format": formatText(l, st.Format),
		"Shape": gametext.Shape(l, st.Shape), "Organiser": mention(l, st.Organiser), "Round": duration(l, st.RoundTime),
		"Move": duration(l, st.MoveTimeout), "ID": st.ID}) + "\n" + l.T("tournament_entrants", map[string]any{"Count": active})
	if st.Unrated {
		text += "\n" + l.T("tournament_unrated", nil)
	}
	m := message{accent: accent(palette.Neutral)}
	base := "ttt:" + actTournament + ":" + strconv.FormatInt(st.ID, 10)
	leave := discordgo.Button{Label: l.T("button_leave", nil), Style: discordgo.SecondaryButton, CustomID: base + ":l"}
	switch st.Status {
	case tttbot.TournamentSignup:
		text += "\n" + l.T("tournament_signup_closes", map[string]any{"Closes": relTime(st.Deadline)})
		m.controls = []discordgo.MessageComponent{
			discordgo.Button{Label: l.T("button_join", nil), Style: discordgo.SuccessButton, CustomID: base + ":j"}, leave,
		}
	case tttbot.TournamentRunning:
		// Leaving now forfeits the rest: the open game, and no more pairings.
		text += "\n" + l.T("tournament_running", map[string]any{"Round": st.Round, "Rounds": st.Rounds})
		m.controls = []discordgo.MessageComponent{leave}
	case tttbot.TournamentFinished:
		text += "\n" + l.T("tournament_finished", nil)
	case tttbot.TournamentCancelled:
		text += "\n" + l.T("tournament_cancelled", map[string]any{"Name": st.Name})
	}
	m.content = text
	return m
}

// roundPost is how many boards a post of a round's pairings lists: a big
// round takes several posts, each within Discord's limit on a message's
// text whatever the language.
const roundPost = 20

// renderRound lists a round's boards, roundPost to a post: who has X and
// O, byes and forfeits, and the rule at its deadline.
func (h *Handler) renderRound(l *i18n.Language, st *tttbot.TournamentState) []message {
	lines := []string{l.T("tournament_round", map[string]any{"Name": st.Name, "Round": st.Round, "Rounds": st.Rounds,
		"Deadline": relTime(st.Deadline)})}
	for _, g := range st.Games {
		if g.Round != st.Round {
			continue
		}
		data := map[string]any{"Board": g.Board, "White": mention(l, g.White), "Black": mention(l, g.Black)}
		switch {
		case g.Black == "":
			lines = append(lines, l.T("tournament_bye", map[string]any{"Board": g.Board, "Player": mention(l, g.White)}))
		case g.Result != tttbot.ResultPending:
			lines = append(lines, l.T("tournament_forfeit", data))
		default:
			lines = append(lines, l.T("tournament_pairing", data))
		}
	}
	lines = append(lines, l.T("tournament_deadline_rule", nil))
	var posts []message
	for len(lines) > 0 {
		n := min(len(lines), roundPost+1) // the heading, or the rule, and the boards
		posts = append(posts, message{content: clip(strings.Join(lines[:n], "\n"), maxContent), accent: accent(palette.Neutral)})
		lines = lines[n:]
	}
	return posts
}

// standingsPage is how many places a page of a tournament's table shows:
// within Discord's limit on a message's text whatever the language.
const standingsPage = 20

// renderStandings is page page of the table (the last page past the end):
// the final one, with its podium, once the tournament is over.
func (h *Handler) renderStandings(l *i18n.Language, st *tttbot.TournamentState, page int) message {
	var b strings.Builder
	table := st.Standings()
	pages := max(1, (len(table)+standingsPage-1)/standingsPage)
	page = min(page, pages-1)
	if st.Status == tttbot.TournamentFinished {
		podium := map[string]any{"Name": st.Name}
		for n, key := range []string{"First", "Second", "Third"} {
			var names []string
			for _, p := range table {
				if p.Rank == n+1 {
					names = append(names, mention(l, p.Player))
				}
			}
			podium[key] = strings.Join(names, l.T("cells_separator", nil))
		}
		b.WriteString(l.T("tournament_final", podium))
	} else {
		b.WriteString(l.T("tournament_table", map[string]any{"Name": st.Name, "Round": st.Round}))
	}
	for _, p := range table[page*standingsPage : min(len(table), (page+1)*standingsPage)] {
		b.WriteString("\n" + tournamentLine(l, st, p, mention(l, p.Player)))
	}
	m := message{accent: accent(palette.Neutral)}
	if pages > 1 {
		b.WriteString("\n" + l.T("tournament_page", map[string]any{"Page": page + 1, "Pages": pages}))
		base := "ttt:" + actTournament + ":" + strconv.FormatInt(st.ID, 10) + ":s"
		m.controls = []discordgo.MessageComponent{
			discordgo.Button{Label: l.T("button_previous", nil), Style: discordgo.SecondaryButton, CustomID: base + strconv.Itoa(max(page-1, 0)), Disabled: page == 0},
			discordgo.Button{Label: l.T("button_next", nil), Style: discordgo.SecondaryButton, CustomID: base + strconv.Itoa(min(page+1, pages-1)), Disabled: page == pages-1},
		}
	}
	m.content = clip(b.String(), maxContent)
	return m
}

// tournamentLine is p's line in st's table, naming them player: points
// and tie-breaks in a Swiss or round robin; in a knockout, which has
// neither, the round they are in or went out in, or the final won.
func tournamentLine(l *i18n.Language, st *tttbot.TournamentState, p tttbot.Place, player string) string {
	data := map[string]any{"Rank": p.Rank, "Player": player, "Round": p.Reached, "Rounds": st.Rounds}
	switch {
	case st.Format != tttbot.Knockout:
		data["Points"], data["Buchholz"], data["SB"] = points(p.Points), points(p.Buchholz), points(p.SonnebornBerger)
		return l.T("tournament_line", data)
	case p.Won(st.Rounds):
		return l.T("tournament_line_won", data)
	case p.Out:
		return l.T("tournament_line_out", data)
	}
	return l.T("tournament_line_in", data)
}

// statsTournaments is how many finished tournaments /ttt stats lists.
const statsTournaments = 5

// tournamentPlaces is the line of /ttt stats that lists who's places in
// the last finished tournaments of guildID; "" when there are none, or in
// a DM.
func (h *Handler) tournamentPlaces(ctx context.Context, l *i18n.Language, guildID, who string) string {
	if guildID == "" {
		return ""
	}
	ids, err := h.store.PlayerTournaments(ctx, guildID, who, statsTournaments)
	if err != nil {
		h.logger(ctx).Warn("read player's tournaments", "err", err)
		return ""
	}
	var places []string
	for _, id := range ids {
		st, err := h.play.Tournament(ctx, id)
		if err != nil {
			continue
		}
		table := st.Standings()
		for _, p := range table {
			if p.Player == who {
				places = append(places, l.T("stats_tournament_place", map[string]any{"Name": st.Name, "Rank": p.Rank, "Of": len(table)}))
			}
		}
	}
	if len(places) == 0 {
		return ""
	}
	return l.T("stats_tournaments", map[string]any{"List": strings.Join(places, " · ")})
}

// points writes a score in halves (or quarters) as players read them: 2,
// 1.5, 0.75.
func points(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }
