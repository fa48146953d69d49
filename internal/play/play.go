// Package play is the application layer of the bot: it drives a game's life
// — challenges, answers to them, moves with the bot's answer, rematches,
// resignations and deadlines — through the store, the AI and the clock, and
// makes every other change the bot stores: a guild's settings, a player's
// erasure, where a game's board is, the interactions remembered against
// replays. Its timers fire the deadlines that come due. It returns domain
// values and knows nothing of Discord; internal/commands parses
// interactions into its calls and renders what it returns, and what the
// timers did through Boards.
package play

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/health"
)

// AI picks the bot's moves.
type AI interface {
	Move(ctx context.Context, p game.Position, level ai.Level, rng *rand.Rand) (ai.Choice, error)
}

// Store keeps what the bot stores; tttbot.Store describes each method.
type Store interface {
	StartGame(ctx context.Context, g *tttbot.Game, prepare func(*tttbot.Game, tttbot.Admission) (*tttbot.MoveRequest, error), players ...tttbot.Player) error
	Game(ctx context.Context, id int64) (*tttbot.Game, error)
	OpenGame(ctx context.Context, channelID, user string) (*tttbot.Game, error)
	Accept(ctx context.Context, r tttbot.AcceptRequest) (*tttbot.Game, error)
	Decline(ctx context.Context, id int64, user string, version int, at time.Time, check tttbot.Check) (*tttbot.Game, error)
	Play(ctx context.Context, m tttbot.MoveRequest, seen *tttbot.Game) (*tttbot.Game, error)
	Resign(ctx context.Context, id int64, user string, at time.Time, check tttbot.Check) (*tttbot.Game, error)
	RoundOver(ctx context.Context, id int64, at time.Time) (*tttbot.Game, error)
	Assist(ctx context.Context, id int64, user string, version int) (*tttbot.Game, error)
	Expire(ctx context.Context, id int64, version int, at time.Time) (*tttbot.Game, error)
	Due(ctx context.Context, at time.Time, limit int) ([]*tttbot.Game, error)
	SetMessage(ctx context.Context, id int64, messageID string) error
	SetToken(ctx context.Context, id int64, t tttbot.Token) error
	Settings(ctx context.Context, guildID string) (*tttbot.Settings, error)
	UpdateSettings(ctx context.Context, guildID string, change func(*tttbot.Settings) error) (*tttbot.Settings, error)
	ResetRatings(ctx context.Context, guildID string) (int, error)
	DueDaily(ctx context.Context, at time.Time) ([]tttbot.DailyPost, error)
	DailyPosted(ctx context.Context, post tttbot.DailyPost, puzzleID, messageID string) error
	DailySolved(ctx context.Context, guildID, puzzleID string, day time.Time, s tttbot.DailySolve) (tttbot.DailyBoard, bool, error)
	ForgetPlayer(ctx context.Context, user string, at time.Time) (*tttbot.Erasure, error)
	SetPublic(ctx context.Context, p tttbot.Player, public bool, at time.Time) error
	Remember(ctx context.Context) error
	PruneInteractions(ctx context.Context, before time.Time, limit int) (int, error)
	Moves(ctx context.Context, id int64) ([]tttbot.Move, error)
	AddPuzzles(ctx context.Context, ps []tttbot.Puzzle, at time.Time) (int, error)
	AttemptPuzzle(ctx context.Context, a tttbot.PuzzleAttempt, player tttbot.Player) (tttbot.PuzzleAttempt, tttbot.PuzzleStanding, error)
	tttbot.TournamentStore
}

// The refusals of this package, each with the code a caller acts on;
// internal/commands words them for players.
var (
	ErrNotYourGame = &tttbot.Error{Code: tttbot.ENOTYOURS, Message: "only the game's human players may move"}
	ErrNotInGame   = &tttbot.Error{Code: tttbot.ENOTYOURS, Message: "only the game's players may ask for a rematch"}
	ErrNotOver     = &tttbot.Error{Code: tttbot.EINVALID, Message: "the game is not over"}
	ErrNoOpenGame  = &tttbot.Error{Code: tttbot.ENOTFOUND, Message: "no open game of the player in the channel"}
	ErrBadFirst    = &tttbot.Error{Code: tttbot.EINVALID, Message: "who moves first is me, them or random"}
	ErrForgotten   = &tttbot.Error{Code: tttbot.EINVALID, Message: "the other player asked to be forgotten"}
)

