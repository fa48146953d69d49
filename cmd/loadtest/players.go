package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	json127 "github.com/go-json-experiment/json/v1"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/commands"
)

// The simulated players of the load test. Each worker plays one game at a
// time with players of its own, so the bot's answers are predictable: a
// move the driver makes must be accepted, a bad request refused and without
// effect (the next move, made against the version the driver tracks, proves
// it). Every move the bot answers with a board showing it is acknowledged,
// and the database check looks for each.

// Snowflakes of the simulated Discord.
const (
	appID       = "1100000000000000000"
	botUserID   = "1100000000000000001"
	idGuilds    = 1200000000000000000
	idChannels  = 1300000000000000000
	idUsers     = 1400000000000000000
	tokenPrefix = "loadtest_" // + n: the interaction's token
)

// runIDs is the first snowflake of a run's interactions and messages, made
// of the time as Discord's are, so that a database that outlives a run
// (-db, -database-url) never sees an interaction ID again: the bot would
// refuse it as a replay. Interaction n is base+2n, the message its answer
// creates base+2n+1, and the messages the REST stub creates start at
// base+stubMessages.
type runIDs int64

// stubMessages leaves room for a billion interactions of a run before the
// REST stub's messages.
const stubMessages = 1 << 31

func newRunIDs(now time.Time) runIDs {
	const discordEpoch = 1420070400000 // 2015-01-01, in Unix milliseconds
	return runIDs((now.UnixMilli() - discordEpoch) << 22)
}

func (b runIDs) interaction(n int64) int64 { return int64(b) + 2*n }
func (b runIDs) message(n int64) int64     { return int64(b) + 2*n + 1 }

func snowflake(base int64, n int) string { return strconv.FormatInt(base+int64(n), 10) }

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
	numKinds
)

func (k kind) String() string {
	return [...]string{"challenge", "accept", "decline", "withdraw", "move", "bot-game", "bot-move", "resign",
		"rematch", "bad-signature", "stale", "stranger", "out-of-turn", "conflict", "recover"}[k]
}

var (
	errStopped    = errors.New("load stopped")
	errWalkedAway = errors.New("the players walked away from their game")
	errLost       = errors.New("request lost with the killed bot")
	errUnexpected = errors.New("unexpected answer")
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
}

