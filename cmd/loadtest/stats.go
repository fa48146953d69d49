package main

import (
	"time"
)

// kind is what a request does, for the report.
type kind int

const (
	kChallenge kind = iota
	kAccept
	kDecline
	kWithdraw
	kMove
	kBotGame
	kBotMove
	kResign
	kRematch
	kBadSignature
	kStale
	kStranger
	kOutOfTurn
	kConflict
	kRecover
	kJoin     // a tournament's Join
	kOrganise // a tournament's create and start
	numKinds
)

func (k kind) String() string {
	return [...]string{"challenge", "accept", "decline", "withdraw", "move", "bot-game", "bot-move", "resign",
		"rematch", "bad-signature", "stale", "stranger", "out-of-turn", "conflict", "recover", "join", "organise"}[k]
}

// perSecond is the answers in each second of the measured span, which ends
// before the database checks of the report; -1 for the seconds the kill
// touched.
func (d *driver) perSecond(span time.Duration) []int64 {
	end := int(span / time.Second)
	out := make([]int64, 0, max(end, 0))
	for i := 0; i < end && i < len(d.secs); i++ {
		from := d.from.Add(time.Duration(i) * time.Second)
		if !d.pace.downFrom.IsZero() && from.Before(d.pace.downTo.Add(time.Second)) && from.Add(time.Second).After(d.pace.downFrom) {
			out = append(out, -1)
			continue
		}
		out = append(out, d.secs[i].Load())
	}
	return out
}

// countAnswer counts an answer in the second of the measured span it came
// in, whenever its request was sent: under a rate the bots cannot keep
// up with, the answers of the first measured seconds are to requests
// queued in the warm-up, and the bots were busy giving them.
func (d *driver) countAnswer(done time.Time) {
	if done.Before(d.from) {
		return
	}
	if i := int(done.Sub(d.from) / time.Second); i < len(d.secs) {
		d.secs[i].Add(1)
	}
}