// Options tune a Service. Zero values get the defaults.
type Options struct {
	ChallengeTimeout time.Duration    // default 2m
	TurnTimeout      time.Duration    // default 5m
	Now              func() time.Time // default time.Now
	Seed             uint64           // 0: a random seed; else games are reproducible
	Logger           *slog.Logger
}

// Service plays games as the bot user botID. It is safe for concurrent use.
type Service struct {
	store Store
	ai    AI
	botID string
	opts  Options
	log   *slog.Logger

	randMu sync.Mutex
	rand   *rand.Rand

	recent          recent            // active games as last stored, for moves
	finished        chan *tttbot.Game // games to mine for puzzles (see RunMiner)
	tournamentGames chan int64        // finished games for RunTournaments
}

// New returns a Service playing as the bot user botID.
func New(store Store, engine AI, botID string, opts Options) *Service {
	if opts.ChallengeTimeout <= 0 {
		opts.ChallengeTimeout = 2 * time.Minute
	}
	if opts.TurnTimeout <= 0 {
		opts.TurnTimeout = 5 * time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Seed == 0 {
		opts.Seed = rand.Uint64()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{
		store: store, ai: engine, botID: botID, opts: opts, log: opts.Logger,
		rand:     rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15)),
		recent:   recent{games: make(map[int64]tttbot.Game)},
		finished: make(chan *tttbot.Game, mineQueue), tournamentGames: make(chan int64, tournamentQueue),
	}
}

// Options returns s's options, defaults included.
func (s *Service) Options() Options { return s.opts }

// BotID is the user ID the service plays as.
func (s *Service) BotID() string { return s.botID }

// newRand hands each use its own generator, drawn from the service's seeded
// one, so concurrent games never share (or race on) a random source.
func (s *Service) newRand() *rand.Rand {
	s.randMu.Lock()
	defer s.randMu.Unlock()
	return rand.New(rand.NewPCG(s.rand.Uint64(), s.rand.Uint64()))
}

// Result is a game after a change, and the move its board shows as the last
// one played: nil when the change made none, or none worth naming.
type Result struct {
	Game *tttbot.Game
	Last *tttbot.Move
}

// First says who moves first in a challenge.
type First = tttbot.First

const (
	FirstMe     = tttbot.FirstMe     // the challenger
	FirstThem   = tttbot.FirstThem   // the opponent
	FirstRandom = tttbot.FirstRandom // either, by a coin toss
)

// Place is where a request is made and how the bot reaches the board of
// the game it starts afterwards: see tttbot.Game's Webhook, Guest and Token.
type Place struct {
	GuildID, ChannelID string
	Webhook, Guest     bool
	Token              tttbot.Token // the request's interaction, whose response is the board
}

// set gives g the place p.
func (p Place) set(g *tttbot.Game) {
	g.GuildID, g.ChannelID = p.GuildID, p.ChannelID
	g.Webhook, g.Guest, g.Token = p.Webhook, p.Guest, p.Token
}

// Challenge is a request for a game. Options left zero — the board, who
// moves first, the bot's level — take the guild's defaults, else 3×3 with
// its own win length, a coin toss, and perfect.
type Challenge struct {
	Place
	Challenger    string
	Roles         []string // the challenger's, for a guild that requires one
	Opponent      string   // "" or the bot's user ID: a game against the bot, which starts at once
	Rows, Cols, K int
	First         First
	Level         ai.Level        // the bot's, in a game against it
	Players       []tttbot.Player // display names to record with the game
	Language      string          // the locale code its messages in the channel speak
}

