// Package tttbot is the domain of the bot: games and their moves, players,
// board shapes, outcomes and ratings, the errors a player can cause, and the
// interfaces of the store that keeps them. It imports nothing of the project
// but the rules of a position in internal/game and Glicko-2 in
// internal/rating.
package tttbot

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tttbot/tttbot/internal/game"
)

// Status is where a game is in its life.
type Status string

const (
	StatusPending   Status = "pending"   // a challenge waiting for an answer
	StatusActive    Status = "active"    // being played
	StatusFinished  Status = "finished"  // won, drawn, resigned or timed out
	StatusDeclined  Status = "declined"  // the challenged player said no
	StatusExpired   Status = "expired"   // the challenge was not answered in time
	StatusCancelled Status = "cancelled" // the challenger withdrew
)

// Open reports whether the game still takes part in the one-game-per-channel
// and one-game-per-player rules.
func (s Status) Open() bool { return s == StatusPending || s == StatusActive }

// Reason says how a finished game ended.
type Reason string

const (
	ReasonLine    Reason = "line"    // a player completed K in a row
	ReasonDraw    Reason = "draw"    // the board filled with no line
	ReasonResign  Reason = "resign"  // a player resigned
	ReasonTimeout Reason = "timeout" // a player did not move in time
)

// Game is a challenge and the match that follows it. Players are Discord user
// IDs; the bot itself plays under its own user ID, with BotLevel set.
type Game struct {
	ID        int64
	GuildID   string // "" in a DM
	ChannelID string
	MessageID string // the board message, once known

	Rows, Cols, K int

	Challenger string
	Opponent   string
	BotLevel   string // the bot's difficulty when it is a player, else ""
	// Language is the locale code of the language the game's messages in
	// its channel speak, chosen when it is created, so that edits without
	// an interaction (timers) keep it; "" for games older than the choice.
	Language string

	XPlayer, OPlayer string // set when the game starts

	Status   Status
	Board    string    // the position in game notation, e.g. "XO./.X./..O"
	Turn     string    // the user to move while active, else ""
	Version  int       // bumped by every change; clicks carry it to detect stale boards
	Deadline time.Time // challenge expiry or turn timeout; zero when none runs

	Winner string // user ID; "" for a draw or an unfinished game
	Reason Reason // set when finished

	// Webhook is set where the bot may not use channel REST — a DM, a
	// group DM, a server it is not installed in or a channel it cannot
	// see: every later edit goes through the webhook of Token, the latest
	// interaction that showed the board.
	Webhook bool
	// Guest is set in a server that has not installed the bot, where a
	// player's own install of it brought the game: it counts on no
	// leaderboard of that server.
	Guest bool
	// Token is the latest interaction whose response is the board: the one
	// that posted it, and when Webhook the latest click's since. Until it
	// expires, an edit of the board needs no MessageID (see TokenCovers).
	Token Token
	// Assisted is set once the human asked for a hint in a game against
	// the bot (Assist): the game counts in no record (InBotRecord).
	Assisted bool
	// TurnTimeout, when set, is the game's own time for each turn — a
	// tournament's move timeout —, kept over its guild's (see
	// Settings.Retime). Whole seconds.
	TurnTimeout time.Duration
	// Unrated is set on the games of a tournament its organiser made
	// unrated: they change no rating (see Scopes).
	Unrated bool
	// InTournament is set by a tournament creating the game for a board of
	// its round: the game shares its channel with the round's other games
	// (see Settings.Room). It matters only when the game is created, and is
	// not stored: see OfTournament.
	InTournament bool
	// Rematch, on a game being created, is the ended game it plays again:
	// the store reads it in the transaction that creates the game, for
	// prepare (see Admission.Rematched). It is not stored: Start clears
	// it.
	Rematch int64

	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt time.Time // zero until the game ends
}

// TokenLife is how long Discord honours an interaction's token for the
// webhook calls that follow its response.
const TokenLife = 15 * time.Minute

// MaxWebhookWait is the longest a deadline of a Webhook game may run: the
// token that shows its board when it fires is at most this old, leaving a
// minute of the token's life for the timers to notice it and edit the board.
const MaxWebhookWait = TokenLife - time.Minute

// Token is an interaction's token and when Discord stops honouring it.
// It is a credential: it is never logged.
type Token struct {
	Value   string
	Expires time.Time
}

