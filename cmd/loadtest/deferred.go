package main

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// A bot whose work outlasts its budget answers the interaction with a
// deferral (type 5 for a command, 6 for a click) and delivers the answer
// through the interaction's webhook: an edit of @original (the clicked
// board, or the command's thinking message) or a follow-up (a new message
// answering a click). The REST stub keeps the first such message of each
// interaction, and the driver reads the answer from it.

// webhookAnswer is the first message the webhook of an interaction created
// or edited.
type webhookAnswer struct {
	edit  bool   // an edit of @original; else a follow-up
	msgID string // the message it edited or created
	data  responseData
}

// webhookAnswers holds each interaction's webhookAnswer, by token, until
// the driver takes it, and what the REST stub must know of how the
// driver saw an interaction answered.
type webhookAnswers struct {
	mu      sync.Mutex
	byToken map[string]*answerSlot
	how     map[string]answerKind
}

// answerKind is how an interaction was answered, where the REST stub's
// reading of its token's @original edits depends on it.
type answerKind int

const (
	answeredLate answerKind = iota + 1 // deferred: its first @original edit is its answer
	answeredNew                        // a click answered in time with a new message, its @original
)

// note records that token's interaction was answered as k.
func (w *webhookAnswers) note(token string, k answerKind) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.how == nil {
		w.how = map[string]answerKind{}
	}
	w.how[token] = k
}

// noted is how token's interaction was answered, as noted, or 0.
func (w *webhookAnswers) noted(token string) answerKind {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.how[token]
}

type answerSlot struct {
	ready  chan struct{} // closed once a is set
	a      webhookAnswer
	filled time.Time
}

// answerKeep is how long an answer no one waits for is kept: the webhook
// messages of an interaction answered in time (a board's Rematch row posted
// after it) are never taken.
const answerKeep = time.Minute

func (w *webhookAnswers) slot(token string) *answerSlot {
	if w.byToken == nil {
		w.byToken = map[string]*answerSlot{}
	}
	s := w.byToken[token]
	if s == nil {
		s = &answerSlot{ready: make(chan struct{})}
		w.byToken[token] = s
	}
	return s
}

// put keeps a as token's answer unless it has one.
func (w *webhookAnswers) put(token string, a webhookAnswer, now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.byToken) >= 1024 {
		for t, s := range w.byToken {
			if !s.filled.IsZero() && now.Sub(s.filled) > answerKeep {
				delete(w.byToken, t)
			}
		}
	}
	s := w.slot(token)
	if s.filled.IsZero() {
		s.a, s.filled = a, now
		close(s.ready)
	}
}

// errNoLateAnswer: a deferred interaction's answer did not come.
var errNoLateAnswer = errors.New("no answer through the webhook after the deferral")

// take waits for token's answer until ctx ends or gone reports true, checked
// every tick, and forgets it.
func (w *webhookAnswers) take(ctx context.Context, token string, tick time.Duration, gone func() bool) (webhookAnswer, error) {
	w.mu.Lock()
	s := w.slot(token)
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.byToken, token)
		w.mu.Unlock()
	}()
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-s.ready:
			return s.a, nil
		case <-ctx.Done():
			return webhookAnswer{}, errNoLateAnswer
		case <-t.C:
			if gone() {
				return webhookAnswer{}, errLost
			}
		}
	}
}

// interactionToken is the token of interaction n: a click's names the
// message clicked, which its @original is.
func interactionToken(n int64, clicked string) string {
	t := tokenPrefix + strconv.FormatInt(n, 10)
	if clicked != "" {
		t += "." + clicked
	}
	return t
}

// parseToken reads interactionToken's n and clicked message.
func parseToken(token string) (n int64, clicked string, ok bool) {
	num, clicked, _ := strings.Cut(strings.TrimPrefix(token, tokenPrefix), ".")
	n, err := strconv.ParseInt(num, 10, 64)
	return n, clicked, err == nil && strings.HasPrefix(token, tokenPrefix)
}

// lateWait bounds how long the driver waits for a deferred answer: the
// bot's work limit (internal/discord's DefaultWorkLimit) and its webhook
// calls' retries.
const lateWait = time.Minute

// resolveDeferred turns a deferral into the answer it announced, as
// Discord shows it: a click's edit of @original updates the board (type
// 7), a command's fills the thinking message (type 4, as private as the
// deferral said), and a follow-up is a new message (type 4). gone reports
// that the bot which deferred has been killed since.
func (w *worker) resolveDeferred(ctx context.Context, r *response, token string, click bool, gone func() bool) (*response, error) {
	ctx, cancel := context.WithTimeout(ctx, lateWait)
	defer cancel()
	a, err := w.d.answers.take(ctx, token, 50*time.Millisecond, gone)
	if err != nil {
		if ctx.Err() != nil && context.Cause(ctx) != context.DeadlineExceeded {
			return nil, errStopped
		}
		return nil, err
	}
	out := &response{Data: &a.data, msgID: a.msgID, late: true}
	switch {
	case a.edit && click:
		out.Type = discordgo.InteractionResponseUpdateMessage
	case a.edit:
		out.Type = discordgo.InteractionResponseChannelMessageWithSource
		out.Data.Flags = 0
		if r.Data != nil {
			out.Data.Flags = r.Data.Flags & discordgo.MessageFlagsEphemeral
		}
	default:
		out.Type = discordgo.InteractionResponseChannelMessageWithSource
	}
	return out, nil
}
