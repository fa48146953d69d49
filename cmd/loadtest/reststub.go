package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

// restStub answers the bot's REST calls as Discord would, enough for the
// bot to run: who it is, command registration, the message an inline
// response created, follow-ups and edits. Each answer takes latency, as
// Discord's would: REST calls that wait for each other show only then.
type restStub struct {
	mux     *http.ServeMux
	ids     runIDs
	latency time.Duration
	nextID  atomic.Int64
	calls   sync.Map // route → *atomic.Int64
	answers webhookAnswers

	mu     sync.Mutex
	closed map[string]map[int]bool // message ID → the versions of its game edits showed closed, through channel REST
	// The edits through @original that showed a board closed, each with
	// whether it was its token's first: a deferred interaction's is its
	// answer, not the timers' (see editCounts).
	viaToken []tokenEdit
	patches  map[string]int // token → its @original edits

	posts *postLog // the messages posted to channels, when kept (keepPosts)
}

func newRESTStub(latency time.Duration, ids runIDs) *restStub {
	s := &restStub{mux: http.NewServeMux(), ids: ids, latency: latency, closed: map[string]map[int]bool{}, patches: map[string]int{}}
	s.nextID.Store(int64(ids) + stubMessages - 1)
	user := map[string]any{"id": botUserID, "username": "tttbot", "discriminator": "0", "bot": true}
	s.route("GET /api/v9/users/@me", func(w http.ResponseWriter, r *http.Request) { writeJSONBody(w, user) })
	s.route("GET /api/v9/applications/@me", func(w http.ResponseWriter, r *http.Request) {
		writeJSONBody(w, map[string]any{"id": appID, "name": "tttbot", "bot": user})
	})
	s.route("PUT /api/v9/applications/{app}/commands", func(w http.ResponseWriter, r *http.Request) {
		var cmds []map[string]any
		if err := json.NewDecoder(r.Body).Decode(&cmds); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, c := range cmds {
			c["id"], c["application_id"] = s.id(), appID
		}
		writeJSONBody(w, cmds)
	})
	s.route(fetchRoute, func(w http.ResponseWriter, r *http.Request) {
		// The token names the interaction, whose response made the message.
		n, _, ok := parseToken(r.PathValue("token"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		writeJSONBody(w, map[string]any{"id": strconv.FormatInt(s.ids.message(n), 10), "author": user, "type": discordgo.MessageTypeChatInputCommand})
	})
	// After a deferral, the answer comes as an edit of @original: the
	// clicked message, which a click's token names, or the message the
	// command's deferral made. So do the timers' edits of a board the bot
	// reaches through a token: the one that posted it, or its latest
	// click's.
	s.route("PATCH /api/v9/webhooks/{app}/{token}/messages/@original", func(w http.ResponseWriter, r *http.Request) {
		token := r.PathValue("token")
		msg, ok := s.original(token)
		var d responseData
		if err := json.NewDecoder(r.Body).Decode(&d); !ok || err != nil {
			http.Error(w, fmt.Sprintf("bad token or body: %v", err), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		first := s.patches[token] == 0
		s.patches[token]++
		if b, err := parseBoard(&response{Data: &d}); err == nil && !b.open() {
			s.viaToken = append(s.viaToken, tokenEdit{token: token, msg: msg, version: b.version, first: first})
		}
		s.mu.Unlock()
		s.answers.put(token, webhookAnswer{edit: true, msgID: msg, data: d}, time.Now())
		writeJSONBody(w, map[string]any{"id": msg, "channel_id": "", "author": user, "application_id": appID})
	})
	s.route("POST /api/v9/webhooks/{app}/{token}", func(w http.ResponseWriter, r *http.Request) {
		var d responseData
		if err := json.NewDecoder(r.Body).Decode(&d); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		id := s.id()
		s.answers.put(r.PathValue("token"), webhookAnswer{msgID: id, data: d}, time.Now())
		writeJSONBody(w, map[string]any{"id": id, "author": user, "webhook_id": appID})
	})
	s.route("PATCH /api/v9/channels/{channel}/messages/{message}", func(w http.ResponseWriter, r *http.Request) {
		// A stale click's refresh shows the game open; the timers' edit
		// after a deadline shows it closed. A click's refresh of a board
		// whose game has ended shows the state the timers' edit showed, at
		// the same version: it is not a second edit by the timers.
		var m struct {
			Components json.RawMessage `json:"components"`
		}
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if b, err := parseBoard(&response{Data: &responseData{Components: m.Components}}); err != nil || !b.open() {
			s.shownClosed(r.PathValue("message"), b.version)
		}
		writeJSONBody(w, map[string]any{"id": r.PathValue("message"), "channel_id": r.PathValue("channel"), "author": user})
	})
	s.route("POST /api/v9/channels/{channel}/messages", func(w http.ResponseWriter, r *http.Request) {
		id := s.id()
		if s.posts != nil {
			var d responseData
			if err := json.NewDecoder(r.Body).Decode(&d); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			s.posts.add(channelPost{id: id, channel: r.PathValue("channel"), data: d, at: time.Now()})
		}
		writeJSONBody(w, map[string]any{"id": id, "channel_id": r.PathValue("channel"), "author": user})
	})
	s.route("/", http.NotFound)
	return s
}

func (s *restStub) route(pattern string, h http.HandlerFunc) {
	n := new(atomic.Int64)
	s.calls.Store(pattern, n)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if s.latency > 0 {
			t := time.NewTimer(s.latency)
			defer t.Stop()
			select {
			case <-t.C:
			case <-r.Context().Done():
				return
			}
		}
		h(w, r)
		io.Copy(io.Discard, r.Body)
	})
}

// id is a new message's ID: odd, as every message's of the run is.
func (s *restStub) id() string { return strconv.FormatInt(s.nextID.Add(2), 10) }

// fetchRoute is the REST call by which the bot learns a new board's
// message, when its timers may need it after the board's token expired.
const fetchRoute = "GET /api/v9/webhooks/{app}/{token}/messages/@original"

// original is the message that @original of token is: the one its
// response made (a command's, or a click's answered in time with a new
// message), else the one clicked.
func (s *restStub) original(token string) (msg string, ok bool) {
	n, msg, ok := parseToken(token)
	if ok && (msg == "" || s.answers.noted(token) == answeredNew) {
		msg = strconv.FormatInt(s.ids.message(n), 10)
	}
	return msg, ok
}

// tokenEdit is an edit through @original that showed a board closed.
type tokenEdit struct {
	token, msg string
	version    int
	first      bool // the token's first edit
}

// board is the message of g's board: the one it stored, else the one its
// token reaches.
func (s *restStub) board(g *tttbot.Game) string {
	if g.MessageID != "" {
		return g.MessageID
	}
	msg, _ := s.original(g.Token.Value)
	return msg
}

// shownClosed notes an edit through channel REST of message msg that
// showed its game closed at version.
func (s *restStub) shownClosed(msg string, version int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed[msg] == nil {
		s.closed[msg] = map[int]bool{}
	}
	s.closed[msg][version] = true
}

// editCounts returns, for each message, how many versions of its game
// edits showed closed, through channel REST or a token's @original: a
// refresh that redraws a version already shown is not counted again, nor
// a deferred interaction's answer.
func (s *restStub) editCounts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	closed := make(map[string]map[int]bool, len(s.closed))
	for m, versions := range s.closed {
		closed[m] = maps.Clone(versions)
	}
	for _, e := range s.viaToken {
		if e.first && s.answers.noted(e.token) == answeredLate {
			continue // a deferred interaction's answer
		}
		if closed[e.msg] == nil {
			closed[e.msg] = map[int]bool{}
		}
		closed[e.msg][e.version] = true
	}
	counts := make(map[string]int, len(closed))
	for m, versions := range closed {
		counts[m] = len(versions)
	}
	return counts
}

// keepPosts makes the stub keep the messages the bot posts to channels, as
// a tournament's players read them. Call it before the bot runs.
func (s *restStub) keepPosts() { s.posts = &postLog{changed: make(chan struct{})} }

// channelPost is a message the bot posted to a channel.
type channelPost struct {
	id, channel string
	data        responseData
	at          time.Time // when the stub took it
}

// postLog is the messages posted to channels, in the order they came.
type postLog struct {
	mu      sync.Mutex
	posts   []channelPost
	changed chan struct{} // closed, and replaced, by each post
}

func (l *postLog) add(p channelPost) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.posts = append(l.posts, p)
	close(l.changed)
	l.changed = make(chan struct{})
}

// since returns the posts after the first n, and a channel closed at the
// next post.
func (l *postLog) since(n int) ([]channelPost, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.posts[min(n, len(l.posts)):], l.changed
}

func (s *restStub) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func writeJSONBody(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
