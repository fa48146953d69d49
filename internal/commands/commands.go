// Package commands is the bot's Discord interface: the slash command's
// definition, parsing an interaction's options and custom IDs, calling
// internal/play for every change (and reading the store through Reader),
// and rendering the answer, with every sentence a player reads. It does not
// know how the interaction arrived — over the gateway or the HTTP endpoint;
// the adapters in internal/discord do.
package commands

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/health"
	"github.com/tttbot/tttbot/internal/i18n"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/play"
)

// AI values every move of a position, for reviews and hints.
type AI interface {
	Analyze(ctx context.Context, p game.Position) (ai.Analysis, error)
}

// Reader is what the handler reads of the store; it changes nothing but
// through internal/play. tttbot.Store describes each method.
type Reader interface {
	Games
	Tournaments
	Records
	GuildSettings
	Profiles
	Puzzles
}

// Games reads games and their moves: the boards of clicks, reviews,
// replays and hints.
type Games interface {
	Game(ctx context.Context, id int64) (*tttbot.Game, error)
	OpenGame(ctx context.Context, channelID, user string) (*tttbot.Game, error)
	Moves(ctx context.Context, id int64) ([]tttbot.Move, error)
	GameMoves(ctx context.Context, id int64) (*tttbot.Game, []tttbot.Move, error)
}

// Tournaments lists a player's finished tournaments, for /ttt stats.
type Tournaments interface {
	PlayerTournaments(ctx context.Context, guildID, player string, limit int) ([]int64, error)
}

// Records reads what finished games leave behind: leaderboards, stats and
// histories.
type Records interface {
	Leaderboard(ctx context.Context, scope string, shape tttbot.Shape, offset, limit int) (tttbot.LeaderboardPage, error)
	Stats(ctx context.Context, scope, player string) (*tttbot.Stats, error)
	History(ctx context.Context, player, guildID string, limit int) ([]tttbot.HistoryEntry, error)
}

// GuildSettings reads a guild's settings: its look, and what /ttt-admin
// show lists.
type GuildSettings interface {
	Settings(ctx context.Context, guildID string) (*tttbot.Settings, error)
}

// Messenger reaches Discord outside of an interaction's answer: it edits
// board messages, for the timers (an expired challenge, a turn that ran
// out) and for the games a player's erasure ended, and lists a guild's
// custom emojis, for the marks its admins choose. A game that may use
// channel REST is reached through its channel; any other, through the
// webhook of the token of its latest interaction.
type Messenger interface {
	EditMessage(ctx context.Context, channelID, messageID string, data *discordgo.InteractionResponseData) error
	GuildEmojis(ctx context.Context, guildID string) ([]*discordgo.Emoji, error)
	// EditResponse replaces the message that answered the interaction
	// whose token is given.
	EditResponse(ctx context.Context, token string, data *discordgo.InteractionResponseData) error
	// SendMessage posts a message to a channel — a tournament's rounds,
	// boards and final table — and returns its ID.
	SendMessage(ctx context.Context, channelID string, data *discordgo.InteractionResponseData) (string, error)
}

// Handler answers interactions. It is safe for concurrent use.
type Handler struct {
	play  *play.Service
	store Reader
	ai    AI
	msg   Messenger
	botID string
	defs  map[string]*discordgo.ApplicationCommand // by name, which checkOptions holds commands to
	cat   *i18n.Catalog
	opts  play.Options // p's: the timeouts, the clock and the logger
	log   *slog.Logger
	looks looks
	web   string // the web pages' base URL, without a final "/"; "": no pages
}

// New returns a Handler that makes every change through p, playing as p's
// bot user, and reads store; or the error that kept its message catalogs
// from loading.
func New(p *play.Service, store Reader, engine AI, msg Messenger) (*Handler, error) {
	cat, err := catalog()
	if err != nil {
		return nil, err
	}
	defs := map[string]*discordgo.ApplicationCommand{}
	for _, d := range definitions(cat) {
		defs[d.Name] = d
	}
	opts := p.Options()
	return &Handler{
		play: p, store: store, ai: engine, msg: msg, botID: p.BotID(),
		defs: defs, cat: cat, opts: opts, log: opts.Logger,
	}, nil
}

