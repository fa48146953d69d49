package discord

import (
	"context"
	"log/slog"
	"math"
	"sync"
	"time"
)

// IdentifyInterval is how often Discord lets each rate-limit bucket of a
// bot identify a gateway session: max_concurrency buckets, shard_id %
// max_concurrency, one identify each per 5 seconds.
const IdentifyInterval = 5 * time.Second

// sessionStartsPeriod is how long Discord's session start limit lasts once
// it has reset: a day.
const sessionStartsPeriod = 24 * time.Hour

// pacer spaces the gateway connections of this process's shards as
// Discord's identify limits ask, from GET /gateway/bot's
// session_start_limit: in each bucket one connection at a time, the next
// one interval after the previous one ended — counted from the end, so
// that a slow handshake cannot bring two identifies closer than interval —
// and no more session starts than remain until the limit resets.
//
// Reconnections are paced too, though a resume is no session start:
// discordgo identifies inside the same call when Discord refuses the
// resume.
//
// With lock set, processes that share the bot's shards take turns too:
// each holds a bucket's shared lock from its connection's start until
// interval after its end.
type pacer struct {
	interval time.Duration
	buckets  []chan struct{} // one slot each: the connection in progress
	now      func() time.Time
	sleep    func(ctx context.Context, d time.Duration) error
	log      *slog.Logger
	lock     BucketLock     // nil: this process alone
	releases sync.WaitGroup // shared locks held past their connection

	mu        sync.Mutex
	last      []time.Time // when each bucket's previous connection ended
	total     int         // session starts per period
	remaining int
	resetAt   time.Time
}

// sessionLimit is GET /gateway/bot's session_start_limit.
type sessionLimit struct {
	total, remaining, concurrency int
	resetAfter                    time.Duration
}

// BucketLock waits for the lock of a gateway rate-limit bucket shared by
// every process of the bot, and returns the func that releases it.
type BucketLock func(ctx context.Context, bucket int) (release func(), err error)

func newPacer(l sessionLimit, interval time.Duration, lock BucketLock, now func() time.Time, sleepFn func(context.Context, time.Duration) error, log *slog.Logger) *pacer {
	if now == nil {
		now = time.Now
	}
	if sleepFn == nil {
		sleepFn = sleep
	}
	if l.total <= 0 {
		// No limit announced (a proxy's answer, say): none is kept, rather
		// than every start waiting a day.
		l.total, l.remaining = math.MaxInt, math.MaxInt
	}
	p := &pacer{
		interval: interval, now: now, sleep: sleepFn, log: log, lock: lock,
		buckets: make([]chan struct{}, max(l.concurrency, 1)),
		last:    make([]time.Time, max(l.concurrency, 1)),
		total:   l.total, remaining: l.remaining, resetAt: now().Add(l.resetAfter),
	}
	for i := range p.buckets {
		p.buckets[i] = make(chan struct{}, 1)
	}
	return p
}

// bucket is the rate-limit key of a shard.
func (p *pacer) bucket(shard int) int { return shard % len(p.buckets) }

// acquire waits until shard may connect and returns the func to call once
// the connection is up or has failed. A start (a shard's first
// connection, which identifies) takes one of the remaining session starts,
// waiting for the reset when none remain; done(false) gives it back.
func (p *pacer) acquire(ctx context.Context, shard int, start bool) (done func(ok bool), err error) {
	b := p.bucket(shard)
	select {
	case p.buckets[b] <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	release := func() { <-p.buckets[b] }
	for {
		p.mu.Lock()
		now := p.now()
		if p.remaining <= 0 && !now.Before(p.resetAt) {
			p.remaining, p.resetAt = p.total, now.Add(sessionStartsPeriod)
		}
		wait := p.last[b].Add(p.interval).Sub(now)
		exhausted := start && p.remaining <= 0
		if exhausted {
			wait = max(wait, p.resetAt.Sub(now))
		}
		if wait <= 0 {
			if start {
				p.remaining--
			}
			p.mu.Unlock()
			break
		}
		p.mu.Unlock()
		if exhausted {
			p.log.Warn("gateway session start limit reached, waiting for its reset", "shard", shard, "wait", wait.Round(time.Second))
		}
		if err := p.sleep(ctx, wait); err != nil {
			release()
			return nil, err
		}
	}
	unlock := func() {}
	if p.lock != nil {
		if unlock, err = p.lock(ctx, b); err != nil {
			p.undo(start)
			release()
			return nil, err
		}
	}
	return func(ok bool) {
		p.mu.Lock()
		p.last[b] = p.now()
		p.mu.Unlock()
		if !ok {
			p.undo(start)
		}
		if p.lock != nil {
			// The other processes wait as this one does: interval after
			// the connection's end.
			p.releases.Add(1)
			time.AfterFunc(p.interval, func() {
				defer p.releases.Done()
				unlock()
			})
		}
		release()
	}, nil
}

// undo gives back the session start of a start that did not connect.
func (p *pacer) undo(start bool) {
	if start {
		p.mu.Lock()
		p.remaining++
		p.mu.Unlock()
	}
}

// started counts a session start that took no slot from acquire: a
// reconnection whose resume Discord refused, so that it identified.
func (p *pacer) started() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.remaining--
}

// settle waits until every bucket may connect again, or ctx ends: a bot
// that stops and starts at once then identifies within the limits.
func (p *pacer) settle(ctx context.Context) error {
	p.mu.Lock()
	var wait time.Duration
	now := p.now()
	for _, t := range p.last {
		if !t.IsZero() {
			wait = max(wait, t.Add(p.interval).Sub(now))
		}
	}
	p.mu.Unlock()
	if wait > 0 {
		p.log.Info("gateway closed, waiting out discord's identify interval so that a restart can identify at once",
			"wait", wait.Round(time.Millisecond))
		if err := p.sleep(ctx, wait); err != nil {
			return err
		}
	}
	// The shared locks go at the same time: wait for their releases to
	// reach the database, which closes after the gateway.
	p.releases.Wait()
	return nil
}
