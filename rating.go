package tttbot

import (
	"time"

	"github.com/tttbot/tttbot/internal/rating"
)

// MinRatedGames is how many rated games a player needs in a scope and shape
// before the leaderboard lists them: a handful of games is not yet a rating.
const MinRatedGames = 5

// Outcome is a finished game's result for one player.
type Outcome string

const (
	Win  Outcome = "win"
	Loss Outcome = "loss"
	Draw Outcome = "draw"
)

// Outcome returns g's result for player.
func (g *Game) Outcome(player string) Outcome {
	switch {
	case g.BothLost():
		return Loss
	case g.Winner == "":
		return Draw
	case g.Winner == player:
		return Win
	}
	return Loss
}

// Standing is a player's Glicko-2 rating and record in one scope (a guild's
// ID, or "" for the global leaderboard) and shape. Games against the bot do not
// count: they are unrated.
type Standing struct {
	Player string
	Name   string // the player's last display name seen, "" if unknown
	Shape  Shape

	// Rank is the 1-based place on the leaderboard, ordered by the
	// conservative rating R − 2·RD, ties to the higher player ID; 0 until the
	// player has MinRatedGames games.
	Rank      int
	R, RD     float64 // rating and deviation on the Glicko scale
	Sigma     float64 // volatility
	Games     int
	Wins      int
	Losses    int
	Draws     int
	Streak    int // > 0: wins in a row; < 0: losses in a row; 0 after a draw
	Best      int // the longest run of wins
	UpdatedAt time.Time
}

// Conservative is the rating leaderboards rank by: the player is at least
// this good with about 95% confidence.
func (s Standing) Conservative() float64 { return s.R - 2*s.RD }

// LeaderboardPage is a slice of a leaderboard, best first.
type LeaderboardPage struct {
	Standings []Standing
	Total     int // ranked players on the whole leaderboard
}

// The refusals of a read of the ratings.
var (
	ErrBadPage    = &Error{Code: EINVALID, Message: "a leaderboard page starts at 0 and holds at least one player"}
	ErrBadHistory = &Error{Code: EINVALID, Message: "a history lists at least one game"}
)

// CheckPage refuses a leaderboard page of shape that starts at offset and
// holds up to limit players, when no store can read one: a shape no game
// can have, or ErrBadPage.
func CheckPage(shape Shape, offset, limit int) error {
	if err := shape.Validate(); err != nil {
		return err
	}
	if offset < 0 || limit <= 0 {
		return ErrBadPage
	}
	return nil
}

// CheckHistory refuses, with ErrBadHistory, a history of fewer than one
// game.
func CheckHistory(limit int) error {
	if limit <= 0 {
		return ErrBadHistory
	}
	return nil
}

// BotRecord is a player's record against the bot at one difficulty.
type BotRecord struct {
	Level               string
	Wins, Losses, Draws int
}

// Stats is a player's record in one scope.
type Stats struct {
	Player  string
	Ratings []Standing  // one per shape played in the scope, most games first
	VsBot   []BotRecord // everywhere, one per difficulty played
	// History is, for each of Ratings' shapes in the same order, the
	// ratings the player's last RatingHistoryLimit rated games there left,
	// oldest first. A shape last rated before the stores kept the history
	// has none.
	History []RatingHistory
}

// RatingHistoryLimit is how many ratings of one shape Stats returns: a
// chart of more would not show them apart.
const RatingHistoryLimit = 500

// HistoryEntry is one finished game from a player's side.
type HistoryEntry struct {
	GameID     int64
	Shape      Shape
	Opponent   string
	BotLevel   string // the bot's difficulty when the opponent was the bot
	Outcome    Outcome
	Reason     Reason
	FinishedAt time.Time
}

// Count adds a game with outcome o to s's record and streaks.
func (s *Standing) Count(o Outcome) {
	s.Games++
	switch o {
	case Win:
		s.Wins++
		s.Streak = max(s.Streak, 0) + 1
		s.Best = max(s.Best, s.Streak)
	case Loss:
		s.Losses++
		s.Streak = min(s.Streak, 0) - 1
	default:
		s.Draws++
		s.Streak = 0
	}
}

// RatingPeriod is how long a player can go without a rated game before
// their deviation grows as for a rating period without games: a week, so
// that a year away takes an established 1500 ± 50 back to about ± 90.
const RatingPeriod = 7 * 24 * time.Hour

// Rate counts finished game g, between two people, in its players'
// standings in one scope and g's shape: before are their standings as
// stored, g.Challenger's first, g.Opponent's second; a player's zero
// Standing is none yet, which starts from the default rating. It returns
// both after the game, stamped at g's end. Each game is a rating period of
// its own, and so is each RatingPeriod without one: a player back from a
// break is less certain, and moves faster.
func (g *Game) Rate(before [2]Standing) [2]Standing {
	players := [2]string{g.Challenger, g.Opponent}
	var rs [2]rating.Rating
	for i, s := range before {
		if s == (Standing{}) {
			rs[i] = rating.Default()
			continue
		}
		rs[i] = rating.Rating{R: s.R, RD: s.RD, Sigma: s.Sigma}.Idle(int(g.FinishedAt.Sub(s.UpdatedAt) / RatingPeriod))
	}
	score := rating.Draw
	switch g.Outcome(players[0]) {
	case Win:
		score = rating.Win
	case Loss:
		score = rating.Loss
	}
	rs[0], rs[1] = rating.UpdatePair(rs[0], rs[1], score, rating.DefaultTau)
	var after [2]Standing
	for i, s := range before {
		s.Player, s.Shape, s.UpdatedAt = players[i], g.Shape(), g.FinishedAt
		s.R, s.RD, s.Sigma = rs[i].R, rs[i].RD, rs[i].Sigma
		s.Count(g.Outcome(players[i]))
		after[i] = s
	}
	return after
}

// InBotRecord reports whether finished game g counts in its human's record
// against the bot: a game against the bot played without a hint.
func (g *Game) InBotRecord() bool { return g.VsBot() && !g.Assisted }

// BotRecord is finished game g, against the bot, counted for its human,
// the challenger: a record of the one game at the bot's level.
func (g *Game) BotRecord() (player string, r BotRecord) {
	r.Level = g.BotLevel
	switch g.Outcome(g.Challenger) {
	case Win:
		r.Wins = 1
	case Loss:
		r.Losses = 1
	default:
		r.Draws = 1
	}
	return g.Challenger, r
}

// RatingPoint is a player's rating in a scope and shape just after one of
// their rated games.
type RatingPoint struct {
	At    time.Time
	R, RD float64 // rating and deviation on the Glicko scale
}

// RatingHistory is a player's ratings in one scope and shape, oldest first.
type RatingHistory struct {
	Shape  Shape
	Points []RatingPoint
}
