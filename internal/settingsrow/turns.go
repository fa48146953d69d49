package settingsrow

import (
	"sync"
	"time"
)

// TurnTimeouts remembers the turn timeout of each guild as a store last
// read it. It decides no rule: a move that assumes a timeout is written
// only if the guild still has it, checked by the move's own write, and one
// that finds it changed, or that finds none here, reads the guild's
// settings afresh and puts them here. The zero value is empty and ready.
type TurnTimeouts struct {
	mu sync.Mutex
	m  map[string]time.Duration
}

// maxTurnTimeouts bounds the memory: a full map starts over rather than
// grow, and the games of the guilds it forgets read their settings once.
const maxTurnTimeouts = 10000

// Get returns the turn timeout last read for guild, 0 when it has none;
// ok is false when none was read. A DM has no guild, and no timeout of
// its own.
func (tt *TurnTimeouts) Get(guild string) (d time.Duration, ok bool) {
	if guild == "" {
		return 0, true
	}
	tt.mu.Lock()
	defer tt.mu.Unlock()
	d, ok = tt.m[guild]
	return d, ok
}

// Put records guild's turn timeout, as just read.
func (tt *TurnTimeouts) Put(guild string, d time.Duration) {
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