func newDriver(o loadOptions, ids runIDs, key ed25519.PrivateKey, urls []string) *driver {
	now := time.Now()
	d := &driver{o: o, ids: ids, key: key, pace: newPacer(o.rate), start: now, from: now.Add(o.warmup),
		secs: make([]atomic.Int64, int(o.duration/time.Second)+600)}
	for _, u := range urls {
		d.bots = append(d.bots, &instance{url: u})
	}
	return d
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

type worker struct {
	d       *driver
	rng     *rand.Rand
	players []string

	conns []botConn // one per bot
	next  int       // the bot the next request goes to, round robin

	lat      [numKinds][]time.Duration
	bySize   [2][]time.Duration // all kinds, on 3×3 and on bigger boards
	big      bool               // the current session is on a bigger board
	warm     []time.Duration    // latencies of the warm-up, all kinds
	errs     [numKinds]int
	errMsgs  []string
	sessions map[string]int
	lost     int
	acked    []tttbot.Move
	games    []int64 // every game the bot answered with

	// Players who walked away from a game, until its deadline has fired;
	// they sit out meanwhile, since their open game would refuse another
	// in its channel.
	parked map[string]time.Time
}

// botConn is a worker's keep-alive connection to one bot, and the epoch
// it was opened in: a connection to a killed bot is dead.
type botConn struct {
	conn  net.Conn
	epoch int64
	br    *bufio.Reader
	bw    *bufio.Writer
}

func (d *driver) newWorker(i, first, n int) *worker {
	w := &worker{d: d, rng: rand.New(rand.NewPCG(d.o.seed, uint64(i))), sessions: map[string]int{},
		conns: make([]botConn, len(d.bots)), next: i % len(d.bots), parked: map[string]time.Time{}}
	for p := range n {
		w.players = append(w.players, snowflake(idUsers, first+p))
	}
	return w
}

// session is one table: a game, its rematches, and the players at it.
type session struct {
	guild, channel string
	humans         []string // the challenger first
	vsBot          bool
	x              string // who plays X
	game           int64
	msg            string // the board message
	cur            board
	prev           *board // the board before the last move, for stale clicks
	walkAway       bool   // the players leave a game open, for its deadline to fire
}

func (w *worker) run(ctx context.Context) {
	defer w.hangUpAll()
	for {
		s, err := w.newSession(ctx)
		if err != nil {
			return
		}
		err = w.play(ctx, s)
		switch {
		case errors.Is(err, errStopped):
			return
		case errors.Is(err, errWalkedAway):
			until := time.Now().Add(w.d.o.turnTimeout + parkMargin)
			for _, h := range s.humans {
				w.parked[h] = until
			}
			w.sessions["walked away"]++
		case err != nil:
			// The game is in an unknown state: end it so its players can
			// play again in this channel.
			for _, h := range s.humans {
				if _, r, err := w.command(ctx, kRecover, s, h, "resign", nil); err == nil && r.Type != discordgo.InteractionResponseChannelMessageWithSource {
					w.fail(kRecover, "got %s, want a message", r)
				}
			}
		}
	}
}

// parkMargin is how long after a walked-away game's deadline its players
// sit out: the timers fire each second.
const parkMargin = 2 * time.Second

// newSession seats players at a new table. It waits while fewer than two
// players are free.
func (w *worker) newSession(ctx context.Context) (*session, error) {
	players, err := w.free(ctx)
	if err != nil {
		return nil, err
	}
	c := w.rng.IntN(w.d.o.channels)
	s := &session{guild: snowflake(idGuilds, c/16), channel: snowflake(idChannels, c), vsBot: w.rng.IntN(2) == 0}
	i := w.rng.IntN(len(players))
	s.humans = []string{players[i]}
	if !s.vsBot {
		j := (i + 1 + w.rng.IntN(len(players)-1)) % len(players)
		s.humans = append(s.humans, players[j])
	}
	s.x = s.humans[0]
	if w.rng.IntN(2) == 0 {
		s.x = s.other(s.x)
	}
	// The draw is skipped without -abandon, so that a seed plays the games
	// it played before the flag existed.
	s.walkAway = w.d.o.abandon > 0 && w.rng.Float64() < w.d.o.abandon
	return s, nil
}

// free returns the worker's players who are not parked, once there are at
// least two.
func (w *worker) free(ctx context.Context) ([]string, error) {
	for {
		now := time.Now()
		wake := now.Add(time.Hour)
		for p, until := range w.parked {
			if !until.After(now) {
				delete(w.parked, p)
			} else if until.Before(wake) {
				wake = until
			}
		}
		if len(w.parked) == 0 {
			return w.players, nil
		}
		free := slices.DeleteFunc(slices.Clone(w.players), func(p string) bool { _, ok := w.parked[p]; return ok })
		if len(free) >= 2 {
			return free, nil
		}
		t := time.NewTimer(time.Until(wake))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, errStopped
		}
	}
}

// leave reports whether the table walks away now, leaving its game open.
func (w *worker) leave(s *session) bool { return s.walkAway && w.rng.IntN(4) == 0 }

func (s *session) other(user string) string {
	if s.vsBot {
		if user == botUserID {
			return s.humans[0]
		}
		return botUserID
	}
	if user == s.humans[0] {
		return s.humans[1]
	}
	return s.humans[0]
}

// toMove is the player whose turn the board shows.
func (s *session) toMove() string {
	if s.cur.count()%2 == 0 {
		return s.x
	}
	return s.other(s.x)
}

func (s *session) mark(user string) byte {
	if user == s.x {
		return 'X'
	}
	return 'O'
}

