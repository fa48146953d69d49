package discordtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Identify is what a bot sent to open a gateway session.
type Identify struct {
	Token     string    `json:"token"` // as sent: "Bot TOKEN"
	Intents   int       `json:"intents"`
	Compress  bool      `json:"compress"`
	Shard     *[2]int   `json:"shard"` // [shard_id, num_shards]; nil for an unsharded session
	SessionID string    `json:"-"`     // the session READY gave it
	At        time.Time `json:"-"`     // when it arrived
}

// Shard is one of a bot's gateway shards: ID of Count.
type Shard struct{ ID, Count int }

func (sh Shard) String() string { return fmt.Sprintf("%d/%d", sh.ID, sh.Count) }

// OnShard is the shard the session serves; an unsharded one is 0 of 1.
func (id Identify) OnShard() Shard {
	if id.Shard == nil {
		return Shard{0, 1}
	}
	return Shard{id.Shard[0], id.Shard[1]}
}

// GuildShard is the shard that receives a guild's events among count:
// (guild_id >> 22) % count, as Discord routes them; a DM ("") goes to
// shard 0.
func GuildShard(guildID string, count int) int {
	g, err := strconv.ParseUint(guildID, 10, 64)
	if err != nil || count < 1 {
		return 0
	}
	return int((g >> 22) % uint64(count))
}

// session is a gateway session: it outlives a connection, so a bot that
// reconnects can RESUME and get the events it missed.
type session struct {
	id       string
	identify Identify
	sendMu   sync.Mutex // orders dispatches with their sequence numbers

	// guarded by Server.mu
	order   int // of the identifies, to tell the newest
	seq     int64
	log     []frame // every dispatch, for RESUME
	conn    *conn   // nil while disconnected
	invalid bool    // closed by the client: no RESUME
}

// conn is one websocket connection.
type conn struct {
	ws   *websocket.Conn
	wmu  sync.Mutex
	sess *session // guarded by Server.mu
}

// frame is a gateway payload.
type frame struct {
	Op int     `json:"op"`
	D  any     `json:"d"`
	S  *int64  `json:"s"`
	T  *string `json:"t"`
}

// Gateway opcodes and close codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opResume         = 6
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatAck   = 11

	closeDecodeError          = 4002
	closeNotAuthenticated     = 4003
	closeAuthenticationFailed = 4004
	closeAlreadyAuthenticated = 4005
	closeRateLimited          = 4008
	closeInvalidShard         = 4010
)

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

func (c *conn) send(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
	return c.ws.WriteJSON(v)
}

func (c *conn) close(code int, text string) {
	c.wmu.Lock()
	c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
	c.wmu.Unlock()
	c.ws.Close()
}

// serveGateway speaks the gateway on one connection, in plain JSON text
// frames: discordgo inflates only binary ones, so "compress" can be ignored.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closed", http.StatusServiceUnavailable)
		return
	}
	s.gwWG.Add(1)
	hang := s.hangGateway
	if hang {
		s.hungGateway++
		s.notify()
	}
	s.mu.Unlock()
	defer s.gwWG.Done()
	if hang { // until UnhangGateway, or the server closes
		if s.wait(r.Context(), func() bool { return !s.hangGateway }) != nil {
			return
		}
	}

	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &conn{ws: ws}
	s.mu.Lock()
	closed := s.closed
	s.conns[c] = true
	s.mu.Unlock()
	defer s.dropConn(c)
	if closed {
		return
	}
	if enc := r.URL.Query().Get("encoding"); enc != "" && enc != "json" {
		c.close(closeDecodeError, "Only JSON encoding is spoken here.")
		return
	}
	hello := map[string]any{"heartbeat_interval": s.opts.HeartbeatInterval.Milliseconds()}
	if c.send(frame{Op: opHello, D: hello}) != nil {
		return
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) {
				s.mu.Lock()
				if c.sess != nil {
					c.sess.invalid = true // Discord ends a session closed this way
				}
				s.mu.Unlock()
			}
			return
		}
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if json.Unmarshal(data, &p) != nil {
			c.close(closeDecodeError, "Error while decoding payload.")
			return
		}
		s.mu.Lock()
		authed := c.sess != nil
		s.mu.Unlock()
		switch {
		case p.Op == opHeartbeat:
			s.mu.Lock()
			s.heartbeats++
			s.notify()
			s.mu.Unlock()
			c.send(frame{Op: opHeartbeatAck})
		case p.Op == opIdentify && authed, p.Op == opResume && authed:
			c.close(closeAlreadyAuthenticated, "You sent more than one identify payload.")
			return
		case p.Op == opIdentify:
			if !s.identify(c, p.D) {
				return
			}
		case p.Op == opResume:
			if !s.resume(c, p.D) {
				return
			}
		case !authed:
			c.close(closeNotAuthenticated, "You sent a payload prior to identifying.")
			return
		}
		// Presence updates, member requests and the like need no answer.
	}
}

