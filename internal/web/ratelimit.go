package web

import (
	"net/netip"
	"sync"
	"time"
)

// maxClients bounds the addresses the rate limit remembers: at about 100
// bytes each, a few MB however many addresses a flood comes from.
const maxClients = 20_000

// limiter is a token bucket per client address: rate tokens a second, up
// to burst, one per page. It remembers at most max addresses: a full
// bucket is the same as a forgotten one, so when the table is full it
// drops those, and failing that an arbitrary one, which at worst lets
// that client start again from a full bucket.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	max     int
	now     func() time.Time
	buckets map[netip.Addr]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was counted
}

func newLimiter(rate float64, burst, max int, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: float64(burst), max: max, now: now, buckets: make(map[netip.Addr]*bucket)}
}

// allow takes a token of addr's bucket, or reports how long until there
// is one.
func (l *limiter) allow(addr netip.Addr) (wait time.Duration, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[addr]
	if b == nil {
		if len(l.buckets) >= l.max {
			l.evict(now)
		}
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[addr] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return time.Duration((1 - b.tokens) / l.rate * float64(time.Second)), false
	}
	b.tokens--
	return 0, true
}

// evict makes room: it drops the buckets that have filled up again, and,
// if that leaves the table nearly full, arbitrary others, a 64th of the
// table at once, so that a flood of new addresses sweeps it rarely.
func (l *limiter) evict(now time.Time) {
	for a, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
			delete(l.buckets, a)
		}
	}
	room := l.max - max(1, l.max/64)
	for a := range l.buckets {
		if len(l.buckets) <= room {
			return
		}
		delete(l.buckets, a)
	}
}

// size is how many addresses l remembers.
func (l *limiter) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}
