// Package discordtest is a local Discord for end-to-end tests of a bot that
// uses discordgo: an HTTP server that speaks the gateway (HELLO, IDENTIFY,
// READY, heartbeats, RESUME; several shards, each guild's events on its own,
// identifies paced as Discord paces them) and the REST routes a bot
// answering interactions uses, keeps the messages the bot posts so that
// clicks carry the current message, records every call, injects 429s and
// 5xx, and checks every payload against Discord's documented limits,
// failing the test on a violation and answering 400 as Discord does. Beside
// its guild it has the places a user's install of the app reaches — the DM
// with the bot (NewDMChannel), DMs and group DMs between users (NewUserDM,
// NewGroupDM), servers that did not install the app (NewGuestGuild) — where
// channel endpoints answer Missing Access, interaction tokens expire 15
// minutes into the server's clock (SetClock) and follow-ups stop at 5.
//
// Point discordgo at it with discord.NewTransport(srv.URL(), nil) as the
// session's HTTP transport; the gateway URL is discovered from GET /gateway.
// A test then reads as a conversation:
//
//	srv := discordtest.NewServer(t)
//	startBot(t, srv.URL(), srv.Token()) // the bot under test
//	alice, bob := srv.NewUser("alice"), srv.NewUser("bob")
//	ch := srv.NewChannel()
//
//	msg := srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
//	board := srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
//	r := srv.Click(t, bob, board, board.Grid()[0][0].CustomID).Wait(t) // not bob's turn
//	if !r.Ephemeral() { ... }
package discordtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Options configure a Server; the zero value of each field picks a default.
type Options struct {
	Token         string // the bot token, without "Bot "; default "test-token"
	BotID         string // the bot's user ID; default "1000"
	BotName       string // default "tttbot"
	ApplicationID string // default "1000"
	GuildID       string // the guild interactions come from; default "2000"
	GuildLocale   string // the guild's language, a Discord locale; default "en-US"

	// Timeout bounds every Wait; default 10s.
	Timeout time.Duration
	// CallbackDeadline is how long the bot has to answer an interaction
	// before Discord shows "This interaction failed"; default 3s, as Discord.
	CallbackDeadline time.Duration
	// HeartbeatInterval is sent in HELLO; default 41.25s, as Discord.
	HeartbeatInterval time.Duration
	// RetryAfter is what a 429 asks the client to wait; default 50ms.
	RetryAfter time.Duration

	// Shards is the shard count GET /gateway/bot recommends; default 1.
	Shards int
	// MaxConcurrency is session_start_limit.max_concurrency: identifies
	// fall in buckets shard_id % MaxConcurrency; default 1.
	MaxConcurrency int
	// IdentifyInterval is how often each bucket may identify: a second
	// identify in a bucket within it fails the test. Default 5s, as
	// Discord; tests that start bots often scale it down, and the bot
	// with it.
	IdentifyInterval time.Duration
	// SessionStarts is session_start_limit.total, and what remains of it
	// at first; an identify past it fails the test. Default 1000.
	SessionStarts int
	// SessionStartsReset is when the remaining session starts return to
	// SessionStarts, counted from the server's start; default 24h.
	SessionStartsReset time.Duration
}

func (o *Options) defaults() {
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&o.Token, "test-token")
	def(&o.BotID, "1000")
	def(&o.BotName, "tttbot")
	def(&o.ApplicationID, "1000")
	def(&o.GuildID, "2000")
	def(&o.GuildLocale, "en-US")
	dur := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	dur(&o.Timeout, 10*time.Second)
	dur(&o.CallbackDeadline, 3*time.Second)
	dur(&o.HeartbeatInterval, 41250*time.Millisecond)
	dur(&o.RetryAfter, 50*time.Millisecond)
	dur(&o.IdentifyInterval, 5*time.Second)
	dur(&o.SessionStartsReset, 24*time.Hour)
	num := func(n *int, v int) {
		if *n <= 0 {
			*n = v
		}
	}
	num(&o.Shards, 1)
	num(&o.MaxConcurrency, 1)
	num(&o.SessionStarts, 1000)
}

