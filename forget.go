package tttbot

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ForgottenPrefix starts every placeholder of a forgotten player. Discord
// IDs are digits, so no user has such an ID.
const ForgottenPrefix = "forgotten:"

// ForgottenID is the placeholder that takes the place of a forgotten
// player in game id, as its challenger or its opponent. It is one per game
// and side, so that nothing ties a forgotten player's games together, and
// the two players of one game, both forgotten, stay two.
func ForgottenID(gameID int64, challenger bool) string {
	side := ":o"
	if challenger {
		side = ":c"
	}
	return ForgottenPrefix + strconv.FormatInt(gameID, 10) + side
}

// Forget replaces user, a player of g, by their placeholder in g
// (ForgottenID) wherever g names them, and returns the placeholder.
func (g *Game) Forget(user string) string {
	p := ForgottenID(g.ID, g.Challenger == user)
	for _, f := range []*string{&g.Challenger, &g.Opponent, &g.XPlayer, &g.OPlayer, &g.Turn, &g.Winner} {
		if *f == user {
			*f = p
		}
	}
	return p
}

// Leave ends user's open game g at time at, as an erasure does before it
// forgets them: a challenge is withdrawn or declined, a game resigned.
func (g *Game) Leave(user string, at time.Time) error {
	if g.Status == StatusPending {
		return g.Decline(user, g.Version, at)
	}
	return g.Resign(user, at)
}

// ErrNoPlayer refuses to forget no one: an empty ID, or a placeholder.
var ErrNoPlayer = &Error{Code: EINVALID, Message: "no player to forget"}

// CheckForget refuses, with ErrNoPlayer, to forget user when user is no
// player.
func CheckForget(user string) error {
	if user == "" || Forgotten(user) {
		return ErrNoPlayer
	}
	return nil
}

// RatingScopes are the scopes a player of games may have ratings in: the
// global one and the guild of each game. A rating comes from a game, and a
// guild's reset deletes ratings, never games, so these hold every rating
// of the player's.
func RatingScopes(games []*Game) []string {
	scopes := []string{""}
	for _, g := range games {
		if g.GuildID != "" && !slices.Contains(scopes, g.GuildID) {
			scopes = append(scopes, g.GuildID)
		}
	}
	return scopes
}

// Forgotten reports whether id is the placeholder of a forgotten player.
func Forgotten(id string) bool { return strings.HasPrefix(id, ForgottenPrefix) }

// Erasure is what the store erased of a player who asked to be forgotten.
type Erasure struct {
	Player  string
	Named   bool // a display name was kept
	Ratings int  // ratings deleted, one per scope and board shape
	Records int  // records against the bot deleted, one per difficulty
	Games   int  // games whose player is now a placeholder
	// Closed are the open games ended first, as they ended: challenges
	// withdrawn or declined, games resigned.
	Closed []*Game
}

// ForgetStore erases players.
type ForgetStore interface {
	// ForgetPlayer erases user at time at, in one transaction: it ends
	// their open games as they would (withdraws or declines a challenge,
	// resigns a game, with the results and ratings that follow), replaces
	// their ID in every stored game, move and result by a ForgottenID, so
	// that their opponents' games still replay, and deletes their name,
	// ratings and records against the bot. A user the store never saw
	// gets an empty Erasure.
	ForgetPlayer(ctx context.Context, user string, at time.Time) (*Erasure, error)
}