// Challenge creates a pending challenge between people or, against the
// bot, an active game, with the bot's first move made when it has it. The
// guild's settings, read in the transaction that creates the game, may
// refuse it (a channel, a role, a cooldown) and fill in what it leaves out.
func (s *Service) Challenge(ctx context.Context, c Challenge) (Result, error) {
	if c.First != "" && !c.First.Valid() {
		return Result{}, ErrBadFirst
	}
	opponent := c.Opponent
	if opponent == "" {
		opponent = s.botID
	}
	g := &tttbot.Game{Challenger: c.Challenger, Opponent: opponent, Language: c.Language}
	c.Place.set(g)
	return s.start(ctx, g, c.Roles, func(g *tttbot.Game, adm tttbot.Admission) error {
		st := &adm.Settings
		rows, cols, k := c.Rows, c.Cols, c.K
		if rows == 0 && cols == 0 {
			sh := st.Defaults.Shape(0, k)
			rows, cols, k = sh.Rows, sh.Cols, sh.K
		} else if k == 0 {
			k = st.Defaults.Shape(max(rows, cols), 0).K
		}
		g.Rows, g.Cols, g.K = rows, cols, k
		first := cmp.Or(c.First, st.Defaults.First, FirstRandom)
		x := c.Challenger
		switch first {
		case FirstThem:
			x = opponent
		case FirstRandom:
			if s.newRand().IntN(2) == 1 {
				x = opponent
			}
		}
		g.XPlayer, g.OPlayer = x, c.Challenger
		if x == c.Challenger {
			g.OPlayer = opponent
		}
		if opponent == s.botID {
			g.BotLevel = string(cmp.Or(c.Level, ai.Level(st.Defaults.Level), ai.Perfect))
		}
		return nil
	}, c.Players...)
}

// start creates game g: complete fills it in from what the store read in
// its transaction, or refuses it, and then the guild's rules decide
// whether the challenger, a member with roles, may start it. It is a
// pending challenge that expires unanswered or, against the bot, an active
// game, with the bot's first move made in the same transaction when it
// plays X, or after it when the AI failed there.
func (s *Service) start(ctx context.Context, g *tttbot.Game, roles []string, complete func(*tttbot.Game, tttbot.Admission) error, players ...tttbot.Player) (Result, error) {
	var opening *tttbot.MoveRequest // as last chosen: the one stored with the game
	err := s.store.StartGame(ctx, g, func(g *tttbot.Game, adm tttbot.Admission) (*tttbot.MoveRequest, error) {
		if err := complete(g, adm); err != nil {
			return nil, err
		}
		st := &adm.Settings
		now := s.opts.Now()
		if err := st.MayStart(g.ChannelID, roles, adm.LastStart, now); err != nil {
			return nil, err
		}
		if g.VsBot() {
			g.Status, g.Turn = tttbot.StatusActive, g.XPlayer
			g.Deadline = s.deadlineFor(g, g.XPlayer, now)
		} else {
			g.Status = tttbot.StatusPending
			g.Deadline = now.Add(g.Wait(s.opts.ChallengeTimeout))
		}
		st.Retime(g, now)
		opening = nil
		if g.VsBot() && g.XPlayer == s.botID {
			// The store's transaction runs to its end whatever becomes
			// of ctx: so does the AI, within its budget.
			opening = s.opening(context.WithoutCancel(ctx), g, now)
		}
		return opening, nil
	}, players...)
	if err != nil {
		return Result{}, err
	}
	if g.Status != tttbot.StatusActive || g.Turn != s.botID {
		s.recent.put(g)
		r := Result{Game: g}
		if opening != nil {
			r.Last = &tttbot.Move{GameID: g.ID, Cell: opening.Cell, Player: opening.Player, At: opening.At}
		}
		return r, nil
	}
	r, err := s.botMove(ctx, g)
	if err != nil {
		// The game exists with the bot to move; the timers retry the move.
		s.log.Log(ctx, health.Level(err), "bot move", "game", g.ID, "err", err)
		return Result{Game: g}, nil
	}
	s.recent.put(r.Game)
	return r, nil
}

// opening is the bot's first move on new game g at time at, or nil when
// the AI fails: the bot then moves once the game is stored.
func (s *Service) opening(ctx context.Context, g *tttbot.Game, at time.Time) *tttbot.MoveRequest {
	geo, err := game.NewGeometry(g.Rows, g.Cols, g.K)
	if err != nil {
		return nil // the store refuses the shape
	}
	m, err := s.botRequest(ctx, g, game.NewPosition(geo), 1, at)
	if err != nil {
		s.log.Log(ctx, health.Level(err), "bot opening", "channel", g.ChannelID, "challenger", g.Challenger, "err", err)
		return nil
	}
	return &m
}