// OfTournament reports whether g is a board of a tournament's round: only
// a tournament gives a game a turn timeout of its own (its MoveTimeout,
// never zero), which is stored with it.
func (g *Game) OfTournament() bool { return g.InTournament || g.TurnTimeout != 0 }

// TokenCovers reports whether g's token will still be honoured when its
// deadline fires, with the minute to spare that MaxWebhookWait leaves the
// timers: until then its board can be edited without its MessageID.
func (g *Game) TokenCovers() bool {
	return g.Token.Value != "" && !g.Deadline.IsZero() && !g.Deadline.After(g.Token.Expires.Add(MaxWebhookWait-TokenLife))
}

// BoardClick is what a click tells of the board it was made on.
type BoardClick struct {
	Message string // the board's message
	Token   Token  // the click's, whose response is the board
}

// clicked records what click c on g's board tells: the board's message
// when g has none yet (a board is one message for its game's life), and
// the click's token when g is reached through a webhook and g's does not
// outlive it (as GameStore.SetToken).
func (g *Game) clicked(c BoardClick) {
	if g.MessageID == "" {
		g.MessageID = c.Message
	}
	if g.Webhook && c.Token.Value != "" && c.Token.Supersedes(g.Token) {
		g.Token = c.Token
	}
}

// Supersedes reports whether t takes the place of old as a game's token:
// a game keeps its token until one that expires no sooner comes (see
// GameStore.SetToken).
func (t Token) Supersedes(old Token) bool { return !t.Expires.Before(old.Expires) }

// Valid reports whether t can still be used at time at.
func (t Token) Valid(at time.Time) bool { return t.Value != "" && at.Before(t.Expires) }

// ErrBadToken refuses a token to record that lacks a value or an expiry.
var ErrBadToken = &Error{Code: EINVALID, Message: "a token needs a value and an expiry"}

// Check refuses, with ErrBadToken, a token a store cannot record.
func (t Token) Check() error {
	if t.Value == "" || t.Expires.IsZero() {
		return ErrBadToken
	}
	return nil
}

// Wait is how long a deadline of g may run from now, given timeout: no
// longer than MaxWebhookWait in a Webhook game.
func (g *Game) Wait(timeout time.Duration) time.Duration {
	if g.Webhook {
		return min(timeout, MaxWebhookWait)
	}
	return timeout
}

// Scopes are the rating scopes a game between people counts in: the
// global one (""), and its server's unless it has none or is a Guest;
// none when it is Unrated or BothLost.
func (g *Game) Scopes() []string {
	switch {
	case g.Unrated || g.BothLost():
		return nil
	case g.GuildID == "" || g.Guest:
		return []string{""}
	}
	return []string{"", g.GuildID}
}

// VsBot reports whether one of the players is the bot.
func (g *Game) VsBot() bool { return g.BotLevel != "" }

// HasPlayer reports whether user plays in g.
func (g *Game) HasPlayer(user string) bool { return user == g.Challenger || user == g.Opponent }

// Other returns the other player of g.
func (g *Game) Other(user string) string {
	if user == g.Challenger {
		return g.Opponent
	}
	return g.Challenger
}

// Move is one ply of a game, in order from 1.
type Move struct {
	GameID int64
	Ply    int
	Cell   int
	Player string
	At     time.Time
}

// Player is a Discord user as last seen by the bot.
type Player struct {
	ID     string
	Name   string
	Avatar string // the Discord avatar hash; "": the default avatar
}

// MoveRequest is a click on a cell: who, where, and which board version the
// click was made against. Deadline is the next player's turn deadline as
// counted from At; Settings.Play counts it from when the move is stored
// instead, when that is later.
type MoveRequest struct {
	GameID   int64
	Player   string
	Cell     int
	Version  int
	At       time.Time
	Deadline time.Time
	// Click is what the click tells of its board, when known: see
	// Game.MessageID and Game.Token.
	Click BoardClick

	// Answer, when set, is the move that answers this one (the bot's),
	// chosen in advance against the version this move makes: see
	// Game.PlayAnswered.
	Answer *MoveRequest

	// Prepare, when set, completes the request for game g, on which it is
	// about to be played: it may refuse the move, and sets Deadline and
	// Answer. Settings.Play calls it unless the request was completed for
	// g's version already (Prepared), so that a caller that saw no game,
	// or an older version of it, needs no read before the move: the
	// store's transaction reads the game and the request is completed
	// for it there.
	Prepare func(m *MoveRequest, g *Game) error
	// Prepared is the version of the game Deadline and Answer were
	// chosen for; 0: none.
	Prepared int
}

