package tttbot

import (
	"context"
	"time"
)

// GameStore keeps games and their moves. Every method that changes a game
// does it in one transaction that checks the game's state first, so racing
// clicks produce exactly one change and the losers get an *Error (ESTALE,
// ENOTYOURTURN, EFINISHED, ...). Methods return ENOTFOUND for an unknown game.
type GameStore interface {
	// StartGame inserts g (StatusPending for a challenge, StatusActive for
	// a game against the bot) and sets its ID, Version, CreatedAt and
	// UpdatedAt (see Game.Start). In the transaction that inserts g, it
	// reads the Admission of g's challenger in g's guild (zero Settings in
	// a DM; with the game g.Rematch names, ENOTFOUND when there is none)
	// and calls prepare, unless nil, which may refuse the game with
	// an *Error or complete it — its shape, players, deadline — before g is
	// checked, and may return its opening, written with it (see
	// Game.Start). ECONFLICT when the channel already has an open game
	// (unless its guild allows simultaneous games) or a player already has
	// one in the channel (see Settings.Room). players are display names to
	// record in the same transaction.
	StartGame(ctx context.Context, g *Game, prepare func(*Game, Admission) (*MoveRequest, error), players ...Player) error

	// Game returns a game by ID.
	Game(ctx context.Context, id int64) (*Game, error)

	// OpenGame returns user's pending or active game in channel.
	OpenGame(ctx context.Context, channelID, user string) (*Game, error)

	// SetMessage records the board message of a game, writing only when
	// the game holds another: two instances, or a fetch and a click's move,
	// may each learn the same message.
	SetMessage(ctx context.Context, id int64, messageID string) error

	// SetToken records t as the token of game id's latest interaction, unless
	// the game holds one that expires later: a slower answer to an older
	// click never replaces a newer token. It leaves the version alone.
	SetToken(ctx context.Context, id int64, t Token) error

	// Assist marks game id, at version, as played with a hint asked by
	// user (see Game.Assist), leaving the version alone. ESTALE when the
	// game moved on from version.
	Assist(ctx context.Context, id int64, user string, version int) (*Game, error)

	// Accept starts a pending challenge: only its Opponent may accept, and,
	// when the game's guild requires a role, only with it among r.Roles
	// (ErrRoleNeeded). The game gets its X and O players, the first turn
	// and its deadline, which the guild's turn timeout sets when it has one.
	Accept(ctx context.Context, r AcceptRequest) (*Game, error)

	// Decline ends a pending challenge: declined by the Opponent, or
	// cancelled by the Challenger. check runs first, on the game as the
	// transaction reads it.
	Decline(ctx context.Context, id int64, user string, version int, at time.Time, check Check) (*Game, error)

	// Play applies a move and, when it ends the game, the result; then its
	// Answer, if any (see Game.PlayAnswered). The next turn's deadline is
	// the guild's turn timeout when it has one. A store plays it through
	// Settings.Play on the game as its transaction holds it, which first
	// completes a request not completed for that version (see
	// MoveRequest.Prepare): the only check of the mover on a game the
	// caller did not see. seen, unless nil, is the game as the caller read
	// it, at m.Version: a store may check the move against it and write the
	// move only while the game is still at that version, instead of
	// reading it again. The outcome is the one without seen: seen only
	// spares a read of the game when it has not moved on.
	Play(ctx context.Context, m MoveRequest, seen *Game) (*Game, error)

	// Resign ends user's active game as a loss for user; check runs first,
	// as for Decline.
	Resign(ctx context.Context, id int64, user string, at time.Time, check Check) (*Game, error)

	// RoundOver ends active game id at time at, its tournament's round
	// over: the player to move loses on time (see Game.RoundOver).
	RoundOver(ctx context.Context, id int64, at time.Time) (*Game, error)

	// Expire ends a game due at time at (see Game.Due): a pending challenge
	// expires; in an active game the player to move loses on time.
	// EINVALID when it is not due, ESTALE when version moved on.
	Expire(ctx context.Context, id int64, version int, at time.Time) (*Game, error)

	// Due claims and lists up to limit open games due at time at (see
	// Game.Due: DeadlineGrace after their deadline), oldest first (a limit
	// of 0 or less: all of them). A claim
	// lasts until at + ClaimLease or the game's next change, and while it
	// lasts no other call of Due, in this process or another, lists the
	// game: each deadline is handed to one caller, and one that dies
	// holding it loses it within seconds. What the caller then does with
	// the game (Expire, Play) is checked against its version as usual, so
	// that a claim that ran out while its holder was still at work makes
	// one change, not two.
	Due(ctx context.Context, at time.Time, limit int) ([]*Game, error)

	// Moves lists the moves of a game in order.
	Moves(ctx context.Context, id int64) ([]Move, error)

	// GameMoves reads a game and its moves in order at once.
	GameMoves(ctx context.Context, id int64) (*Game, []Move, error)
}