// play plays a table until it ends without a rematch.
func (w *worker) play(ctx context.Context, s *session) error {
	k, n, r, err := w.create(ctx, s)
	for {
		if err != nil {
			return err
		}
		b, berr := parseBoard(r)
		if berr != nil || r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.ephemeral() || b.game == 0 {
			return w.fail(k, "got %s (%v), want a new game", r, berr)
		}
		s.game, s.msg, s.cur, s.prev = b.game, strconv.FormatInt(w.d.ids.message(n), 10), b, nil
		w.games = append(w.games, b.game)
		if s.vsBot {
			w.sessions["bot games"]++
			opened := s.x == botUserID
			if b.count() != btoi(opened) || len(b.free) == 0 || opened && b.marks[b.firstMark()] != 'X' {
				return w.fail(k, "got %s, want an open board", r)
			}
			if opened {
				w.ack(s, 1, b.firstMark(), botUserID)
			}
		} else {
			w.sessions["challenges"]++
			if b.accept == "" || b.decline == "" {
				return w.fail(k, "got %s, want a challenge", r)
			}
			done, err := w.challenge(ctx, s)
			if done || err != nil {
				return err
			}
		}
		if err := w.moves(ctx, s); err != nil || s.cur.rematch == "" || w.rng.IntN(5) != 0 {
			return err
		}
		// A rematch swaps sides; whoever clicks it challenges the other.
		clicker := s.humans[w.rng.IntN(len(s.humans))]
		s.x = s.other(s.x)
		if !s.vsBot && clicker != s.humans[0] {
			s.humans[0], s.humans[1] = s.humans[1], s.humans[0]
		}
		w.sessions["rematches"]++
		k = kRematch
		n, r, err = w.click(ctx, k, s, clicker, s.cur.rematch, &s.cur)
	}
}

// create starts the table's first game with /ttt challenge.
func (w *worker) create(ctx context.Context, s *session) (kind, int64, *response, error) {
	first := "me"
	if s.x != s.humans[0] {
		first = "them"
	}
	// Most games are 3×3; -big of them 4×4 or 5×5 (four in a row), where
	// the bot searches.
	size := 3
	if w.rng.Float64() < w.d.o.big {
		size = 4 + btoi(w.rng.IntN(3) == 0)
	}
	w.big = size > 3
	opts := []jsonOption{{Name: "size", Type: discordgo.ApplicationCommandOptionInteger, Value: size}, {Name: "first", Type: discordgo.ApplicationCommandOptionString, Value: first}}
	k := kChallenge
	if s.vsBot {
		k = kBotGame
		opts = append(opts, jsonOption{Name: "difficulty", Type: discordgo.ApplicationCommandOptionString, Value: "perfect"})
	} else {
		opts = append([]jsonOption{{Name: "opponent", Type: discordgo.ApplicationCommandOptionUser, Value: s.humans[1]}}, opts...)
	}
	n, r, err := w.command(ctx, k, s, s.humans[0], "challenge", opts)
	return k, n, r, err
}

// challenge answers a pending challenge: mostly accepted, sometimes
// declined or withdrawn. done reports that the table is over.
func (w *worker) challenge(ctx context.Context, s *session) (done bool, err error) {
	if err := w.bad(ctx, s); err != nil {
		return false, err
	}
	if w.leave(s) {
		return true, errWalkedAway
	}
	challenger, opponent := s.humans[0], s.humans[1]
	switch p := w.rng.IntN(100); {
	case p < 4:
		_, r, err := w.click(ctx, kDecline, s, opponent, s.cur.decline, &s.cur)
		if err != nil {
			return true, err
		}
		if b, err := parseBoard(r); err != nil || r.Type != discordgo.InteractionResponseUpdateMessage || r.ephemeral() || b.accept != "" {
			return true, w.fail(kDecline, "got %s, want the declined challenge", r)
		}
		w.sessions["declined"]++
		return true, nil
	case p < 7:
		_, r, err := w.command(ctx, kWithdraw, s, challenger, "resign", nil)
		if err != nil {
			return true, err
		}
		if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.ephemeral() {
			return true, w.fail(kWithdraw, "got %s, want the withdrawn challenge", r)
		}
		w.sessions["withdrawn"]++
		return true, nil
	}
	_, r, err := w.click(ctx, kAccept, s, opponent, s.cur.accept, &s.cur)
	if err != nil {
		return true, err
	}
	b, err := parseBoard(r)
	if err != nil || r.Type != discordgo.InteractionResponseUpdateMessage || r.ephemeral() || b.game != s.game || b.version != s.cur.version+1 || b.count() != 0 || len(b.free) == 0 {
		return true, w.fail(kAccept, "got %s, want the empty board at version %d", r, s.cur.version+1)
	}
	s.cur = b
	return false, nil
}