// Server is a local Discord. Its methods are safe for concurrent use.
type Server struct {
	tb   testing.TB
	opts Options
	http *httptest.Server
	bot  User

	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every change, to wake waiters
	closed  bool
	lastID  int64

	now          func() time.Time // ages interaction tokens
	users        map[string]User
	channels     map[string]string // channel ID → guild ID ("" for a DM)
	roles        map[string]string // role ID → name
	emojis       map[string]Emoji  // custom emojis by ID
	private      map[string]int    // DMs and group DMs between users → channel type
	guests       map[string]bool   // guilds where only users installed the app
	restricted   map[string]bool   // guilds whose members lack Use External Apps
	messages     map[string]*Message
	order        []string // message IDs as created
	interactions map[string]*Interaction
	byToken      map[string]*Interaction
	commands     map[string][]*discordgo.ApplicationCommand // by guild ID, "" for global
	calls        []Call
	faults       []*fault
	hangGateway  bool // websocket handshakes get no answer
	hungGateway  int  // handshakes left unanswered so far

	endpoint *endpoint // set by UseEndpoint
	holds    []*Hold

	sessions   map[string]*session
	current    map[Shard]*session // the newest identified session of each shard
	conns      map[*conn]bool
	identifies []Identify
	heartbeats int
	gwWG       sync.WaitGroup

	guilds       []string          // every guild, the default first
	lastIdentify map[int]time.Time // by rate-limit bucket
	startsLeft   int               // session starts until startsReset
	startsReset  time.Time
}

// NewServer starts a local Discord with default Options; it closes when the
// test ends.
func NewServer(tb testing.TB) *Server { return NewServerWith(tb, Options{}) }

// NewServerWith starts a local Discord; it closes when the test ends.
func NewServerWith(tb testing.TB, opts Options) *Server {
	opts.defaults()
	s := &Server{
		tb:           tb,
		opts:         opts,
		changed:      make(chan struct{}),
		now:          time.Now,
		users:        map[string]User{},
		channels:     map[string]string{},
		roles:        map[string]string{},
		emojis:       map[string]Emoji{},
		private:      map[string]int{},
		guests:       map[string]bool{},
		restricted:   map[string]bool{},
		messages:     map[string]*Message{},
		interactions: map[string]*Interaction{},
		byToken:      map[string]*Interaction{},
		commands:     map[string][]*discordgo.ApplicationCommand{},
		sessions:     map[string]*session{},
		current:      map[Shard]*session{},
		conns:        map[*conn]bool{},
		guilds:       []string{opts.GuildID},
		lastIdentify: map[int]time.Time{},
		startsLeft:   opts.SessionStarts,
		startsReset:  time.Now().Add(opts.SessionStartsReset),
	}
	s.bot = User{ID: opts.BotID, Username: opts.BotName, Bot: true}
	s.users[s.bot.ID] = s.bot
	// Started once assigned: its handlers read s.http, and a bot in another
	// process gives the race detector no order between the two.
	s.http = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	s.http.Start()
	tb.Cleanup(s.Close)
	return s
}

// URL is the REST base, "http://127.0.0.1:PORT/api/v9": the bot's api_url.
func (s *Server) URL() string { return s.http.URL + apiPrefix }

// GatewayURL is the websocket URL GET /gateway answers.
func (s *Server) GatewayURL() string { return "ws" + strings.TrimPrefix(s.http.URL, "http") + "/ws/" }

// Token is the bot token the server accepts (without "Bot ").
func (s *Server) Token() string { return s.opts.Token }

// ApplicationID is the bot's application ID.
func (s *Server) ApplicationID() string { return s.opts.ApplicationID }

// GuildID is the guild that channels from NewChannel belong to.
func (s *Server) GuildID() string { return s.opts.GuildID }

// Bot is the bot's own user.
func (s *Server) Bot() User { return s.bot }

// Close disconnects every gateway connection and stops the server. It runs
// at the end of the test; calling it earlier simulates an outage.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	for c := range s.conns {
		c.ws.Close()
	}
	s.notify()
	s.mu.Unlock()
	s.http.Close()
	s.gwWG.Wait()
}

// User is a Discord user.
type User struct {
	ID       string
	Username string
	Bot      bool
	Admin    bool     // has Manage Server in the guild
	Roles    []string // the member's roles in the guild (IDs from NewRole)
	Locale   string   // the language of the user's client, a Discord locale; "" is en-US
}

