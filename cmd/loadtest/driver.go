package main

import (
	"crypto/ed25519"
	"sync/atomic"
	"time"
)

// instance is one bot as the driver sees it: its interactions endpoint, and
// an epoch that is odd while the bot is down and moves on with each kill,
// so that a request sent to it before a kill is known to be lost.
type instance struct {
	url      string
	epoch    atomic.Int64
	inflight atomic.Int64 // requests awaiting its answer
	answered atomic.Int64 // answers it gave, warm-up included
}

func (in *instance) down() { in.epoch.Add(1) }
func (in *instance) up()   { in.epoch.Add(1) }

// driver is the simulated Discord's side of the HTTP endpoints: a load
// balancer in front of the bots, which sends each request to the next bot
// that is up.
type driver struct {
	o     loadOptions
	ids   runIDs
	key   ed25519.PrivateKey
	bots  []*instance
	pace  *pacer
	seq   atomic.Int64   // interactions sent
	start time.Time      // when the load began
	from  time.Time      // when the warm-up ended and measuring began
	secs  []atomic.Int64 // answers per second since from

	answers    *webhookAnswers // the answers of deferred interactions, from the REST stub
	internal   string          // the bot's words for a failure on its side, in soak mode
	tooLate    []string        // and its refusals of a click as made too late
	refused    atomic.Int64    // clicks refused as too late although made at once
	late       atomic.Int64    // answers that took longer than lateAfter, warm-up included
	deferred   atomic.Int64    // deferrals: answers that came through the webhook
	abandoned  atomic.Int64    // answers that told of a failure on the bot's side
	lost       atomic.Int64    // requests lost with a killed bot
	bodies     atomic.Int64    // requests sent
	bodyBytes  atomic.Int64    // and their bodies' bytes, for the floor's check
	replies    atomic.Int64    // answers read
	replyBytes atomic.Int64    // and their bodies' bytes, for the floor's net/http
}

// meanBody is the mean size of the requests' bodies so far.
func (d *driver) meanBody() int {
	return int(d.bodyBytes.Load() / max(d.bodies.Load(), 1))
}

// meanAnswer is the mean size of the answers' bodies so far.
func (d *driver) meanAnswer() int {
	return int(d.replyBytes.Load() / max(d.replies.Load(), 1))
}

// lateAfter is how long Discord waits for an interaction's first answer.
const lateAfter = 3 * time.Second

func newDriver(o loadOptions, ids runIDs, key ed25519.PrivateKey, urls []string, answers *webhookAnswers) *driver {
	now := time.Now()
	d := &driver{o: o, ids: ids, key: key, answers: answers, pace: newPacer(o.rate), start: now, from: now.Add(o.warmup),
		secs: make([]atomic.Int64, int(o.duration/time.Second)+600)}
	for _, u := range urls {
		d.bots = append(d.bots, &instance{url: u})
	}
	return d
}