// ClaimLease is how long Due's claim on a game lasts: far longer than
// firing a deadline takes, and short enough that the games claimed by an
// instance that died are fired by another within seconds.
const ClaimLease = 10 * time.Second

// RatingStore reads the ratings, records and history that finished games
// leave behind. The store writes them itself, in the transaction that
// finishes a game: a game between two people updates both players' ratings
// in its guild and globally, exactly once; a game against the bot counts in
// the human's record at that difficulty; a challenge that never became a
// game counts for nothing.
type RatingStore interface {
	// Leaderboard returns up to limit ranked players of scope ("" for the
	// global leaderboard, else a guild ID) and shape, from the offset-th (0 is the
	// best).
	Leaderboard(ctx context.Context, scope string, shape Shape, offset, limit int) (LeaderboardPage, error)

	// Stats returns player's ratings in scope, with their ranks, and their
	// record against the bot. A player who never played gets empty Stats.
	Stats(ctx context.Context, scope, player string) (*Stats, error)

	// History returns player's last finished games in guildID ("" for those
	// played in DMs), newest first.
	History(ctx context.Context, player, guildID string, limit int) ([]HistoryEntry, error)
}

// SettingsStore keeps the settings of guilds.
type SettingsStore interface {
	// Settings returns a guild's settings: zero Settings with its ID
	// until it sets one.
	Settings(ctx context.Context, guildID string) (*Settings, error)

	// UpdateSettings runs change on a guild's settings in one transaction
	// and saves them, if they pass Settings.Validate, with UpdatedAt set.
	// It returns them as saved. change refuses with an *Error.
	UpdateSettings(ctx context.Context, guildID string, change func(*Settings) error) (*Settings, error)

	// ResetRatings deletes a guild's ratings, which empties its
	// leaderboards; the global ones and the games' results stay. It
	// reports how many ratings it deleted. The guild's games finished
	// before the reset no longer count in its ratings.
	ResetRatings(ctx context.Context, guildID string) (int, error)

	// DueDaily claims the daily puzzle posts due at time at (see Daily):
	// each guild's Due moves on, in the claim, to the first of its hours
	// after at, so that of several instances on one database one alone
	// posts it. A post whose process dies before it is sent is lost for
	// the day, never sent twice.
	DueDaily(ctx context.Context, at time.Time) ([]DailyPost, error)

	// DailyPosted records the message that posted puzzle puzzleID, post's
	// day's; a second record of the guild's day is ignored.
	DailyPosted(ctx context.Context, post DailyPost, puzzleID, messageID string) error

	// DailySolved records s, a member's solve of puzzle puzzleID on day,
	// when it is the guild's daily post of that day (false: it is not), a
	// member's first alone, and returns the post's solvers and fastest.
	DailySolved(ctx context.Context, guildID, puzzleID string, day time.Time, s DailySolve) (DailyBoard, bool, error)
}

// PuzzleStore keeps the puzzles, the players' puzzle ratings and their
// attempts.
type PuzzleStore interface {
	// AddPuzzles stores the puzzles whose IDs are not stored yet, at time
	// at, and reports how many were new: a puzzle stored before keeps its
	// rating and game.
	AddPuzzles(ctx context.Context, ps []Puzzle, at time.Time) (int, error)

	// Puzzle returns a puzzle by ID; ErrNoPuzzle for none.
	Puzzle(ctx context.Context, id string) (*Puzzle, error)

	// NextPuzzle returns, of the puzzles of shape (the zero Shape: of any
	// shape) that player has not attempted, the one rated nearest r;
	// ErrNoPuzzle when none is left.
	NextPuzzle(ctx context.Context, player string, shape Shape, r float64) (*Puzzle, error)

	// AttemptPuzzle records attempt a, of player, in one transaction with
	// what it changes (see PuzzleAttempt.Rate): a first attempt at the
	// puzzle moves the player's puzzle standing and the puzzle's rating.
	// It returns the attempt as stored and the player's standing after.
	AttemptPuzzle(ctx context.Context, a PuzzleAttempt, player Player) (PuzzleAttempt, PuzzleStanding, error)

	// PuzzleStanding returns player's puzzle standing with its rank: a
	// zero one, but for the player's ID, for a player who never tried one.
	PuzzleStanding(ctx context.Context, player string) (PuzzleStanding, error)

	// PuzzleLeaderboard returns up to limit ranked players of the puzzle
	// leaderboard from the offset-th (0 is the best); ErrBadPage for a
	// negative offset or a limit under one.
	PuzzleLeaderboard(ctx context.Context, offset, limit int) (PuzzleLeaderboardPage, error)
}

// Store is all the bot keeps: the games and what they leave behind.
type Store interface {
	GameStore
	RatingStore
	PuzzleStore
	TournamentStore
	InteractionStore
	SettingsStore
	ForgetStore
	WebStore
}
