package tttbot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"
)

// WebIDLen is the length of a web page's opaque ID: 16 lowercase hex
// digits, 64 random bits, which nobody guesses and which tell nothing of
// the Discord ID behind them.
const WebIDLen = 16

// ValidWebID reports whether s has the form of a web page's opaque ID.
func ValidWebID(s string) bool {
	if len(s) != WebIDLen {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Profile is what the web pages know of a player: the name and avatar
// Discord showed at their last game, the opaque ID of their profile's
// address, and whether they made the profile public. ID, their Discord
// ID, is for the stores' lookups: no page shows it.
type Profile struct {
	ID     string
	WebID  string
	Name   string
	Avatar string // the Discord avatar hash; "": Discord's default avatar
	Public bool
}

// WebStore is what the web pages read, besides the ratings, and the
// opt-ins they obey.
type WebStore interface {
	// WebGuild returns the guild whose page has the opaque ID webID:
	// ENOTFOUND unless its admins turned the page on (Settings.Web).
	WebGuild(ctx context.Context, webID string) (*Settings, error)

	// Profile returns the player whose profile has the opaque ID webID:
	// ENOTFOUND for no such player, as for one who was forgotten.
	Profile(ctx context.Context, webID string) (*Profile, error)

	// Profiles returns the players of ids the store knows, by ID.
	Profiles(ctx context.Context, ids []string) (map[string]Profile, error)

	// SetPublic records p's name and avatar, adding the player if new,
	// and makes their profile public or not.
	SetPublic(ctx context.Context, p Player, public bool, at time.Time) error

	// Trends returns, for each of players, their ratings in scope
	// ("" global, else a guild) and shape after each of their last limit
	// rated games there, oldest first.
	Trends(ctx context.Context, scope string, shape Shape, players []string, limit int) (map[string][]RatingPoint, error)

	// RecentGames returns player's last finished games, newest first: in
	// guildID, or everywhere when guildID is "".
	RecentGames(ctx context.Context, player, guildID string, limit int) ([]HistoryEntry, error)
}

// NewWebID returns a new random opaque ID for a web page's address.
func NewWebID() string {
	var b [WebIDLen / 2]byte
	rand.Read(b[:]) // never fails: see crypto/rand.Read
	return hex.EncodeToString(b[:])
}

// OnWeb reports whether game g may be shown on the web: only once
// finished (a challenge that never became a game, or an open game, never
// is), and only in a guild whose page is on (guild, the settings of g's
// guild, nil in a DM) or with a player whose profile is public (profiles,
// by ID).
func (g *Game) OnWeb(guild *Settings, profiles map[string]Profile) bool {
	if g.Status != StatusFinished {
		return false
	}
	if g.GuildID != "" && guild != nil && guild.GuildID == g.GuildID && guild.Web != "" {
		return true
	}
	return profiles[g.Challenger].Public || profiles[g.Opponent].Public
}