// moves plays the game to its end, or until someone resigns.
func (w *worker) moves(ctx context.Context, s *session) error {
	for len(s.cur.free) > 0 {
		if w.rng.IntN(50) == 0 {
			h := s.humans[w.rng.IntN(len(s.humans))]
			_, r, err := w.command(ctx, kResign, s, h, "resign", nil)
			if err != nil {
				return err
			}
			if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.ephemeral() {
				return w.fail(kResign, "got %s, want the resignation", r)
			}
			w.sessions["resigned"]++
			return nil
		}
		if err := w.bad(ctx, s); err != nil {
			return err
		}
		if w.leave(s) {
			return errWalkedAway
		}
		if err := w.move(ctx, s); err != nil {
			return err
		}
	}
	w.sessions["played out"]++
	return nil
}

// move clicks a free cell for the player to move and checks the answer:
// the same game, its version one on (two with the bot's reply), the mark on
// the cell and, against the bot, exactly one reply.
func (w *worker) move(ctx context.Context, s *session) error {
	me := s.toMove()
	cell := s.cur.free[w.rng.IntN(len(s.cur.free))]
	k := kMove
	if s.vsBot {
		k = kBotMove
	}
	_, r, err := w.click(ctx, k, s, me, s.cur.ids[cell], &s.cur)
	if err != nil {
		return err
	}
	b, err := parseBoard(r)
	if err != nil || r.Type != discordgo.InteractionResponseUpdateMessage || r.ephemeral() || b.game != s.game || len(b.marks) != len(s.cur.marks) {
		return w.fail(k, "got %s (%v), want the board after cell %d", r, err, cell)
	}
	ply := s.cur.count() + 1
	added := diff(s.cur.marks, b.marks)
	want := 1
	if s.vsBot && len(b.free) > 0 || s.vsBot && len(added) == 2 {
		want = 2 // the bot replied
	}
	if b.version != s.cur.version+want || len(added) != want || b.marks[cell] != s.mark(me) {
		return w.fail(k, "got version %d with %d new marks, want version %d with %c on %d",
			b.version, len(added), s.cur.version+want, s.mark(me), cell)
	}
	w.ack(s, ply, cell, me)
	if want == 2 {
		reply := added[0]
		if reply == cell {
			reply = added[1]
		}
		if b.marks[reply] != s.mark(botUserID) {
			return w.fail(k, "the bot's reply on %d is not its mark", reply)
		}
		w.ack(s, ply+1, reply, botUserID)
	}
	prev := s.cur
	s.prev, s.cur = &prev, b
	return nil
}

func (w *worker) ack(s *session, ply, cell int, player string) {
	w.acked = append(w.acked, tttbot.Move{GameID: s.game, Ply: ply, Cell: cell, Player: player})
}

