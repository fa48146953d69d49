package main

import (
	"strconv"
	"time"
)

// Snowflakes of the simulated Discord.
const (
	appID       = "1100000000000000000"
	botUserID   = "1100000000000000001"
	idGuilds    = 1200000000000000000
	idChannels  = 1300000000000000000
	idUsers     = 1400000000000000000
	tokenPrefix = "loadtest_" // + n: the interaction's token
)

// runIDs is the first snowflake of a run's messages, made of the time as
// Discord's are, so that a database that outlives a run (-db,
// -database-url) never sees an ID again. Interactions carry the time they
// are made, as Discord's do: the bot plays a move at its interaction's time
// and refuses one older than tttbot.TokenLife, which a long run outlasts.
// Interaction n is made at t with the even ID of t's millisecond and n;
// message IDs are odd: the message interaction n's answer creates is
// base+2n+1, and the messages the REST stub creates start at
// base+stubMessages.
type runIDs int64

// stubMessages leaves room for a billion interactions of a run before the
// REST stub's messages.
const stubMessages = 1 << 31

// discordEpoch is 2015-01-01, where snowflakes count from, in Unix
// milliseconds.
const discordEpoch = 1420070400000

func newRunIDs(now time.Time) runIDs { return runIDs(snowflakeAt(now)) }

// snowflakeAt is the first snowflake of t's millisecond.
func snowflakeAt(t time.Time) int64 { return (t.UnixMilli() - discordEpoch) << 22 }

// interaction is the ID of interaction n, made at t: the 22 bits below
// the time are the worker, increment and process of Discord's, here
// interaction n's own, so that IDs made in one millisecond differ.
func (b runIDs) interaction(n int64, t time.Time) int64 {
	return snowflakeAt(t) | 2*n&(1<<22-1)
}

func (b runIDs) message(n int64) int64 { return int64(b) + 2*n + 1 }

func snowflake(base int64, n int) string { return strconv.FormatInt(base+int64(n), 10) }