// botGrace is how long the call that played the human's move has to play
// the bot's answer before the timers take it over.
const botGrace = 10 * time.Second

// deadlineFor is the deadline of user's turn starting at now, within what
// g's place allows. The bot's own turn is due almost at once: if the
// process dies before the bot moves, the timers find the game and make the
// move after the restart.
func (s *Service) deadlineFor(g *tttbot.Game, user string, now time.Time) time.Time {
	if g.VsBot() && user == s.botID {
		return now.Add(botGrace)
	}
	return now.Add(g.Wait(cmp.Or(g.TurnTimeout, s.opts.TurnTimeout)))
}

// Accept starts challenge id, seen at version, as its opponent user, a
// member with roles. Nothing is read before: what the click needs of the
// challenge never changes, and the store's transaction reads it, then runs
// check on it first.
func (s *Service) Accept(ctx context.Context, id int64, user string, roles []string, version int, check tttbot.Check) (*tttbot.Game, error) {
	g, err := s.store.Accept(ctx, tttbot.AcceptRequest{
		GameID: id, Player: user, Version: version, At: s.madeAt(ctx), Roles: roles, Click: clicked(ctx),
		Prepare: func(r *tttbot.AcceptRequest, g *tttbot.Game) error {
			if err := check.On(g); err != nil {
				return err
			}
			r.XPlayer, r.Deadline = g.XPlayer, r.At.Add(g.Wait(s.opts.TurnTimeout))
			return nil
		},
	})
	s.recent.settle(id, g, err)
	return g, err
}

// madeAt is when the player made the request ctx serves: when Discord
// made its interaction (see tttbot.Interaction.At), else now. A move and
// an answer to a challenge are made then, so that a click made before its
// deadline is in time however long the database holds it.
func (s *Service) madeAt(ctx context.Context) time.Time {
	if in := tttbot.InteractionFrom(ctx); in != nil && !in.At.IsZero() {
		return in.At
	}
	return s.opts.Now()
}

// clicked is what the click ctx serves tells of its board, if anything.
func clicked(ctx context.Context) tttbot.BoardClick {
	if in := tttbot.InteractionFrom(ctx); in != nil {
		return in.Click
	}
	return tttbot.BoardClick{}
}

// Decline ends challenge id, seen at version: declined by its opponent,
// withdrawn by its challenger user. check runs as for Accept.
func (s *Service) Decline(ctx context.Context, id int64, user string, version int, check tttbot.Check) (*tttbot.Game, error) {
	g, err := s.store.Decline(ctx, id, user, version, s.opts.Now(), check)
	s.recent.settle(id, g, err)
	return g, err
}

// A MoveClick is a click on a cell of a game's board.
type MoveClick struct {
	GameID        int64
	User          string
	Cell, Version int // the cell, on the board of the game's Version
	// Seen is the game as Remembered, or nil: the move's
	// transaction then reads it, and nothing is read before.
	Seen *tttbot.Game
	// Check is the caller's own refusal of the click on the game, as the
	// move's transaction reads it.
	Check tttbot.Check
}

