package play

// The bounds of PruneInteractions, for its test.
const (
	ReplayMemory = replayMemory
	PruneBatch   = pruneBatch
)

// FireConcurrency is how many due games fire at once, for the timers' test.
const FireConcurrency = fireConcurrency