// bad sends, now and then, a request the bot must refuse without effect.
func (w *worker) bad(ctx context.Context, s *session) error {
	if w.rng.Float64() >= w.d.o.bad {
		return nil
	}
	active := len(s.cur.free) > 0
	var mover, button string
	if active {
		mover, button = s.toMove(), s.cur.ids[s.cur.free[w.rng.IntN(len(s.cur.free))]]
	} else {
		mover, button = s.humans[1], s.cur.accept // a challenge waits for its opponent
	}
	var k kind
	var r *response
	var err error
	switch choice := w.rng.IntN(5); {
	case choice == 0:
		var code int
		code, err = w.send(ctx, kBadSignature, w.clickBody(s, mover, button, &s.cur), true, nil)
		if err == nil && code != http.StatusUnauthorized {
			return w.fail(kBadSignature, "got status %d, want 401", code)
		}
		return err
	case choice == 1 && active && s.prev != nil && s.prev.game == s.game && len(s.prev.free) > 0:
		k = kStale
		_, r, err = w.click(ctx, k, s, mover, s.prev.ids[s.prev.free[w.rng.IntN(len(s.prev.free))]], s.prev)
	case choice == 2 && active && !s.vsBot:
		k = kOutOfTurn
		_, r, err = w.click(ctx, k, s, s.other(mover), button, &s.cur)
	case choice == 3:
		k = kConflict
		_, r, err = w.command(ctx, k, s, s.humans[w.rng.IntN(len(s.humans))], "challenge", nil)
	default:
		stranger := w.players[w.rng.IntN(len(w.players))]
		for slices.Contains(s.humans, stranger) {
			stranger = w.players[w.rng.IntN(len(w.players))]
		}
		k = kStranger
		_, r, err = w.click(ctx, k, s, stranger, button, &s.cur)
	}
	if err != nil {
		return err
	}
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || !r.ephemeral() {
		return w.fail(k, "got %s, want an ephemeral refusal", r)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fail counts an unexpected answer and keeps the first few messages.
func (w *worker) fail(k kind, format string, args ...any) error {
	w.errs[k]++
	if len(w.errMsgs) < 3 {
		w.errMsgs = append(w.errMsgs, k.String()+": "+fmt.Sprintf(format, args...))
	}
	return errUnexpected
}

// command sends /ttt sub by user in the session's channel; a challenge
// names its opponent in the resolved users, as Discord does.
func (w *worker) command(ctx context.Context, k kind, s *session, user, sub string, opts []jsonOption) (int64, *response, error) {
	data := commandData{ID: "1100000000000000002", Name: "ttt", Type: discordgo.ChatApplicationCommand,
		Options: []jsonOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}}}
	for _, o := range opts {
		if o.Type == discordgo.ApplicationCommandOptionUser {
			id := o.Value.(string)
			data.Resolved = &resolved{Users: map[string]jsonUser{id: userJSON(id)},
				Members: map[string]memberJSON{id: {Roles: []string{}, JoinedAt: "2024-01-02T03:04:05.000000+00:00", Permissions: "2248473465835073"}}}
		}
	}
	return w.interact(ctx, k, s, user, discordgo.InteractionApplicationCommand, data, nil)
}

// click sends a button click on the message showing b.
func (w *worker) click(ctx context.Context, k kind, s *session, user, customID string, b *board) (int64, *response, error) {
	return w.interact(ctx, k, s, user, discordgo.InteractionMessageComponent, componentData{CustomID: customID, ComponentType: discordgo.ButtonComponent}, w.message(s, b))
}

func (w *worker) message(s *session, b *board) *messageJSON {
	return &messageJSON{ID: s.msg, ChannelID: s.channel, Type: discordgo.MessageTypeChatInputCommand, Content: b.content, Author: botJSON,
		Components: b.components, Timestamp: "2025-01-02T03:04:05.000000+00:00", ApplicationID: appID}
}

func (w *worker) clickBody(s *session, user, customID string, b *board) []byte {
	body, _ := w.body(s, user, discordgo.InteractionMessageComponent, componentData{CustomID: customID, ComponentType: discordgo.ButtonComponent}, w.message(s, b))
	return body
}

func (w *worker) interact(ctx context.Context, k kind, s *session, user string, typ discordgo.InteractionType, data any, m *messageJSON) (int64, *response, error) {
	body, n := w.body(s, user, typ, data, m)
	var r response
	code, err := w.send(ctx, k, body, false, &r)
	if err != nil {
		return n, nil, err
	}
	if code != http.StatusOK {
		return n, nil, w.fail(k, "got status %d, want 200", code)
	}
	return n, &r, nil
}