// A Check is a caller's own refusal of a change to a game, made on the
// game as the store's transaction reads it, before the store's own: say, of
// a click from another channel. A nil Check refuses nothing.
type Check func(*Game) error

// On runs c on g.
func (c Check) On(g *Game) error {
	if c == nil {
		return nil
	}
	return c(g)
}

// AcceptRequest is a click on Accept: who, against which version of the
// challenge, and the game it starts — XPlayer moving first until Deadline.
type AcceptRequest struct {
	GameID   int64
	Player   string
	Version  int
	XPlayer  string
	At       time.Time
	Deadline time.Time
	// Roles are the accepting member's roles, for a guild that requires
	// one to play.
	Roles []string
	// Click is what the click on the challenge, which becomes the board,
	// tells of it, when known.
	Click BoardClick

	// Prepare, when set, completes the request for challenge g in the
	// store's transaction, before any check of its own: it may refuse it,
	// and sets XPlayer and Deadline, so that the caller needs no read of
	// the game before.
	Prepare func(r *AcceptRequest, g *Game) error
}

// Position reads g's stored board.
func (g *Game) Position() (game.Position, error) {
	geo, err := game.NewGeometry(g.Rows, g.Cols, g.K)
	if err != nil {
		return game.Position{}, fmt.Errorf("game %d geometry: %w", g.ID, err)
	}
	pos, err := game.ParseIn(geo, g.Board)
	if err != nil {
		return game.Position{}, fmt.Errorf("game %d board: %w", g.ID, err)
	}
	return pos, nil
}

// Create checks a game about to be stored — a pending challenge, or an
// active game against the bot — and sets its empty board and, when active,
// its first turn.
func (g *Game) Create() error {
	if err := g.Shape().Validate(); err != nil {
		return err
	}
	empty := game.NewPosition(game.MustGeometry(g.Rows, g.Cols, g.K)).String()
	switch {
	case g.ChannelID == "" || g.Challenger == "" || g.Opponent == "":
		return Errorf(EINVALID, "a new game needs a channel and two players")
	case g.Challenger == g.Opponent:
		return ErrSelfChallenge
	case g.Board != "" && g.Board != empty:
		return Errorf(EINVALID, "a new game starts from the empty board")
	case g.ID != 0 || g.Winner != "" || g.Reason != "" || !g.FinishedAt.IsZero():
		return Errorf(EINVALID, "a new game has no ID or result yet")
	}
	switch g.Status {
	case StatusPending:
		// X and O may be planned (the challenger's "first" option); Accept
		// settles them and starts the clock.
		if g.Turn != "" || (g.XPlayer != "" || g.OPlayer != "") && (!g.HasPlayer(g.XPlayer) || g.OPlayer != g.Other(g.XPlayer)) {
			return Errorf(EINVALID, "a challenge has no turn yet, and its planned X and O are its two players")
		}
	case StatusActive:
		if !g.HasPlayer(g.XPlayer) || g.OPlayer != g.Other(g.XPlayer) || (g.Turn != "" && g.Turn != g.XPlayer) {
			return Errorf(EINVALID, "X and O must be the two players, and X moves first")
		}
		g.Turn = g.XPlayer
	default:
		return Errorf(EINVALID, "a new game is pending or active, not %s", g.Status)
	}
	g.Board = empty
	return nil
}

// Start makes g a new game to store at time at: prepare, unless nil,
// refuses it or completes it as the guild's rules decide from adm, then
// Create checks it, and it becomes version 1, created at. prepare may also
// return the game's opening, a move on the empty board (the bot's first):
// it is then made as any move is (see Settings.Play), the game is version
// 2, and Start returns the moves to store with it. An opening cannot end
// the game. The game's Rematch, read into adm, is cleared.
func (g *Game) Start(adm Admission, prepare func(*Game, Admission) (opening *MoveRequest, err error), at time.Time) ([]Move, error) {
	var opening *MoveRequest
	if prepare != nil {
		var err error
		if opening, err = prepare(g, adm); err != nil {
			return nil, err
		}
	}
	if err := g.Create(); err != nil {
		return nil, err
	}
	g.Rematch = 0 // read with adm: the game is stored without it
	g.Version = 1
	g.CreatedAt, g.UpdatedAt = at, at
	if opening == nil {
		return nil, nil
	}
	var moves []Move
	finished, err := g.Change(at, func(g *Game) (err error) {
		moves, err = adm.Settings.Play(g, *opening, at)
		return err
	})
	if err == nil && finished {
		// A store writes no results with a new game.
		return nil, Errorf(EINVALID, "an opening cannot end the game")
	}
	return moves, err
}

