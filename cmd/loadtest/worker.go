package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

// The simulated players of the load test. Each worker plays one game at a
// time with players of its own, so the bot's answers are predictable: a
// move the driver makes must be accepted, a bad request refused and without
// effect (the next move, made against the version the driver tracks, proves
// it). Every move the bot answers with a board showing it is acknowledged,
// and the database check looks for each.

var (
	errStopped    = errors.New("load stopped")
	errWalkedAway = errors.New("the players walked away from their game")
	errLost       = errors.New("request lost with the killed bot")
	errUnexpected = errors.New("unexpected answer")
	errAbandoned  = errors.New("the bot answered that it failed")
)

type worker struct {
	d       *driver
	rng     *rand.Rand
	players []string

	conns     []botConn // one per bot
	next      int       // the bot the next request goes to, round robin
	sentTo    int       // the bot the last request went to
	sentEpoch int64     // and its epoch then

	lat      [numKinds][]time.Duration
	bySize   [2][]time.Duration // all kinds, on 3×3 and on bigger boards
	big      bool               // the current session is on a bigger board
	warm     []time.Duration    // latencies of the warm-up, all kinds
	errs     [numKinds]int
	errMsgs  []string
	sessions map[string]int
	acked    []tttbot.Move
	games    []int64       // every game the bot answered with
	slowest  time.Duration // the slowest answer past lateAfter
	// Games the driver left to their deadlines: walked away from, open
	// when the load stopped, or in a state it could not settle.
	letGo []int64

	// Players who walked away from a game, until its deadline has fired;
	// they sit out meanwhile, since their open game would refuse another
	// in its channel.
	parked map[string]time.Time
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
	admin          bool     // the member may manage the guild
	guest          bool     // the guild has not installed the bot: see guestGuild
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
			w.letGo = append(w.letGo, s.game)
			return
		case errors.Is(err, errWalkedAway):
			w.leaveOpen(s)
			w.sessions["walked away"]++
		case err != nil && !w.recover(ctx, s):
			w.leaveOpen(s)
		}
	}
}

// leaveOpen leaves the session's game to its deadline. Its players sit out
// until it is due, the deadline and tttbot.DeadlineGrace later, since until
// the timers end it the game holds its channel and a new game there is
// refused.
func (w *worker) leaveOpen(s *session) {
	until := time.Now().Add(w.d.o.turnTimeout + tttbot.DeadlineGrace + parkMargin)
	for _, h := range s.humans {
		w.parked[h] = until
	}
	w.letGo = append(w.letGo, s.game)
}

// recoverTries is how many times recover asks each player to resign: a
// database down or stalled fails the first tries, and a game left open
// ties its players up until its deadline.
const recoverTries = 5

// recover ends a session's game whose state is unknown, so that its
// players can play again in its channel: each player resigns. It reports
// whether every resignation was answered, a game ended or none to end.
func (w *worker) recover(ctx context.Context, s *session) bool {
	for _, h := range s.humans {
		for try := 1; ; try++ {
			r, err := w.command(ctx, kRecover, s, h, "resign", nil)
			if err == nil && r.Type != discordgo.InteractionResponseChannelMessageWithSource {
				w.fail(kRecover, "got %s, want a message", r)
				return false
			}
			if err == nil {
				break
			}
			if errors.Is(err, errStopped) || try == recoverTries || !errors.Is(err, errAbandoned) && !errors.Is(err, errLost) {
				return false
			}
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
				return false
			}
		}
	}
	return true
}

// parkMargin is how long after a walked-away game becomes due (its deadline
// and tttbot.DeadlineGrace) its players sit out: the timers fire each second,
// and until they end the game it holds its channel.
const parkMargin = 2 * time.Second

// guestGuild reports whether guild n, of the run's channels/16, is one of
// the first -guests of them: a server that has not installed the bot.
func (w *worker) guestGuild(n int) bool {
	guilds := (w.d.o.channels + 15) / 16
	return float64(n)+0.5 < w.d.o.guests*float64(guilds)
}