func (s *Server) dropConn(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	if c.sess != nil && c.sess.conn == c {
		c.sess.conn = nil
	}
	s.notify()
	s.mu.Unlock()
	c.ws.Close()
}

func (s *Server) tokenOK(token string) bool {
	return strings.TrimPrefix(token, "Bot ") == s.opts.Token
}

// identify opens a new session on c: READY, then the guilds of its shard.
// It holds the bot to Discord's rules: a shard in range, one identify per
// rate-limit bucket per IdentifyInterval, and the session start limit.
func (s *Server) identify(c *conn, d json.RawMessage) bool {
	var id Identify
	if json.Unmarshal(d, &id) != nil || !s.tokenOK(id.Token) {
		c.close(closeAuthenticationFailed, "Authentication failed.")
		return false
	}
	sh := id.OnShard()
	if sh.Count < 1 || sh.ID < 0 || sh.ID >= sh.Count {
		c.close(closeInvalidShard, "Invalid shard.")
		return false
	}
	id.At = time.Now()
	s.mu.Lock()
	s.resetStarts()
	bucket := sh.ID % s.opts.MaxConcurrency
	var problem string
	if last, ok := s.lastIdentify[bucket]; ok && id.At.Sub(last) < s.opts.IdentifyInterval {
		problem = fmt.Sprintf("shard %s identified %s after the last identify of its rate-limit bucket %d (shard_id %% max_concurrency %d); Discord allows one per %s",
			sh, id.At.Sub(last).Round(time.Millisecond), bucket, s.opts.MaxConcurrency, s.opts.IdentifyInterval)
	} else if s.startsLeft <= 0 {
		problem = fmt.Sprintf("shard %s identified past the session start limit of %d, %s before it resets",
			sh, s.opts.SessionStarts, time.Until(s.startsReset).Round(time.Millisecond))
	}
	if problem != "" {
		s.mu.Unlock()
		s.tb.Errorf("discordtest: %s", problem)
		c.close(closeRateLimited, "You are being rate limited.")
		return false
	}
	s.lastIdentify[bucket] = id.At
	s.startsLeft--
	sess := &session{id: s.newID(), conn: c, order: len(s.identifies)}
	id.SessionID = sess.id
	sess.identify = id
	c.sess = sess
	s.sessions[sess.id] = sess
	var guilds []string
	for _, g := range s.guilds {
		if GuildShard(g, sh.Count) == sh.ID {
			guilds = append(guilds, g)
		}
	}
	channels := map[string][]any{}
	for ch, g := range s.channels {
		channels[g] = append(channels[g], map[string]any{"id": ch, "type": 0, "guild_id": g, "name": "channel-" + ch})
	}
	members := len(s.users)
	// Recorded before READY goes out, so that a test that sees the
	// session ready sees it here too; events pushed to it meanwhile wait
	// for sendMu, after READY and the guilds.
	sess.sendMu.Lock()
	defer sess.sendMu.Unlock()
	s.identifies = append(s.identifies, id)
	s.current[sh] = sess
	s.notify()
	s.mu.Unlock()

	user := s.bot.wire()
	user["verified"], user["mfa_enabled"], user["flags"] = true, false, 0
	unavailable := []any{}
	for _, g := range guilds {
		unavailable = append(unavailable, map[string]any{"id": g, "unavailable": true})
	}
	ready := map[string]any{
		"v":                  9,
		"user":               user,
		"guilds":             unavailable,
		"session_id":         sess.id,
		"resume_gateway_url": s.GatewayURL(),
		"application":        map[string]any{"id": s.opts.ApplicationID, "flags": 0},
		"private_channels":   []any{},
	}
	if id.Shard != nil {
		ready["shard"] = []int{sh.ID, sh.Count}
	}
	s.dispatchLocked(sess, "READY", ready)
	for _, g := range guilds {
		chs := channels[g]
		if chs == nil {
			chs = []any{}
		}
		s.dispatchLocked(sess, "GUILD_CREATE", map[string]any{
			"id":           g,
			"name":         "discordtest",
			"owner_id":     s.bot.ID,
			"joined_at":    time.Now().Format(time.RFC3339Nano),
			"unavailable":  false,
			"large":        false,
			"member_count": members,
			"channels":     chs,
			"roles":        []any{},
			"emojis":       []any{},
			"members":      []any{},
			"threads":      []any{},
			"voice_states": []any{},
			"presences":    []any{},
		})
	}
	return true
}

// resetStarts refills the session starts once their reset time has come.
// s.mu must be held.
func (s *Server) resetStarts() {
	if now := time.Now(); !now.Before(s.startsReset) {
		s.startsLeft = s.opts.SessionStarts
		s.startsReset = now.Add(s.opts.SessionStartsReset)
	}
}