// Mention is how a message mentions the user: "<@ID>".
func (u User) Mention() string { return "<@" + u.ID + ">" }

// NewUser adds a person to the guild.
func (s *Server) NewUser(name string) User { return s.addUser(name, false) }

// NewAdminUser adds a person who may manage the guild.
func (s *Server) NewAdminUser(name string) User {
	u := s.addUser(name, false)
	u.Admin = true
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[u.ID] = u
	return u
}

// NewBotUser adds another bot to the guild.
func (s *Server) NewBotUser(name string) User { return s.addUser(name, true) }

func (s *Server) addUser(name string, bot bool) User {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := User{ID: s.newID(), Username: name, Bot: bot}
	s.users[u.ID] = u
	return u
}

// NewRole adds a role to the guild and returns its ID. Give it to a user
// by listing it in their Roles.
func (s *Server) NewRole(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.newID()
	s.roles[id] = name
	return id
}

// Emoji is a guild's custom emoji.
type Emoji struct {
	ID, Name, GuildID string
	Animated          bool
	Roles             []string // the roles it is reserved for; none: everyone's
}

// String is the emoji as a message writes it: <:name:id> or <a:name:id>.
func (e Emoji) String() string {
	if e.Animated {
		return "<a:" + e.Name + ":" + e.ID + ">"
	}
	return "<:" + e.Name + ":" + e.ID + ">"
}

// NewEmoji adds a custom emoji to a guild: the bot's (GuildID) or another,
// whose emojis the bot cannot use.
func (s *Server) NewEmoji(guildID, name string, animated bool, roles ...string) Emoji {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := Emoji{ID: s.newID(), Name: name, GuildID: guildID, Animated: animated, Roles: roles}
	s.emojis[e.ID] = e
	return e
}

// NewChannel adds a text channel to the guild and returns its ID.
func (s *Server) NewChannel() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.newID()
	s.channels[id] = s.opts.GuildID
	return id
}

// NewGuild adds a guild whose interactions Discord delivers on shard of
// count shards: (guild_id >> 22) % count == shard. The bot is a member,
// and may register commands there.
func (s *Server) NewGuild(shard, count int) string {
	if count < 1 || shard < 0 || shard >= count {
		panic(fmt.Sprintf("discordtest: NewGuild: no shard %d of %d", shard, count))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ms := s.lastID>>22 + 1
	ms += (int64(shard) - ms%int64(count) + int64(count)) % int64(count)
	s.lastID = ms << 22
	id := strconv.FormatInt(s.lastID, 10)
	s.guilds = append(s.guilds, id)
	return id
}

// NewChannelIn adds a text channel to a guild of NewGuild or NewGuestGuild
// and returns its ID.
func (s *Server) NewChannelIn(guildID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.newID()
	s.channels[id] = guildID
	return id
}

// NewDMChannel opens a direct-message channel with the bot; interactions
// there carry a user instead of a guild member, and no guild, and come from
// the user's install of the app.
func (s *Server) NewDMChannel() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.newID()
	s.channels[id] = ""
	return id
}

// discordEpoch is the first millisecond of 2015, where snowflakes count from.
const discordEpoch = 1420070400000

// newID returns a fresh snowflake, increasing. s.mu must be held.
func (s *Server) newID() string {
	id := (time.Now().UnixMilli() - discordEpoch) << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return strconv.FormatInt(id, 10)
}

