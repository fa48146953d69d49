package commands

import (
	"fmt"
	"strconv"
	"strings"
)

// Button actions, the second field of a custom_id.
const (
	actMove    = "m" // ttt:m:GAME:VERSION:CELL
	actAccept  = "a" // ttt:a:GAME:VERSION
	actDecline = "d" // ttt:d:GAME:VERSION
	actRematch = "r" // ttt:r:GAME
)

// customID is what a button click needs to know, carried in the button's
// custom_id (at most 100 characters, unique within a message). The version
// is the one the board showed, so a click on an outdated board is refused.
type customID struct {
	Action  string
	GameID  int64
	Version int
	Cell    int
}

func (c customID) String() string {
	switch c.Action {
	case actMove:
		return fmt.Sprintf("ttt:%s:%d:%d:%d", c.Action, c.GameID, c.Version, c.Cell)
	case actRematch:
		return fmt.Sprintf("ttt:%s:%d", c.Action, c.GameID)
	}
	return fmt.Sprintf("ttt:%s:%d:%d", c.Action, c.GameID, c.Version)
}

// parseCustomID reads a custom_id written by customID.String.
func parseCustomID(s string) (customID, error) {
	bad := fmt.Errorf("malformed button id %q", s)
	f := strings.Split(s, ":")
	if len(f) < 3 || f[0] != "ttt" {
		return customID{}, bad
	}
	want := map[string]int{actMove: 5, actAccept: 4, actDecline: 4, actRematch: 3}[f[1]]
	if want == 0 || len(f) != want {
		return customID{}, bad
	}
	c := customID{Action: f[1]}
	var err error
	if c.GameID, err = strconv.ParseInt(f[2], 10, 64); err != nil || c.GameID <= 0 {
		return customID{}, bad
	}
	if len(f) > 3 {
		if c.Version, err = strconv.Atoi(f[3]); err != nil || c.Version <= 0 {
			return customID{}, bad
		}
	}
	if len(f) > 4 {
		if c.Cell, err = strconv.Atoi(f[4]); err != nil || c.Cell < 0 || c.Cell >= 25 {
			return customID{}, bad
		}
	}
	return c, nil
}
