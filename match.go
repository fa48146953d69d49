package tttbot

import (
	"context"
	"time"
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

	XPlayer, OPlayer string // set when the game starts

	Status   Status
	Board    string    // the position in game notation, e.g. "XO./.X./..O"
	Turn     string    // the user to move while active, else ""
	Version  int       // bumped by every change; clicks carry it to detect stale boards
	Deadline time.Time // challenge expiry or turn timeout; zero when none runs

	Winner string // user ID; "" for a draw or an unfinished game
	Reason Reason // set when finished

	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt time.Time // zero until the game ends
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
	ID   string
	Name string
}

// MoveRequest is a click on a cell: who, where, and which board version the
// click was made against. Deadline is the next player's turn deadline.
type MoveRequest struct {
	GameID   int64
	Player   string
	Cell     int
	Version  int
	At       time.Time
	Deadline time.Time

	// Reply, when set, is the answer to this move (the bot's), chosen in
	// advance against the version this move makes. It is played in the
	// same transaction when the game goes on with Reply.Player to move; if
	// it is refused, this move stands alone.
	Reply *MoveRequest
}

// GameStore keeps games and their moves. Every method that changes a game
// does it in one transaction that checks the game's state first, so racing
// clicks produce exactly one change and the losers get an *Error (ESTALE,
// ENOTYOURTURN, EFINISHED, ...). Methods return ENOTFOUND for an unknown game.
type GameStore interface {
	// CreateGame inserts g (StatusPending for a challenge, StatusActive for a
	// game against the bot) and sets its ID, Version, CreatedAt and UpdatedAt.
	// ECONFLICT when the channel already has an open game (unless its guild
	// allows simultaneous games) or a player already has one in the channel.
	// players are display names to record in the same transaction.
	CreateGame(ctx context.Context, g *Game, players ...Player) error

	// Game returns a game by ID.
	Game(ctx context.Context, id int64) (*Game, error)

	// OpenGame returns user's pending or active game in channel.
	OpenGame(ctx context.Context, channelID, user string) (*Game, error)

	// SetMessage records the board message of a game.
	SetMessage(ctx context.Context, id int64, messageID string) error

	// Accept starts a pending challenge: only its Opponent may accept. The
	// game gets its X and O players, the first turn and its deadline.
	Accept(ctx context.Context, id int64, user string, version int, xPlayer string, at, deadline time.Time) (*Game, error)

	// Decline ends a pending challenge: declined by the Opponent, or
	// cancelled by the Challenger.
	Decline(ctx context.Context, id int64, user string, version int, at time.Time) (*Game, error)

	// Play applies a move and, when it ends the game, the result; then its
	// Reply, if any.
	Play(ctx context.Context, m MoveRequest) (*Game, error)

	// Resign ends user's active game as a loss for user.
	Resign(ctx context.Context, id int64, user string, at time.Time) (*Game, error)

	// Expire ends a game whose deadline has passed at time at: a pending
	// challenge expires; in an active game the player to move loses on time.
	// EINVALID when the deadline has not passed, ESTALE when version moved on.
	Expire(ctx context.Context, id int64, version int, at time.Time) (*Game, error)

	// Due lists open games whose deadline is at or before at, oldest first.
	Due(ctx context.Context, at time.Time, limit int) ([]*Game, error)

	// Moves lists the moves of a game in order.
	Moves(ctx context.Context, id int64) ([]Move, error)

	// SetSimultaneousGames sets whether a guild allows more than one open
	// game per channel (the store's default applies until it is set).
	SetSimultaneousGames(ctx context.Context, guildID string, allow bool) error
}