// newSession seats players at a new table. It waits while fewer than two
// players are free.
func (w *worker) newSession(ctx context.Context) (*session, error) {
	players, err := w.free(ctx)
	if err != nil {
		return nil, err
	}
	c := w.rng.IntN(w.d.o.channels)
	s := &session{guild: snowflake(idGuilds, c/16), channel: snowflake(idChannels, c), guest: w.guestGuild(c / 16), vsBot: w.rng.IntN(2) == 0}
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
	k, r, err := w.create(ctx, s)
	for {
		if err != nil {
			return err
		}
		b, berr := parseBoard(r)
		if berr != nil || r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.ephemeral() || b.game == 0 {
			return w.fail(k, "got %s (%v), want a new game", r, berr)
		}
		s.game, s.msg, s.cur, s.prev = b.game, r.msgID, b, nil
		w.games = append(w.games, b.game)
		if s.vsBot {
			w.sessions["bot games"]++
			opened := s.x == botUserID
			if opened && b.count() == 0 && w.d.o.soak > 0 {
				// The bot's opening move, stored with the game, failed
				// (its AI, under a fault) and its timers make it: the
				// table leaves the game to them.
				return errWalkedAway
			}
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
		r, err = w.click(ctx, k, s, clicker, s.cur.rematch, &s.cur)
	}
}

// create starts the table's first game with /ttt challenge.
func (w *worker) create(ctx context.Context, s *session) (kind, *response, error) {
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
	r, err := w.command(ctx, k, s, s.humans[0], "challenge", opts)
	return k, r, err
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
		r, err := w.click(ctx, kDecline, s, opponent, s.cur.decline, &s.cur)
		if err != nil {
			return true, err
		}
		if b, err := parseBoard(r); err != nil || r.Type != discordgo.InteractionResponseUpdateMessage || r.ephemeral() || b.accept != "" {
			return true, w.fail(kDecline, "got %s, want the declined challenge", r)
		}
		w.sessions["declined"]++
		return true, nil
	case p < 7:
		r, err := w.command(ctx, kWithdraw, s, challenger, "resign", nil)
		if err != nil {
			return true, err
		}
		if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.ephemeral() {
			return true, w.fail(kWithdraw, "got %s, want the withdrawn challenge", r)
		}
		w.sessions["withdrawn"]++
		return true, nil
	}
	r, err := w.click(ctx, kAccept, s, opponent, s.cur.accept, &s.cur)
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
			r, err := w.command(ctx, kResign, s, h, "resign", nil)
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
	r, err := w.click(ctx, k, s, me, s.cur.ids[cell], &s.cur)
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
		r, err = w.click(ctx, k, s, mover, s.prev.ids[s.prev.free[w.rng.IntN(len(s.prev.free))]], s.prev)
	case choice == 2 && active && !s.vsBot:
		k = kOutOfTurn
		r, err = w.click(ctx, k, s, s.other(mover), button, &s.cur)
	case choice == 3:
		k = kConflict
		r, err = w.command(ctx, k, s, s.humans[w.rng.IntN(len(s.humans))], "challenge", nil)
	default:
		stranger := w.players[w.rng.IntN(len(w.players))]
		for slices.Contains(s.humans, stranger) {
			stranger = w.players[w.rng.IntN(len(w.players))]
		}
		k = kStranger
		r, err = w.click(ctx, k, s, stranger, button, &s.cur)
	}
	if err != nil {
		return err
	}
	// Where the bot reaches a board only through its clicks' tokens, a
	// stale click's answer redraws the board as it is.
	if k == kStale && s.guest && r.Type == discordgo.InteractionResponseUpdateMessage {
		if b, err := parseBoard(r); err != nil || b.version != s.cur.version {
			return w.fail(k, "got %s, want the board redrawn at version %d", r, s.cur.version)
		}
		return nil
	}
	// A command's refusal after a deferral fills the message the deferral
	// made, public when the command's answer in time would have been.
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || !r.ephemeral() && !(r.late && k == kConflict) {
		return w.fail(k, "got %s, want a refusal, ephemeral unless deferred", r)
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
