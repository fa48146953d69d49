package play

// The bounds of PruneInteractions, for its test.
const (
	ReplayMemory = replayMemory
	PruneBatch   = pruneBatch
)