// notify wakes every waiter. s.mu must be held.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// wait blocks until cond, called with s.mu held, is true.
func (s *Server) wait(ctx context.Context, cond func() bool) error {
	for {
		s.mu.Lock()
		ok, closed, ch := cond(), s.closed, s.changed
		s.mu.Unlock()
		switch {
		case ok:
			return nil
		case closed:
			return fmt.Errorf("server closed")
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// waitTB waits up to Options.Timeout and fails the test if cond stays false.
func (s *Server) waitTB(tb testing.TB, what func() string, cond func() bool) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.Timeout)
	defer cancel()
	if err := s.wait(ctx, cond); err != nil {
		tb.Fatalf("discordtest: waiting for %s: %v", what(), err)
	}
}

// Call is one REST request the server received.
type Call struct {
	Method string
	Path   string // below the API base, e.g. "/channels/12/messages"
	Query  string
	// Route is the matched route, e.g. RouteCreateMessage; empty when the
	// server (like Discord) has no such route.
	Route string
	// Body is the JSON sent: of a multipart body, its payload_json.
	Body []byte
	// Files are the files a multipart body uploaded.
	Files  []File
	Status int // what the server answered
}

func (c Call) String() string {
	q := ""
	if c.Query != "" {
		q = "?" + c.Query
	}
	return fmt.Sprintf("%s %s%s → %d", c.Method, c.Path, q, c.Status)
}

// matches reports whether the call is to route: a pattern such as
// RouteCallback, or a concrete "METHOD /path".
func (c Call) matches(route string) bool {
	return route == c.Route || route == c.Method+" "+c.Path
}

// Calls lists every REST call so far, in order.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// CallsTo lists the calls to route: one of the Route constants or a
// concrete "METHOD /path". It panics on a pattern that is no route, so a
// typo cannot make an assertion pass.
func (s *Server) CallsTo(route string) []Call {
	if err := checkRoute(route); err != nil {
		panic(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.callsTo(route)
}

func (s *Server) callsTo(route string) []Call {
	var out []Call
	for _, c := range s.calls {
		if c.matches(route) {
			out = append(out, c)
		}
	}
	return out
}

// Unrouted lists the calls to routes this server (and Discord) lacks.
func (s *Server) Unrouted() []Call { return s.CallsTo("") }

// WaitCalls waits until at least n calls to route have been answered and
// returns them all.
func (s *Server) WaitCalls(tb testing.TB, route string, n int) []Call {
	tb.Helper()
	if err := checkRoute(route); err != nil {
		tb.Fatal(err)
	}
	var got []Call
	s.waitTB(tb, func() string { return fmt.Sprintf("%d calls to %s (got %d)", n, route, len(got)) }, func() bool {
		got = s.callsTo(route)
		return len(got) >= n
	})
	return got
}

// WaitCall waits for the first call to route and returns it.
func (s *Server) WaitCall(tb testing.TB, route string) Call {
	tb.Helper()
	return s.WaitCalls(tb, route, 1)[0]
}

// checkRoute accepts "" (unrouted), a Route constant, or "METHOD /path".
func checkRoute(route string) error {
	if route == "" {
		return nil
	}
	method, path, ok := strings.Cut(route, " ")
	switch {
	case !ok || method == "" || strings.ToUpper(method) != method || !strings.HasPrefix(path, "/"):
		return fmt.Errorf("discordtest: route %q: want \"METHOD /path\"", route)
	case strings.Contains(path, "{"):
		for _, r := range routes {
			if r.name == route {
				return nil
			}
		}
		return fmt.Errorf("discordtest: route %q: no such route", route)
	}
	return nil
}

// fault makes the next n calls to route answer status.
type fault struct {
	route  string
	n      int
	status int
}

// FailNext makes the next n calls to route (a Route constant or a concrete
// "METHOD /path") answer status without taking effect: 429 with Discord's
// rate-limit body and headers (retry_after Options.RetryAfter), anything
// else with Discord's error body. Later calls succeed.
func (s *Server) FailNext(tb testing.TB, route string, n, status int) {
	tb.Helper()
	if err := checkRoute(route); err != nil || route == "" {
		tb.Fatalf("discordtest: FailNext: bad route %q: %v", route, err)
	}
	if status < 400 || status > 599 {
		tb.Fatalf("discordtest: FailNext: status %d is no failure", status)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{route: route, n: n, status: status})
}

// takeFault returns the status a call must fail with, or 0. s.mu must be held.
func (s *Server) takeFault(c Call) int {
	for _, f := range s.faults {
		if f.n > 0 && c.matches(f.route) {
			f.n--
			return f.status
		}
	}
	return 0
}

// HangGateway makes every later websocket handshake wait, unanswered,
// until UnhangGateway or the server closes.
func (s *Server) HangGateway() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hangGateway = true
}

// UnhangGateway lets the handshakes HangGateway holds, and later ones,
// go through.
func (s *Server) UnhangGateway() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hangGateway = false
	s.notify()
}

// WaitGatewayHung waits until a websocket handshake is left unanswered.
func (s *Server) WaitGatewayHung(tb testing.TB) {
	tb.Helper()
	s.waitTB(tb, func() string { return "a websocket handshake left unanswered" }, func() bool { return s.hungGateway > 0 })
}

const apiPrefix = "/api/v9"

// request is a REST call being served.
type request struct {
	Call
	params map[string]string
	header http.Header
}

func (r *request) param(name string) string { return r.params[name] }

// reply is a handler's answer: a status and a JSON body (nil for none).
type reply struct {
	status int
	body   any
}

func apiError(status, code int, msg string) reply {
	return reply{status, map[string]any{"message": msg, "code": code}}
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/ws") {
		s.serveGateway(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := &request{Call: Call{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: body}, header: r.Header}
	var formVs []Violation
	if ct := r.Header.Get("Content-Type"); isMultipart(ct) {
		req.Body, req.Files, formVs = parseMultipart(ct, body)
	}
	var rt *route
	if rest, ok := strings.CutPrefix(r.URL.Path, apiPrefix); ok {
		req.Path = rest
		rt, req.params = match(r.Method, rest)
	}

	var rep reply
	s.mu.Lock()
	if rt != nil {
		req.Route = rt.name
		s.hold(r.Context(), req.Call)
	}
	if rt == nil {
		rep = apiError(http.StatusNotFound, 0, "404: Not Found")
	} else if st := s.takeFault(req.Call); st != 0 {
		rep.status = st
	} else if rt.auth && r.Header.Get("Authorization") != "Bot "+s.opts.Token {
		rep = apiError(http.StatusUnauthorized, 0, "401: Unauthorized")
	} else if len(formVs) > 0 {
		rep = s.invalid(req, "", formVs)
	} else {
		rep = rt.handle(s, req)
	}
	req.Status = rep.status
	s.calls = append(s.calls, req.Call)
	s.notify()
	s.mu.Unlock()

	if rep.status == http.StatusTooManyRequests {
		s.rateLimitHeaders(w.Header())
		rep.body = map[string]any{
			"message":     "You are being rate limited.",
			"retry_after": s.opts.RetryAfter.Seconds(),
			"global":      false,
		}
	} else if rep.status >= 500 && rep.body == nil {
		rep.body = map[string]any{"message": fmt.Sprintf("%d: %s", rep.status, http.StatusText(rep.status)), "code": 0}
	}
	if rep.body == nil {
		w.WriteHeader(rep.status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	json.NewEncoder(w).Encode(rep.body)
}

// rateLimitHeaders are those of a 429: discordgo reads the X-RateLimit-*
// ones to hold the bucket, and the body's retry_after to sleep.
func (s *Server) rateLimitHeaders(h http.Header) {
	after := s.opts.RetryAfter.Seconds()
	h.Set("Retry-After", strconv.Itoa(int(after+0.999)))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(s.opts.RetryAfter).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(after, 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", "discordtest")
	h.Set("X-RateLimit-Scope", "user")
}

// invalid fails the test with the payload that breaks Discord's limits and
// answers as Discord does. prefix roots the paths ("data" in a callback).
func (s *Server) invalid(req *request, prefix string, vs []Violation) reply {
	lines := make([]string, len(vs))
	for i, v := range vs {
		if prefix != "" {
			v.Path = join(prefix, v.Path)
			vs[i] = v
		}
		lines[i] = v.String()
	}
	s.tb.Errorf("discordtest: %s %s breaks Discord's limits:\n\t%s\npayload: %s",
		req.Method, req.Path, strings.Join(lines, "\n\t"), req.Body)
	return reply{http.StatusBadRequest, formError(vs)}
}

// ConnectHang is one way a bot's connection to Discord can hang at start.
type ConnectHang struct {
	Name string
	// Start makes the connection hang; the func it returns waits until a
	// connection does.
	Start func(tb testing.TB, s *Server) (hung func())
}

// ConnectHangs are the places a connection can hang: the REST call for the
// gateway's URL, and the websocket handshake.
func ConnectHangs() []ConnectHang {
	return []ConnectHang{
		{"gateway URL", func(tb testing.TB, s *Server) func() {
			h := s.Hold(tb, RouteGateway)
			return func() { h.Wait(tb, 1) }
		}},
		{"websocket handshake", func(tb testing.TB, s *Server) func() {
			s.HangGateway()
			return func() { s.WaitGatewayHung(tb) }
		}},
	}
}