// Accept starts pending challenge g as r asks: only its Opponent may
// accept, and only before the challenge expires.
func (g *Game) Accept(r AcceptRequest) error {
	switch {
	case r.Player != g.Opponent:
		return ErrNotForYou
	case g.Status != StatusPending:
		return ErrClosed
	case g.Version != r.Version:
		return ErrStale
	case !g.Deadline.IsZero() && !r.At.Before(g.Deadline):
		return ErrExpired
	case !g.HasPlayer(r.XPlayer):
		return ErrBadX
	}
	g.Status = StatusActive
	g.XPlayer, g.OPlayer = r.XPlayer, g.Other(r.XPlayer)
	g.Turn = r.XPlayer
	g.Deadline = r.Deadline
	return nil
}

// Decline ends pending challenge g at time at, made against version:
// declined by its Opponent, withdrawn by its Challenger.
func (g *Game) Decline(user string, version int, at time.Time) error {
	switch {
	case !g.HasPlayer(user):
		return ErrNotForYou
	case g.Status != StatusPending:
		return ErrClosed
	case g.Version != version:
		return ErrStale
	}
	if user == g.Opponent {
		g.close(StatusDeclined, at)
	} else {
		g.close(StatusCancelled, at)
	}
	return nil
}

// Play makes move m at time at, which m.Version must have seen, and returns
// it as stored. A player's move made at or after the turn's deadline is
// refused (ErrTimeUp); the bot's is not (see BotToMove). A move that ends
// the game finishes it with its result; otherwise the other player's turn
// runs until m.Deadline.
func (g *Game) Play(m MoveRequest, at time.Time) (Move, error) {
	switch {
	case !g.HasPlayer(m.Player):
		return Move{}, ErrNotAPlayer
	case g.Status == StatusPending:
		return Move{}, ErrNotStarted
	case g.Status != StatusActive:
		return Move{}, ErrGameOver
	case g.Turn != m.Player:
		return Move{}, ErrNotYourTurn
	case g.Version != m.Version:
		return Move{}, ErrStale
	case !g.BotToMove() && !g.Deadline.IsZero() && !at.Before(g.Deadline):
		// at is when the player clicked, by Discord's clock (see
		// Interaction.At): a click made in time is played however long the
		// database held it.
		return Move{}, ErrTimeUp
	}
	pos, err := g.Position()
	if err != nil {
		return Move{}, err
	}
	if (pos.ToMove() == game.X) != (g.Turn == g.XPlayer) {
		return Move{}, fmt.Errorf("game %d: turn of %s does not match board %s", g.ID, g.Turn, g.Board)
	}
	next, err := pos.Play(m.Cell)
	switch {
	case errors.Is(err, game.ErrOutOfRange):
		return Move{}, ErrOffBoard
	case errors.Is(err, game.ErrCellTaken):
		return Move{}, ErrCellTaken
	case errors.Is(err, game.ErrGameOver):
		return Move{}, ErrGameOver
	case err != nil:
		return Move{}, fmt.Errorf("game %d: %w", g.ID, err)
	}
	g.Board = next.String()
	res := next.Result()
	switch {
	case res.Winner == game.X:
		g.finish(g.XPlayer, ReasonLine, at)
	case res.Winner == game.O:
		g.finish(g.OPlayer, ReasonLine, at)
	case res.Over:
		g.finish("", ReasonDraw, at)
	default:
		g.Turn = g.Other(m.Player)
		g.Deadline = m.Deadline
	}
	return Move{GameID: g.ID, Ply: next.Ply(), Cell: m.Cell, Player: m.Player, At: at}, nil
}

