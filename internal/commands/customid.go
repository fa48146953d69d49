package commands

import (
	"fmt"
	"strconv"
	"strings"
)

// The actions of a game's buttons, the second field of a custom_id. They
// are exported, with CustomID and ParseCustomID, for programs that drive the
// bot as players would (cmd/loadtest).
const (
	ActMove    = "m" // ttt:m:GAME:VERSION:CELL
	ActAccept  = "a" // ttt:a:GAME:VERSION
	ActDecline = "d" // ttt:d:GAME:VERSION
	ActRematch = "r" // ttt:r:GAME
	ActResign  = "s" // ttt:s:GAME
)

// The actions of the other buttons.
const (
	actReview      = "v"  // ttt:v:GAME — opens a game's review in a message of its own
	actReviewPage  = "vp" // ttt:vp:GAME:PAGE — turns a review's page
	actReplay      = "h"  // ttt:h:GAME — opens a game's replay in a message of its own
	actReplayStep  = "hp" // ttt:hp:GAME:PLY:SLOT — shows a replay after PLY moves
	actPictures    = "p"  // ttt:p:GAME — shows a game in pictures, in a message of its own
	actLeaderboard = "l"  // ttt:l:SCOPE:ROWS:COLS:K:PAGE — a leaderboard page (see leaderboardID)
)

// CustomID is what a button click on a game needs to know, carried in the
// button's custom_id (at most 100 characters, unique within a message). The
// version is the one the board showed, so a click on an outdated board is
// refused.
type CustomID struct {
	Action  string
	GameID  int64
	Version int
	Cell    int
	Page    int // a review's page, or the ply a replay shows
	Slot    int // tells apart the replay buttons that lead to the same ply
}

// fields lists what follows the game ID in each action's custom_id.
func fields(action string) ([]string, bool) {
	switch action {
	case ActMove:
		return []string{"version", "cell"}, true
	case ActAccept, ActDecline:
		return []string{"version"}, true
	case ActRematch, ActResign, actReview, actReplay, actPictures:
		return nil, true
	case actReviewPage:
		return []string{"page"}, true
	case actReplayStep:
		return []string{"page", "slot"}, true
	}
	return nil, false
}

// String writes c for a button. Every button of every board drawn has
// one, so it appends to one buffer rather than formatting: fmt took
// nearly half of drawing a board.
func (c CustomID) String() string {
	b := make([]byte, 0, 40)
	b = append(b, "ttt:"...)
	b = append(b, c.Action...)
	b = append(b, ':')
	b = strconv.AppendInt(b, c.GameID, 10)
	fs, _ := fields(c.Action)
	for _, f := range fs {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(*c.field(f)), 10)
	}
	return string(b)
}

func (c *CustomID) field(name string) *int {
	switch name {
	case "version":
		return &c.Version
	case "cell":
		return &c.Cell
	case "page":
		return &c.Page
	}
	return &c.Slot
}

// ParseCustomID reads a custom_id written by CustomID.String.
func ParseCustomID(s string) (CustomID, error) {
	// Formatted only when it fails: a click parses its button and its board's.
	bad := func() (CustomID, error) { return CustomID{}, fmt.Errorf("malformed button id %q", s) }
	f := strings.Split(s, ":")
	if len(f) < 3 || f[0] != "ttt" {
		return bad()
	}
	names, ok := fields(f[1])
	if !ok || len(f) != 3+len(names) {
		return bad()
	}
	c := CustomID{Action: f[1]}
	var err error
	if c.GameID, err = strconv.ParseInt(f[2], 10, 64); err != nil || c.GameID <= 0 {
		return bad()
	}
	for i, name := range names {
		v, err := strconv.Atoi(f[3+i])
		lo, hi := 0, 1<<31-1
		switch name {
		case "version":
			lo = 1
		case "cell":
			hi = 24
		case "page":
			hi = 999
		case "slot":
			hi = 3
		}
		if err != nil || v < lo || v > hi || strconv.Itoa(v) != f[3+i] {
			return bad()
		}
		*c.field(name) = v
	}
	return c, nil
}

// leaderboardID is a leaderboard page button: which leaderboard (this
// server's or the global one, and the board's shape) and which page. Its
// action is still "l" on the wire, so that buttons already posted work.
type leaderboardID struct {
	Global        bool
	Rows, Cols, K int
	Page          int
}

func (b leaderboardID) String() string {
	scope := "s"
	if b.Global {
		scope = "g"
	}
	return fmt.Sprintf("ttt:%s:%s:%d:%d:%d:%d", actLeaderboard, scope, b.Rows, b.Cols, b.K, b.Page)
}

// parseLeaderboardID reads a custom_id written by leaderboardID.String.
func parseLeaderboardID(s string) (leaderboardID, error) {
	bad := fmt.Errorf("malformed leaderboard button id %q", s)
	f := strings.Split(s, ":")
	if len(f) != 7 || f[0] != "ttt" || f[1] != actLeaderboard || f[2] != "s" && f[2] != "g" {
		return leaderboardID{}, bad
	}
	b := leaderboardID{Global: f[2] == "g"}
	for i, p := range []*int{&b.Rows, &b.Cols, &b.K, &b.Page} {
		v, err := strconv.Atoi(f[3+i])
		if err != nil || v < 0 || v > 1_000_000 || strconv.Itoa(v) != f[3+i] {
			return leaderboardID{}, bad
		}
		*p = v
	}
	return b, nil
}
