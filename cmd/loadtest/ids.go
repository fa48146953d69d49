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

// runIDs is the first snowflake of a run's interactions and messages, made
// of the time as Discord's are, so that a database that outlives a run
// (-db, -database-url) never sees an interaction ID again: the bot would
// refuse it as a replay. Interaction n is base+2n, the message its answer
// creates base+2n+1, and the messages the REST stub creates start at
// base+stubMessages.
type runIDs int64

// stubMessages leaves room for a billion interactions of a run before the
// REST stub's messages.
const stubMessages = 1 << 31

func newRunIDs(now time.Time) runIDs {
	const discordEpoch = 1420070400000 // 2015-01-01, in Unix milliseconds
	return runIDs((now.UnixMilli() - discordEpoch) << 22)
}

func (b runIDs) interaction(n int64) int64 { return int64(b) + 2*n }
func (b runIDs) message(n int64) int64     { return int64(b) + 2*n + 1 }

func snowflake(base int64, n int) string { return strconv.FormatInt(base+int64(n), 10) }
