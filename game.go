// Package tttbot is the domain of the bot: games and their moves, players,
// board shapes, outcomes and ratings, the errors a player can cause, and the
// interfaces of the store that keeps them. It imports nothing of the project
// but the rules of a position in internal/game.
package tttbot

import (
	"fmt"
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