// Move plays c's move and, against the bot, the bot's answer, so that both
// are stored in one transaction and shown in one board update. The move is
// completed for the game as seen (its deadline, the bot's answer) when the
// click is on that version, else in the move's transaction for the game as
// it reads it: no read comes before.
func (s *Service) Move(ctx context.Context, c MoveClick) (Result, error) {
	var answer *tttbot.MoveRequest // as last chosen: the one stored with the move
	m := tttbot.MoveRequest{GameID: c.GameID, Player: c.User, Cell: c.Cell, Version: c.Version, At: s.madeAt(ctx), Click: clicked(ctx)}
	// The answer may be chosen in the store's transaction, which runs to
	// its end whatever becomes of ctx: so does the AI, within its budget.
	aiCtx := context.WithoutCancel(ctx)
	m.Prepare = func(m *tttbot.MoveRequest, g *tttbot.Game) error {
		if err := c.Check.On(g); err != nil {
			return err
		}
		if !g.HasPlayer(c.User) || (g.VsBot() && c.User == s.botID) {
			return ErrNotYourGame
		}
		m.Deadline = s.deadlineFor(g, g.Other(c.User), m.At)
		m.Answer = nil
		if g.VsBot() {
			m.Answer = s.botAnswer(aiCtx, g, *m)
		}
		answer = m.Answer
		return nil
	}
	if g := c.Seen; g != nil {
		// Who may move never changes: refused before any transaction.
		if err := m.Prepare(&m, g); err != nil {
			return Result{}, err
		}
		m.Prepared = g.Version
	}
	g, err := s.store.Play(ctx, m, c.Seen)
	if err != nil {
		s.recent.settle(m.GameID, nil, err)
		return Result{}, err
	}
	r := Result{Game: g, Last: &tttbot.Move{GameID: g.ID, Cell: c.Cell, Player: c.User, At: m.At}}
	switch {
	case answer != nil && g.Version == c.Version+2:
		r.Last = &tttbot.Move{GameID: g.ID, Cell: answer.Cell, Player: answer.Player, At: answer.At}
	case g.Status == tttbot.StatusActive && g.VsBot() && g.Turn == s.botID:
		// No answer was chosen (or it was refused): play it now.
		answered, err := s.botMove(ctx, g)
		switch {
		case tttbot.ErrorCode(err) == tttbot.ESTALE:
			// The timers played the answer first: show the game as it is.
			if cur, err := s.store.Game(ctx, g.ID); err == nil {
				r = Result{Game: cur}
			}
		case err != nil:
			// The human's move stands; the timers retry the bot's answer.
			s.log.Log(ctx, health.Level(err), "bot move", "game", g.ID, "err", err)
		default:
			r = answered
		}
	}
	s.recent.put(r.Game)
	s.gameOver(r.Game)
	return r, nil
}

// botAnswer chooses the bot's answer to the human's move m on the board m
// would make, or returns nil when the store is going to refuse m or m ends
// the game: Play then says why, or finishes it.
func (s *Service) botAnswer(ctx context.Context, g *tttbot.Game, m tttbot.MoveRequest) *tttbot.MoveRequest {
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
	a, err := s.botRequest(ctx, g, next, m.Version+1, m.At)
	if err != nil {
		s.log.Log(ctx, health.Level(err), "bot move", "game", g.ID, "err", err)
		return nil
	}
	return &a
}

// botRequest asks the AI for the bot's move on pos, the board of g at
// version, as a move made at time at.
func (s *Service) botRequest(ctx context.Context, g *tttbot.Game, pos game.Position, version int, at time.Time) (tttbot.MoveRequest, error) {
	choice, err := s.ai.Move(ctx, pos, ai.Level(g.BotLevel), s.newRand())
	if err != nil {
		return tttbot.MoveRequest{}, fmt.Errorf("ai move: %w", err)
	}
	s.log.Debug("bot move", "game", g.ID, "cell", choice.Cell, "proven", choice.Proven, "nodes", choice.Nodes, "elapsed", choice.Elapsed)
	return tttbot.MoveRequest{
		GameID: g.ID, Player: s.botID, Cell: choice.Cell, Version: version, At: at,
		Deadline: s.deadlineFor(g, g.Other(s.botID), at),
	}, nil
}

// botMove asks the AI for the bot's move in g and plays it.
func (s *Service) botMove(ctx context.Context, g *tttbot.Game) (Result, error) {
	if g.Status != tttbot.StatusActive || !g.VsBot() || g.Turn != s.botID {
		return Result{}, fmt.Errorf("game %d: not the bot's turn", g.ID)
	}
	pos, err := g.Position()
	if err != nil {
		return Result{}, err
	}
	m, err := s.botRequest(ctx, g, pos, g.Version, s.opts.Now())
	if err != nil {
		return Result{}, err
	}
	next, err := s.store.Play(ctx, m, g)
	if err != nil {
		return Result{}, fmt.Errorf("play bot move: %w", err)
	}
	return Result{Game: next, Last: &tttbot.Move{GameID: g.ID, Cell: m.Cell, Player: m.Player, At: m.At}}, nil
}