// Handle answers one interaction. It never panics and always returns a
// response: errors a player caused become an ephemeral explanation.
func (h *Handler) Handle(ctx context.Context, i *discordgo.Interaction) (r interaction.Reply) {
	log := h.log.With("interaction", i.ID, "guild", i.GuildID, "channel", i.ChannelID)
	ctx = context.WithValue(ctx, logKey{}, log)
	l := h.userLang(i)
	defer func() {
		if p := recover(); p != nil {
			log.Error("handler panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			r = ephemeral(l.T("error_internal", nil))
			r.Code = tttbot.EINTERNAL
		}
	}()
	if i.Type == discordgo.InteractionPing {
		return interaction.Reply{Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}}
	}
	// The store's first write for the interaction refuses a replay. No
	// read asks first: under load, one more read for every interaction
	// queued on the readers and cost the answers their tail latency, and
	// a replay gains nothing from its wasted work. A move or an answer to
	// a challenge counts from when Discord made the interaction, and one
	// older than its token is refused.
	in, err := tttbot.NewInteraction(i.ID, h.opts.Now())
	if err == nil {
		if i.Message != nil {
			in.Click = tttbot.BoardClick{Message: i.Message.ID, Token: h.token(i)}
		}
		ctx = tttbot.WithInteraction(ctx, in)
	}
	switch {
	case err != nil:
	case i.Type == discordgo.InteractionApplicationCommand:
		r, err = h.command(ctx, i)
	case i.Type == discordgo.InteractionMessageComponent:
		r, err = h.click(ctx, i)
	default:
		err = refuse(tttbot.EINVALID, "error_unknown_interaction", nil)
	}
	switch code := tttbot.ErrorCode(err); code {
	case "":
	case tttbot.EREPLAY:
		return refuseReplay(l)
	default:
		if code == tttbot.EINTERNAL {
			log.Log(ctx, health.Level(err), "interaction failed", "err", err)
		} else {
			log.Debug("interaction refused", "code", code, "err", err)
		}
		// A refusal may still bring a board up to date.
		e := ephemeral(errorText(l, err))
		e.Code, e.Edit = code, r.Edit
		r = e
	}
	return h.remember(ctx, l, in, r)
}

// remember records an interaction whose reply is followed by REST calls
// (a board's refresh, a follow-up, fetching a new board's message) before
// they run, when none of its transactions has: its replay must not run
// them again.
func (h *Handler) remember(ctx context.Context, l *i18n.Language, in *tttbot.Interaction, r interaction.Reply) interaction.Reply {
	if in == nil || in.Recorded() || (!r.FetchBoard && r.Followup == nil && r.Edit == nil) {
		return r
	}
	switch err := h.play.Remember(ctx); tttbot.ErrorCode(err) {
	case "":
	case tttbot.EREPLAY:
		return refuseReplay(l)
	default:
		h.logger(ctx).Log(ctx, health.Level(err), "remember interaction", "err", err)
		r.TrackGame, r.FetchBoard, r.Followup, r.Edit = 0, false, nil, nil
	}
	return r
}

// TrackMessage records the board message of a game once the adapter knows
// its ID.
func (h *Handler) TrackMessage(ctx context.Context, gameID int64, messageID string) {
	if err := h.play.SetMessage(ctx, gameID, messageID); err != nil {
		h.logger(ctx).Log(ctx, health.Level(err), "track board message", "game", gameID, "err", err)
	}
}

// logKey is the context key of the logger of the interaction a call serves.
type logKey struct{}

// logger is the logger of the interaction ctx serves, which names the
// interaction, its guild and channel; outside of one (the timers, the
// adapters' calls), the handler's.
func (h *Handler) logger(ctx context.Context) *slog.Logger {
	if log, ok := ctx.Value(logKey{}).(*slog.Logger); ok {
		return log
	}
	return h.log
}

// user is whoever sent the interaction, in a guild or a DM.
func user(i *discordgo.Interaction) *discordgo.User {
	if i.Member != nil && i.Member.User != nil {
		return i.Member.User
	}
	if i.User != nil {
		return i.User
	}
	return &discordgo.User{}
}

func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// roles are the roles of the member who sent the interaction; none in a DM.
func roles(i *discordgo.Interaction) []string {
	if i.Member == nil {
		return nil
	}
	return i.Member.Roles
}