// body is a new interaction from user in the session's channel, and its
// sequence number.
func (w *worker) body(s *session, user string, typ discordgo.InteractionType, data any, m *messageJSON) ([]byte, int64) {
	n := w.d.seq.Add(1)
	i := interactionJSON{
		ID: strconv.FormatInt(w.d.ids.interaction(n), 10), ApplicationID: appID, Type: typ,
		Token: tokenPrefix + strconv.FormatInt(n, 10), Version: 1,
		GuildID: s.guild, ChannelID: s.channel, Channel: channelJSON{ID: s.channel, Type: discordgo.ChannelTypeGuildText, GuildID: s.guild},
		Member: memberJSON{User: ptr(userJSON(user)), Roles: []string{}, JoinedAt: "2024-01-02T03:04:05.000000+00:00",
			Permissions: "2248473465835073"},
		AppPermissions: "2248473465835073", Locale: "en-US", GuildLocale: "en-US", Entitlements: []any{},
		Data: data, Message: m,
	}
	b, err := json.Marshal(i)
	if err != nil {
		panic(err) // the types above always marshal
	}
	return b, n
}

func ptr[T any](v T) *T { return &v }

// send signs body (badly when badSig) and posts it at the pacer's next
// time to the next bot that is up. It returns the HTTP status and decodes a
// 200's body into r.
func (w *worker) send(ctx context.Context, k kind, body []byte, badSig bool, r *response) (int, error) {
	// The request is signed before it is due, as Discord's would be ready:
	// signing is the client's time, not the bot's.
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := ed25519.Sign(w.d.key, append([]byte(ts), body...))
	if badSig {
		sig[0] ^= 1
	}
	var at time.Time
	var bot int
	var epoch int64
	for {
		var err error
		if at, err = w.d.pace.ticket(ctx); err != nil {
			return 0, err
		}
		var ok bool
		if bot, epoch, ok = w.pick(); ok {
			break
		}
		// Every bot is down: the pacer holds the next ticket until one is up.
	}
	in := w.d.bots[bot]
	req, err := http.NewRequest(http.MethodPost, in.url, bytes.NewReader(body))
	if err != nil {
		return 0, w.fail(k, "%v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Timestamp", ts)
	req.Header.Set("X-Signature-Ed25519", fmt.Sprintf("%x", sig))
	in.inflight.Add(1)
	resp, err := w.roundTrip(req, bot, epoch)
	var b []byte
	if err == nil {
		b, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	in.inflight.Add(-1)
	if err != nil {
		w.hangUp(bot)
	}
	if in.epoch.Load() != epoch {
		// The bot was killed meanwhile: nothing can be said of this one.
		w.lost++
		return 0, errLost
	}
	if err != nil {
		return 0, w.fail(k, "%v", err)
	}
	done := time.Now()
	if at.Before(w.d.from) {
		w.warm = append(w.warm, done.Sub(at))
	} else {
		w.lat[k] = append(w.lat[k], done.Sub(at))
		w.bySize[btoi(w.big)] = append(w.bySize[btoi(w.big)], done.Sub(at))
	}
	w.d.countAnswer(done)
	in.answered.Add(1)
	if resp.StatusCode == http.StatusOK && r != nil {
		// The driver shares the bot's cores, so it decodes with json127
		// too, in 60% of encoding/json's time (internal/discord/wire.go).
		if err := json127.Unmarshal(b, r); err != nil {
			return 0, w.fail(k, "decode answer: %v", err)
		}
	}
	return resp.StatusCode, nil
}

// pick chooses the bot for the next request, round robin among those that
// are up, and returns it with its epoch; ok is false when every bot is down.
func (w *worker) pick() (bot int, epoch int64, ok bool) {
	for range w.d.bots {
		bot = w.next
		w.next = (w.next + 1) % len(w.d.bots)
		if epoch = w.d.bots[bot].epoch.Load(); epoch%2 == 0 {
			return bot, epoch, true
		}
	}
	return 0, 0, false
}

// roundTrip sends req on the worker's connection to bot, opening one if it
// has none or the bot was killed since, and reads the answer's head. A
// worker sends one request at a time, so it needs neither a pool nor
// http.Transport's goroutines, whose hand-offs would cost the bot CPU it
// shares.
func (w *worker) roundTrip(req *http.Request, bot int, epoch int64) (*http.Response, error) {
	c := &w.conns[bot]
	if c.conn != nil && c.epoch != epoch {
		w.hangUp(bot)
	}
	if c.conn == nil {
		conn, err := net.Dial("tcp", req.URL.Host)
		if err != nil {
			return nil, err
		}
		*c = botConn{conn: conn, epoch: epoch, br: bufio.NewReader(conn), bw: bufio.NewWriter(conn)}
	}
	c.conn.SetDeadline(time.Now().Add(30 * time.Second))
	if err := req.Write(c.bw); err != nil {
		return nil, err
	}
	if err := c.bw.Flush(); err != nil {
		return nil, err
	}
	return http.ReadResponse(c.br, req)
}

// hangUp closes the worker's connection to bot.
func (w *worker) hangUp(bot int) {
	if c := &w.conns[bot]; c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// hangUpAll closes the worker's connections.
func (w *worker) hangUpAll() {
	for i := range w.conns {
		w.hangUp(i)
	}
}

// Interactions as Discord sends them, with the fields a bot may read.
type (
	interactionJSON struct {
		ID             string                    `json:"id"`
		ApplicationID  string                    `json:"application_id"`
		Type           discordgo.InteractionType `json:"type"`
		Token          string                    `json:"token"`
		Version        int                       `json:"version"`
		GuildID        string                    `json:"guild_id"`
		ChannelID      string                    `json:"channel_id"`
		Channel        channelJSON               `json:"channel"`
		Member         memberJSON                `json:"member"`
		AppPermissions string                    `json:"app_permissions"`
		Locale         string                    `json:"locale"`
		GuildLocale    string                    `json:"guild_locale"`
		Entitlements   []any                     `json:"entitlements"`
		Data           any                       `json:"data"`
		Message        *messageJSON              `json:"message,omitempty"`
	}
	channelJSON struct {
		ID      string                `json:"id"`
		Type    discordgo.ChannelType `json:"type"`
		GuildID string                `json:"guild_id"`
	}
	jsonUser struct {
		ID            string  `json:"id"`
		Username      string  `json:"username"`
		GlobalName    string  `json:"global_name,omitempty"`
		Discriminator string  `json:"discriminator"`
		Avatar        *string `json:"avatar"`
		Bot           bool    `json:"bot,omitempty"`
	}
	memberJSON struct {
		User        *jsonUser `json:"user,omitempty"`
		Roles       []string  `json:"roles"`
		JoinedAt    string    `json:"joined_at"`
		Permissions string    `json:"permissions"`
	}
	jsonOption struct {
		Name    string                                 `json:"name"`
		Type    discordgo.ApplicationCommandOptionType `json:"type"`
		Value   any                                    `json:"value,omitempty"`
		Options []jsonOption                           `json:"options,omitempty"`
	}
	commandData struct {
		ID       string                           `json:"id"`
		Name     string                           `json:"name"`
		Type     discordgo.ApplicationCommandType `json:"type"`
		Options  []jsonOption                     `json:"options"`
		Resolved *resolved                        `json:"resolved,omitempty"`
	}
	resolved struct {
		Users   map[string]jsonUser   `json:"users"`
		Members map[string]memberJSON `json:"members"`
	}
	componentData struct {
		CustomID      string                  `json:"custom_id"`
		ComponentType discordgo.ComponentType `json:"component_type"`
	}
	messageJSON struct {
		ID            string                `json:"id"`
		ChannelID     string                `json:"channel_id"`
		Type          discordgo.MessageType `json:"type"`
		Content       string                `json:"content"`
		Author        jsonUser              `json:"author"`
		Components    json.RawMessage       `json:"components"`
		Timestamp     string                `json:"timestamp"`
		ApplicationID string                `json:"application_id"`
	}
)

var botJSON = jsonUser{ID: botUserID, Username: "tttbot", Discriminator: "0", Bot: true}

func userJSON(id string) jsonUser {
	i, _ := strconv.ParseInt(id, 10, 64)
	n := strconv.FormatInt(i-idUsers, 10)
	return jsonUser{ID: id, Username: "player" + n, GlobalName: "Player " + n, Discriminator: "0"}
}

// response is the bot's inline answer.
type response struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data *responseData                     `json:"data"`
}

type responseData struct {
	Content    string                 `json:"content"`
	Flags      discordgo.MessageFlags `json:"flags"`
	Components json.RawMessage        `json:"components"`
}

func (r *response) ephemeral() bool {
	return r.Data != nil && r.Data.Flags&discordgo.MessageFlagsEphemeral != 0
}

func (r *response) String() string {
	if r == nil {
		return "no answer"
	}
	if r.Data == nil {
		return fmt.Sprintf("type %d", r.Type)
	}
	c := r.Data.Content
	if len(c) > 80 {
		c = c[:80] + "…"
	}
	return fmt.Sprintf("type %d flags %d %q", r.Type, r.Data.Flags, c)
}

// board is what a message shows: its buttons by custom_id.
type board struct {
	game                     int64
	version                  int
	marks                    []byte   // 'X', 'O' or 0 per cell; empty on a challenge
	ids                      []string // each cell's custom_id
	free                     []int    // the cells that can be clicked
	accept, decline, rematch string
	content                  string
	components               json.RawMessage
}

// open reports whether b shows an open game: a challenge to answer or a
// cell to play.
func (b *board) open() bool { return b.accept != "" || len(b.free) > 0 }

func (b *board) count() int {
	n := 0
	for _, m := range b.marks {
		n += btoi(m != 0)
	}
	return n
}

func (b *board) firstMark() int {
	for i, m := range b.marks {
		if m != 0 {
			return i
		}
	}
	return -1
}

// diff lists the cells marked in b but not in a.
func diff(a, b []byte) []int {
	var out []int
	for i := range b {
		if b[i] != 0 && a[i] == 0 {
			out = append(out, i)
		}
	}
	return out
}

// parseBoard reads the buttons of an answer: a board's cells, a challenge's
// Accept and Decline, a finished game's Rematch.
func parseBoard(r *response) (board, error) {
	var b board
	if r == nil || r.Data == nil {
		return b, errors.New("no data")
	}
	b.content, b.components = r.Data.Content, r.Data.Components
	if len(b.components) == 0 {
		b.components = json.RawMessage("[]")
	}
	var rows []struct {
		Components []struct {
			Label    string `json:"label"`
			CustomID string `json:"custom_id"`
			Disabled bool   `json:"disabled"`
		} `json:"components"`
	}
	if err := json127.Unmarshal(b.components, &rows); err != nil {
		return b, fmt.Errorf("components: %w", err)
	}
	for _, row := range rows {
		for _, btn := range row.Components {
			c, err := commands.ParseCustomID(btn.CustomID)
			if err != nil {
				return b, err
			}
			b.game = c.GameID
			if c.Version > 0 {
				b.version = c.Version
			}
			switch c.Action {
			case commands.ActAccept:
				b.accept = btn.CustomID
			case commands.ActDecline:
				b.decline = btn.CustomID
			case commands.ActRematch:
				b.rematch = btn.CustomID
			case commands.ActMove:
				if c.Cell != len(b.marks) {
					return b, fmt.Errorf("custom_id %q out of order", btn.CustomID)
				}
				var m byte
				if btn.Label == "X" || btn.Label == "O" {
					m = btn.Label[0]
				}
				b.marks = append(b.marks, m)
				b.ids = append(b.ids, btn.CustomID)
				if !btn.Disabled {
					b.free = append(b.free, c.Cell)
				}
			}
		}
	}
	return b, nil
}