// Rematch starts finished game id again with sides swapped, asked by
// user, a member with roles, at where: at once against the bot, as a new
// challenge between people. The ended game is read in the transaction
// that creates the new one, where check refuses first. The guild's rules
// apply as to a challenge.
func (s *Service) Rematch(ctx context.Context, id int64, user string, roles []string, where Place, check tttbot.Check) (Result, error) {
	g := &tttbot.Game{Challenger: user, Rematch: id}
	where.set(g)
	return s.start(ctx, g, roles, func(g *tttbot.Game, adm tttbot.Admission) error {
		old := adm.Rematched
		if old == nil {
			return tttbot.ErrNotFound // id 0, which no store reads
		}
		if err := check.On(old); err != nil {
			return err
		}
		if !old.HasPlayer(user) {
			return ErrNotInGame
		}
		if old.Status != tttbot.StatusFinished {
			return ErrNotOver
		}
		if tttbot.Forgotten(old.Other(user)) {
			return ErrForgotten
		}
		g.Rows, g.Cols, g.K = old.Rows, old.Cols, old.K
		g.Opponent, g.BotLevel, g.Language = old.Other(user), old.BotLevel, old.Language
		g.XPlayer, g.OPlayer = old.OPlayer, old.XPlayer
		return nil
	})
}

// Resign ends user's open game in channelID: a pending challenge is
// withdrawn (or declined), an active game lost.
func (s *Service) Resign(ctx context.Context, channelID, user string) (*tttbot.Game, error) {
	g, err := s.store.OpenGame(ctx, channelID, user)
	if tttbot.ErrorCode(err) == tttbot.ENOTFOUND {
		return nil, ErrNoOpenGame
	} else if err != nil {
		return nil, err
	}
	if g.Status == tttbot.StatusPending {
		return s.store.Decline(ctx, g.ID, user, g.Version, s.opts.Now(), nil)
	}
	g, err = s.store.Resign(ctx, g.ID, user, s.opts.Now(), nil)
	s.recent.put(g)
	s.gameOver(g)
	return g, err
}

// ResignGame ends active game id as a loss for user, who clicked Resign
// on its board. check runs as for Accept.
func (s *Service) ResignGame(ctx context.Context, id int64, user string, check tttbot.Check) (*tttbot.Game, error) {
	g, err := s.store.Resign(ctx, id, user, s.opts.Now(), check)
	s.recent.settle(id, g, err)
	s.gameOver(g)
	return g, err
}

// Assist marks game id, as user saw it at version, as played with a hint
// (see tttbot.Game.Assist): it counts in no record against the bot.
func (s *Service) Assist(ctx context.Context, id int64, user string, version int) (*tttbot.Game, error) {
	g, err := s.store.Assist(ctx, id, user, version)
	s.recent.put(g)
	return g, err
}

// Due lists up to limit open games whose deadline has come, oldest first.
func (s *Service) Due(ctx context.Context, limit int) ([]*tttbot.Game, error) {
	return s.store.Due(ctx, s.opts.Now(), limit)
}

// Fire acts on g, found due: it makes the bot's move interrupted by a
// restart, or expires a challenge or a turn that ran out. Its Result has
// no Game when a player got there first and g moved on.
func (s *Service) Fire(ctx context.Context, g *tttbot.Game) (Result, error) {
	var r Result
	var err error
	if g.Status == tttbot.StatusActive && g.VsBot() && g.Turn == s.botID {
		// The bot's move was interrupted: make it now.
		r, err = s.botMove(ctx, g)
	} else {
		r.Game, err = s.store.Expire(ctx, g.ID, g.Version, s.opts.Now())
	}
	switch tttbot.ErrorCode(err) {
	case "":
		s.recent.put(r.Game)
		s.gameOver(r.Game)
		return r, nil
	case tttbot.ESTALE, tttbot.EFINISHED, tttbot.ENOTYOURTURN:
		return Result{}, nil
	}
	return Result{}, err
}