// resume reattaches a session to c and replays what it missed; a session
// that cannot resume gets INVALID_SESSION, and discordgo identifies anew.
func (s *Server) resume(c *conn, d json.RawMessage) bool {
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	if json.Unmarshal(d, &r) != nil || !s.tokenOK(r.Token) {
		c.close(closeAuthenticationFailed, "Authentication failed.")
		return false
	}
	s.mu.Lock()
	sess := s.sessions[r.SessionID]
	resumable := sess != nil && !sess.invalid
	s.mu.Unlock()
	if !resumable {
		return c.send(frame{Op: opInvalidSession, D: false}) == nil
	}

	sess.sendMu.Lock()
	defer sess.sendMu.Unlock()
	s.mu.Lock()
	old := sess.conn
	sess.conn, c.sess = c, sess
	var missed []frame
	for _, f := range sess.log {
		if *f.S > r.Seq {
			missed = append(missed, f)
		}
	}
	s.mu.Unlock()
	if old != nil {
		old.ws.Close()
	}
	for _, f := range missed {
		if c.send(f) != nil {
			return false
		}
	}
	s.dispatchLocked(sess, "RESUMED", map[string]any{})
	s.mu.Lock()
	s.notify()
	s.mu.Unlock()
	return true
}

// dispatchLocked sends an event to a session, sess.sendMu held; one that
// cannot be written now is kept for RESUME.
func (s *Server) dispatchLocked(sess *session, t string, d any) {
	s.mu.Lock()
	sess.seq++
	seq := sess.seq
	f := frame{Op: opDispatch, D: d, S: &seq, T: &t}
	sess.log = append(sess.log, f)
	c := sess.conn
	s.mu.Unlock()
	if c != nil {
		c.send(f)
	}
}

// sessionFor is the connected session that receives a guild's events (a
// DM's for ""): the newest of those whose shard, among its count, is the
// guild's. s.mu must be held.
func (s *Server) sessionFor(guildID string) *session {
	var best *session
	for sh, sess := range s.current {
		if sess.conn == nil || GuildShard(guildID, sh.Count) != sh.ID {
			continue
		}
		if best == nil || sess.order > best.order {
			best = sess
		}
	}
	return best
}

// newest is the newest identified session that is connected. s.mu must be
// held.
func (s *Server) newest() *session {
	var best *session
	for _, sess := range s.current {
		if sess.conn != nil && (best == nil || sess.order > best.order) {
			best = sess
		}
	}
	return best
}

// WaitReady waits until a bot has a READY gateway session and returns what
// the newest identified with.
func (s *Server) WaitReady(tb testing.TB) Identify {
	tb.Helper()
	var id Identify
	s.waitTB(tb, func() string { return "a READY gateway session" }, func() bool {
		if sess := s.newest(); sess != nil {
			id = sess.identify
			return true
		}
		return false
	})
	return id
}

// WaitShards waits until every shard of count has a connected session and
// returns what each identified with, by shard.
func (s *Server) WaitShards(tb testing.TB, count int) []Identify {
	tb.Helper()
	ids := make([]Identify, count)
	var missing []int
	s.waitTB(tb, func() string { return fmt.Sprintf("sessions of shards %v of %d", missing, count) }, func() bool {
		missing = missing[:0]
		for i := range count {
			sess := s.current[Shard{i, count}]
			if sess == nil || sess.conn == nil {
				missing = append(missing, i)
				continue
			}
			ids[i] = sess.identify
		}
		return len(missing) == 0
	})
	return ids
}

// Identifies lists every successful IDENTIFY, oldest first: one per gateway
// session a bot opened.
func (s *Server) Identifies() []Identify {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Identify(nil), s.identifies...)
}

// Heartbeats counts the heartbeats received.
func (s *Server) Heartbeats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.heartbeats
}

// Disconnect drops every gateway connection without a close frame, as when
// a network path breaks; discordgo reconnects and resumes, and events
// pushed meanwhile are replayed.
func (s *Server) Disconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		c.ws.Close()
	}
}

// DisconnectShard drops the connections of the sessions of one shard ID,
// as Disconnect does every connection, and returns how many it dropped.
func (s *Server) DisconnectShard(shard int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for sh, sess := range s.current {
		if sh.ID == shard && sess.conn != nil {
			sess.conn.ws.Close()
			n++
		}
	}
	return n
}

// InvalidateShard ends the sessions of one shard ID, as Discord does when
// it will not let a session resume, and drops their connections: a bot
// that tries to resume gets INVALID_SESSION and must identify anew.
func (s *Server) InvalidateShard(shard int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for sh, sess := range s.current {
		if sh.ID == shard {
			sess.invalid = true
			if sess.conn != nil {
				sess.conn.ws.Close()
			}
			// Events wait for the next session: this one never resumes.
			delete(s.current, sh)
		}
	}
}

// push dispatches an event of a guild ("" for a DM) to the session that
// receives it, waiting for one.
func (s *Server) push(ctx context.Context, guildID, t string, d any, sent func()) error {
	var sess *session
	err := s.wait(ctx, func() bool {
		sess = s.sessionFor(guildID)
		return sess != nil
	})
	if err != nil {
		return err
	}
	sess.sendMu.Lock()
	defer sess.sendMu.Unlock()
	s.mu.Lock()
	sent()
	s.mu.Unlock()
	s.dispatchLocked(sess, t, d)
	return nil
}
