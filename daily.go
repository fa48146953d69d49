package tttbot

import (
	"errors"
	"fmt"
	"hash/fnv"
	"time"
)

// Daily is where and when a guild's daily puzzle is posted: in Channel,
// every day at Hour o'clock UTC. Due is the next post, stored so that the
// instances of the bot claim it once (see DailyStore.DueDaily); zero
// Channel: the daily puzzle is off.
type Daily struct {
	Channel string
	Hour    int
	Due     time.Time
}

// DailyShape is the shape of the daily puzzle: past 3×3's few puzzles,
// short enough to solve over a coffee.
func DailyShape() Shape { return Shape{Rows: 4, Cols: 4, K: 3} }

// NewDaily is the daily puzzle in channel at hour, first posted at the
// next such hour after now.
func NewDaily(channel string, hour int, now time.Time) Daily {
	return Daily{Channel: channel, Hour: hour, Due: NextDaily(hour, now)}
}

// NextDaily is the first hour o'clock UTC after t.
func NextDaily(hour int, t time.Time) time.Time {
	t = t.UTC()
	d := time.Date(t.Year(), t.Month(), t.Day(), hour, 0, 0, 0, time.UTC)
	if !d.After(t) {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

func (d Daily) validate() error {
	switch {
	case d.Channel == "" && (d.Hour != 0 || !d.Due.IsZero()):
		return errors.New("an hour without a channel")
	case d.Channel == "":
		return nil
	case !Snowflake(d.Channel):
		return fmt.Errorf("%q is not a channel", d.Channel)
	case d.Hour < 0 || d.Hour > 23:
		return errors.New("hours are 0 to 23")
	case d.Due.IsZero():
		return errors.New("no next post")
	}
	return nil
}

// DailyPuzzle is day's puzzle among set: the same for everyone on a given
// day and set, whatever the server, so that friends can compare.
func DailyPuzzle(day time.Time, set []Puzzle) (Puzzle, bool) {
	if len(set) == 0 {
		return Puzzle{}, false
	}
	h := fnv.New64a()
	h.Write([]byte(day.UTC().Format(time.DateOnly)))
	return set[h.Sum64()%uint64(len(set))], true
}

// DailyPost is a daily puzzle due in a guild's channel (see
// DailyStore.DueDaily).
type DailyPost struct {
	GuildID, Channel string
	Day              time.Time // the day whose puzzle is posted, midnight UTC
}

// DailySolve is a member's first solve of a guild's daily puzzle.
type DailySolve struct {
	Player string
	Took   time.Duration
}

// DailyFastest is how many of the fastest solves a daily post shows.
const DailyFastest = 3

// DailyBoard is a daily post as its members' solves leave it.
type DailyBoard struct {
	Channel, Message string
	Solvers          int
	Fastest          []DailySolve // up to DailyFastest, the fastest first
}
