package play

import "time"

// The bounds of PruneInteractions, for its test.
const (
	ReplayMemory = replayMemory
	PruneBatch   = pruneBatch
)

// FireConcurrency is how many due games fire at once, for the timers' test.
const FireConcurrency = fireConcurrency

// MinerPace is the miner's pacer of its searches, for its test.
type MinerPace = minerPace

// Rested is what p has rested its searches for.
func (p *MinerPace) Rested() time.Duration { return p.rested }

// Owed is the rest p owes after a game that took elapsed.
func (p *MinerPace) Owed(elapsed time.Duration) time.Duration { return p.owed(elapsed) }
