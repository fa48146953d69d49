package main

import (
	"context"
	"sync"
	"time"
)

// pacer hands out send times at a fixed rate, and holds senders while the
// bot is down. A request's latency runs from its send time, not from when a
// worker got round to it, so a slow bot cannot hide its backlog.
type pacer struct {
	interval time.Duration // 0: no pacing

	mu               sync.Mutex
	running          chan struct{} // closed while the bot is up
	epoch            int           // bumped by each kill
	next             time.Time
	downFrom, downTo time.Time
}

func newPacer(rate int) *pacer {
	p := &pacer{running: make(chan struct{}), next: time.Now()}
	close(p.running)
	if rate > 0 {
		p.interval = time.Second / time.Duration(rate)
	}
	return p
}

func (p *pacer) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running = make(chan struct{})
	p.epoch++
	p.downFrom = time.Now()
}

func (p *pacer) up() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next, p.downTo = time.Now(), time.Now()
	close(p.running)
}

func (p *pacer) currentEpoch() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.epoch
}

// ticket waits for the next send time and returns it.
func (p *pacer) ticket(ctx context.Context) (time.Time, error) {
	for {
		p.mu.Lock()
		running := p.running
		p.mu.Unlock()
		select {
		case <-running:
		case <-ctx.Done():
			return time.Time{}, errStopped
		}
		if ctx.Err() != nil {
			return time.Time{}, errStopped
		}
		p.mu.Lock()
		if running != p.running { // killed meanwhile
			p.mu.Unlock()
			continue
		}
		epoch, at := p.epoch, time.Now()
		if p.interval > 0 {
			at = p.next
			p.next = p.next.Add(p.interval)
		}
		p.mu.Unlock()
		if d := time.Until(at); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return time.Time{}, errStopped
			}
			if p.currentEpoch() != epoch {
				continue // the bot was killed while this one waited to go
			}
		}
		return at, nil
	}
}
