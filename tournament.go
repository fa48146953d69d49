package tttbot

import (
	"context"
	"time"
)

// TournamentFormat is how a tournament pairs its rounds (see
// internal/tournament).
type TournamentFormat string

const (
	Swiss      TournamentFormat = "swiss"
	RoundRobin TournamentFormat = "roundrobin"
	Knockout   TournamentFormat = "knockout"
)

// TournamentStatus is where a tournament stands.
type TournamentStatus string

const (
	TournamentSignup    TournamentStatus = "signup"
	TournamentRunning   TournamentStatus = "running"
	TournamentFinished  TournamentStatus = "finished"
	TournamentCancelled TournamentStatus = "cancelled"
)

// MaxRoundRobin is the largest round robin: 15 rounds of 8 boards.
const MaxRoundRobin = 16

// Tournament is a guild's event, run by the bot from sign-up to final table.
type Tournament struct {
	ID                 int64
	GuildID, ChannelID string
	Organiser          string
	MessageID          string // the announcement, once sent
	Name               string
	Format             TournamentFormat
	Shape              Shape
	Rounds             int           // a Swiss's rounds; set at the start for the others
	RoundTime          time.Duration // how long a round lasts at most
	MoveTimeout        time.Duration // each game's turn timeout
	Unrated            bool          // the organiser's choice: the games change no rating
	Status             TournamentStatus
	Round              int       // the current round, 0 while signing up
	Deadline           time.Time // the sign-up's end, then the round's; zero once over
	Version            int       // grows with every change of the tournament
	// WebID is the opaque ID of the tournament's web page (NewWebID),
	// which the store gives it at creation; the page shows only while its
	// guild's pages are on (Settings.Web).
	WebID                string
	CreatedAt, UpdatedAt time.Time
}

// Entrant is a tournament's player.
type Entrant struct {
	Player    string
	Rating    float64 // at sign-up, for the seeding
	JoinedAt  time.Time
	Withdrawn bool // left or removed after the start: forfeits the rest
}

// TournamentResult is a tournament game's outcome.
type TournamentResult string

const (
	ResultPending  TournamentResult = "pending"
	ResultWhite    TournamentResult = "white" // also a bye, and a forfeit by Black
	ResultBlack    TournamentResult = "black"
	ResultDraw     TournamentResult = "draw"
	ResultBothLose TournamentResult = "both_lose"
)

// TournamentGame is one board of a round: White moves first (X); Black is
// "" for a bye.
type TournamentGame struct {
	Round, Board int // from 1
	White, Black string
	Result       TournamentResult
	GameID       int64 // the game played, once created; 0 for a bye
}

// TournamentState is a tournament with its entrants, in the order they
// joined, and its games, by round and board.
type TournamentState struct {
	Tournament
	Entrants []Entrant
	Games    []TournamentGame
}

// The refusals of a tournament's rules.
var (
	ErrNoTournament    = &Error{Code: ENOTFOUND, Message: "no such tournament"}
	ErrSignupClosed    = &Error{Code: EFINISHED, Message: "the tournament's sign-up is closed"}
	ErrAlreadyEntered  = &Error{Code: ECONFLICT, Message: "the player has entered the tournament already"}
	ErrNotEntered      = &Error{Code: ENOTFOUND, Message: "the player is not in the tournament"}
	ErrTournamentMoved = &Error{Code: ESTALE, Message: "the tournament changed meanwhile"}
	ErrGameDecided     = &Error{Code: ESTALE, Message: "the tournament game is decided or linked already"}
)

// TournamentStore keeps tournaments. Each method runs in one transaction.
type TournamentStore interface {
	// CreateTournament inserts t, setting its ID, Version (1), CreatedAt
	// and UpdatedAt, and its WebID when it has none.
	CreateTournament(ctx context.Context, t *Tournament) error

	// Tournament returns a tournament with its entrants and games;
	// ErrNoTournament for none.
	Tournament(ctx context.Context, id int64) (*TournamentState, error)

	// Enter adds e to tournament id while it signs up: ErrSignupClosed
	// after, ErrAlreadyEntered for a second time.
	Enter(ctx context.Context, id int64, e Entrant) error

	// Leave takes player out of tournament id: off the list while it signs
	// up, withdrawn once it runs; ErrNotEntered when not in it (or
	// withdrawn already), ErrSignupClosed once it is over.
	Leave(ctx context.Context, id int64, player string) error

	// Advance saves t (status, round, rounds, deadline, message) with the
	// games of a new round, if any, unless the tournament changed since it
	// was read at t.Version: ErrTournamentMoved then, and nothing is
	// written. So of several instances advancing a tournament at once,
	// exactly one starts each round. It sets t.Version and UpdatedAt, and
	// claims the tournament for ClaimLease, as DueTournaments does, so that
	// no other instance starts the round's games while this one does.
	Advance(ctx context.Context, t *Tournament, games []TournamentGame) error

	// LinkGame records game as the game of a board; ErrGameDecided when
	// the board has a game or a result already.
	LinkGame(ctx context.Context, id int64, round, board int, game int64) error

	// Decide records a board's result; ErrGameDecided when it has one.
	Decide(ctx context.Context, id int64, round, board int, r TournamentResult) error

	// PlayerTournaments lists the IDs of up to limit finished tournaments
	// of guildID that player entered, newest first.
	PlayerTournaments(ctx context.Context, guildID, player string, limit int) ([]int64, error)

	// WebTournament returns the tournament whose web page has the opaque
	// ID webID, with its entrants and games; ErrNoTournament for none.
	WebTournament(ctx context.Context, webID string) (*TournamentState, error)

	// TournamentOfGame returns the tournament whose board game is, 0 for
	// none.
	TournamentOfGame(ctx context.Context, game int64) (int64, error)

	// DueTournaments claims and lists up to limit tournaments signing up or
	// running whose deadline is at or before at, or running with a board of
	// the current round whose game has not started, oldest deadline first. A
	// claim lasts until at + ClaimLease; Advance claims the tournament anew
	// for the instance that advanced it, which starts the round's games.
	DueTournaments(ctx context.Context, at time.Time, limit int) ([]*Tournament, error)
}