// PlayAnswered makes move m at m.At and then, when the game goes on with
// m.Answer's player to move, m.Answer at its own time, and returns the moves
// made. A refused Answer changes nothing: m stands alone, and the answer
// is left to be played later. g.Version counts the Answer, not m: the
// store bumps it once more for the change as a whole.
func (g *Game) PlayAnswered(m MoveRequest) ([]Move, error) {
	mv, err := g.Play(m, m.At)
	if err != nil {
		return nil, err
	}
	a := m.Answer
	if a == nil || g.Status != StatusActive || g.Turn != a.Player {
		return []Move{mv}, nil
	}
	next := *g
	next.Version++
	av, err := next.Play(*a, a.At)
	switch {
	case err == nil:
		*g = next
		return []Move{mv, av}, nil
	case ErrorCode(err) == EINTERNAL:
		return nil, fmt.Errorf("answer: %w", err)
	}
	return []Move{mv}, nil
}

// Resign ends user's active game g at time at as a loss for user.
func (g *Game) Resign(user string, at time.Time) error {
	switch {
	case !g.HasPlayer(user):
		return ErrNotAPlayer
	case g.Status == StatusPending:
		return ErrNotStarted
	case g.Status != StatusActive:
		return ErrGameOver
	}
	g.finish(g.Other(user), ReasonResign, at)
	return nil
}

// RoundOver ends g, an active game of a tournament whose round ran out at
// time at: the player to move loses on time, whatever their turn's own
// deadline; when no move was made at all, both were absent and both lose
// on time (BothLost), as the tournament counts it (AtRoundDeadline).
func (g *Game) RoundOver(at time.Time) error {
	if g.Status != StatusActive {
		return ErrGameOver
	}
	if g.Unplayed() {
		g.finish("", ReasonTimeout, at)
		return nil
	}
	g.finish(g.Other(g.Turn), ReasonTimeout, at)
	return nil
}

// Unplayed reports whether no mark is on g's board yet.
func (g *Game) Unplayed() bool { return !strings.ContainsAny(g.Board, "XO") }

// BothLost reports whether finished g was lost by both players: a
// tournament game whose round ran out before either moved (RoundOver). It
// has no winner, like a draw, but each player's Outcome is a Loss, and it
// is rated in no scope: no one played.
func (g *Game) BothLost() bool {
	return g.Status == StatusFinished && g.Reason == ReasonTimeout && g.Winner == ""
}

// DeadlineGrace is how long after a deadline a game becomes due: a click
// made before the deadline may still be on its way to the database for so
// long — an interaction's work runs for up to 15 s (internal/discord's
// DefaultWorkLimit), a write it starts for up to 10 s more (the stores'
// write timeout), and the rest is margin for Discord's gateway and clock. Clicks made after
// the deadline are refused (ErrTimeUp, ErrExpired), so the grace gives no
// one more time to think.
const DeadlineGrace = 30 * time.Second

// DueBy is the latest deadline that is due at time at: the stores' Due
// queries select by it.
func DueBy(at time.Time) time.Time { return at.Add(-DeadlineGrace) }

// Due reports whether g's deadline has come at time at, DeadlineGrace
// after the deadline itself.
func (g *Game) Due(at time.Time) bool {
	return !g.Deadline.IsZero() && !g.Deadline.After(DueBy(at))
}

// BotToMove reports whether it is the bot's turn in g. The bot plays as
// the Opponent, and its turn's deadline is no time to think: it marks a
// move the timers make when the call that should have made it failed.
func (g *Game) BotToMove() bool { return g.VsBot() && g.Status == StatusActive && g.Turn == g.Opponent }

// Expire ends g, seen at version, once its deadline is due at time at (see Due):
// a pending challenge expires; in an active game the player to move loses
// on time.
func (g *Game) Expire(version int, at time.Time) error {
	switch {
	case !g.Status.Open():
		return ErrGameOver
	case g.Version != version:
		return ErrStale
	case !g.Due(at):
		return ErrNotDue
	}
	if g.Status == StatusPending {
		g.close(StatusExpired, at)
	} else {
		g.finish(g.Other(g.Turn), ReasonTimeout, at)
	}
	return nil
}

// finish ends an active game.
func (g *Game) finish(winner string, reason Reason, at time.Time) {
	g.Status = StatusFinished
	g.Winner = winner
	g.Reason = reason
	g.FinishedAt = at
	g.Turn = ""
	g.Deadline = time.Time{}
}

// close ends a challenge that never became a game.
func (g *Game) close(s Status, at time.Time) {
	g.Status = s
	g.FinishedAt = at
	g.Deadline = time.Time{}
}
