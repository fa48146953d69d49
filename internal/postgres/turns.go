package postgres

import (
	"sync"
	"time"
)

// turnTimeouts remembers the turn timeout of each guild as a locking
// transaction last read it. It decides no rule: a move that assumes a
// timeout is written only if the guild still has it (see playSeen), and
// one that finds it changed, or that finds none here, takes the locking
// path, which reads the guild's settings afresh and puts them here.
type turnTimeouts struct {
	mu sync.Mutex
	m  map[string]time.Duration
}

// maxTurnTimeouts bounds the memory: a full map starts over rather than
// grow, and the games of the guilds it forgets take the locking path once.
const maxTurnTimeouts = 10000

// get returns the turn timeout last read for guild, 0 when it has none;
// ok is false when none was read. A DM has no guild, and no timeout of
// its own.
func (tt *turnTimeouts) get(guild string) (d time.Duration, ok bool) {
	if guild == "" {
		return 0, true
	}
	tt.mu.Lock()
	defer tt.mu.Unlock()
	d, ok = tt.m[guild]
	return d, ok
}

// put records guild's turn timeout, as just read.
func (tt *turnTimeouts) put(guild string, d time.Duration) {
	if guild == "" {
		return
	}
	tt.mu.Lock()
	defer tt.mu.Unlock()
	if tt.m == nil || len(tt.m) >= maxTurnTimeouts {
		tt.m = map[string]time.Duration{}
	}
	tt.m[guild] = d
}
