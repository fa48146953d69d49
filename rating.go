package tttbot

import "time"

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
	switch g.Winner {
	case "":
		return Draw
	case player:
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
}

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
