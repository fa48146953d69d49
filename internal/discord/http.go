package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

// maxSkew is how far a request's signed timestamp may be from now. The
// signature alone does not stop a replay: a recorded click, sent again,
// verifies forever.
const maxSkew = 5 * time.Minute

// DefaultMaxBody caps an interaction's body; real ones are a few KiB.
const DefaultMaxBody = 64 << 10

// ParsePublicKey decodes the application's public key, as the Discord
// developer portal shows it: 64 hex characters.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("discord public key: missing (Developer Portal → your application → General Information → Public Key)")
	}
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("discord public key: want %d hex characters, got %q", 2*ed25519.PublicKeySize, s)
	}
	return ed25519.PublicKey(b), nil
}

// Self returns the bot's user and its application's ID through REST, for
// the HTTP mode, which has no gateway READY to learn them from. It tries
// each call once: run it under Backoff.Retry.
func Self(ctx context.Context, s *discordgo.Session) (*discordgo.User, string, error) {
	u, err := s.User("@me", once(ctx)...)
	if err != nil {
		return nil, "", fmt.Errorf("get bot user: %w", requested(err))
	}
	body, err := s.RequestWithBucketID(http.MethodGet, discordgo.EndpointApplication("@me"), nil,
		discordgo.EndpointApplications, once(ctx)...)
	if err != nil {
		return nil, "", fmt.Errorf("get application: %w", requested(err))
	}
	var app discordgo.Application
	if err := json.Unmarshal(body, &app); err != nil || app.ID == "" {
		return nil, "", fmt.Errorf("get application: no ID in %.100q", body)
	}
	return u, app.ID, nil
}

// HTTPOptions tune an HTTPHandler. Zero values get the defaults.
type HTTPOptions struct {
	Now     func() time.Time // default time.Now
	Logger  *slog.Logger
	MaxBody int64 // default DefaultMaxBody
	// Budget bounds the time to an interaction's answer: past it, the HTTP
	// response is the deferral.
	Budget Budget
}

// HTTPHandler is Discord's "Interactions Endpoint URL": Discord POSTs each
// interaction to it, signed, and the answer goes back inline in the HTTP
// response. What cannot be inline — learning the new board message's ID, a
// follow-up message — goes through REST after the response, in the
// background. It checks signatures from the start; until Serve hands it a
// handler, it answers a signed interaction 503, "starting".
type HTTPHandler struct {
	key  ed25519.PublicKey
	opts HTTPOptions
	log  *slog.Logger

	mu       sync.Mutex
	srv      *serving // set by Serve
	closed   bool
	stopping chan struct{}  // closed by Close: no more retries
	wg       sync.WaitGroup // background REST work
	bg       context.Context
	cancel   context.CancelFunc
}

// NewHTTPHandler returns a handler that verifies requests with key; Serve
// makes it answer them.
func NewHTTPHandler(key ed25519.PublicKey, opts HTTPOptions) *HTTPHandler {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	bg, cancel := context.WithCancel(context.Background())
	return &HTTPHandler{key: key, opts: opts, log: opts.Logger, stopping: make(chan struct{}), bg: bg, cancel: cancel}
}

// serving is what answers interactions once the bot has started.
type serving struct {
	h     Handler
	rest  *discordgo.Session
	edits *boardEdits
}

// Serve starts answering interactions with h, and sending the REST calls
// that follow with rest.
func (s *HTTPHandler) Serve(h Handler, rest *discordgo.Session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.srv = &serving{h: h, rest: rest, edits: newBoardEdits(rest)}
}

func (s *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		httpError(w, http.StatusMethodNotAllowed)
		return
	}
	ts := r.Header.Get("X-Signature-Timestamp")
	signed, err := readSigned(ts, min(r.ContentLength, s.opts.MaxBody), http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			httpError(w, http.StatusRequestEntityTooLarge)
			return
		}
		httpError(w, http.StatusBadRequest)
		return
	}
	if !s.verify(ts, r.Header.Get("X-Signature-Ed25519"), signed) {
		httpError(w, http.StatusUnauthorized)
		return
	}
	body := signed[len(ts):]

	i, err := decodeInteraction(body)
	if err != nil {
		httpError(w, http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeJSON(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}

	srv, ok := s.begin()
	if !ok {
		httpError(w, http.StatusServiceUnavailable)
		return
	}
	if srv == nil {
		http.Error(w, "starting", http.StatusServiceUnavailable)
		return
	}
	defer s.wg.Done()
	h, edits := srv.h, srv.edits
	log := s.log.With("interaction", i.ID, "guild", i.GuildID, "channel", i.ChannelID)
	// Past the budget, the response is the deferral, and the reply goes
	// through the webhook once ready: the timer writes and sends the
	// deferral while ServeHTTP waits in the handler, which does not use w,
	// and run returns only once it is sent.
	ctx, cancel := context.WithTimeout(s.bg, s.opts.Budget.workLimit())
	defer cancel()
	start := time.Now()
	reply, late := s.opts.Budget.run(ctx, h, i, func(deferred *discordgo.InteractionResponse) {
		writeJSON(w, deferred)
		if err := http.NewResponseController(w).Flush(); err != nil {
			log.Error("interaction deferral", "err", err)
			return
		}
		log.Debug("interaction deferred", "type", i.Type, "elapsed", time.Since(start))
	})
	if late {
		workErr := ctx.Err()
		s.wg.Add(1) // within begin's count, which Close waits for
		go func() {
			defer s.wg.Done()
			ctx, cancel := context.WithTimeout(s.bg, handlerTimeout)
			defer cancel()
			// Discord acts on the deferral a moment after it has read
			// the response: a 404 is retried, as after an answer.
			s.opts.Budget.late(ctx, srv.rest, edits, h, i, reply, workErr, log, func(ctx context.Context, f func() error) error {
				return retryNotFound(ctx, s.stopping, f)
			})
		}()
		return
	}
	if reply.Code == tttbot.EREPLAY {
		// A recorded request sent again verifies as the original did: it
		// is refused as a bad signature is, and nothing goes to Discord.
		log.Debug("interaction replayed")
		httpError(w, http.StatusUnauthorized)
		return
	}
	if reply.Response == nil {
		log.Error("interaction has no response")
		httpError(w, http.StatusInternalServerError)
		return
	}
	// Queued before the answer, so that the edits of the board's clicks
	// answered meanwhile merge into it.
	flush := reply.Edit != nil && edits.add(reply.Edit)
	writeJSON(w, reply.Response)
	log.Debug("interaction answered", "type", i.Type, "code", reply.Code, "elapsed", time.Since(start))
	if reply.FetchBoard || reply.Followup != nil || flush {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			ctx, cancel := context.WithTimeout(s.bg, handlerTimeout)
			defer cancel()
			if flush {
				edits.flush(ctx, reply.Edit.Key(), i.AppID, log)
			}
			// Discord creates the message only once it has read the HTTP
			// response, which can be a moment after it was written: a 404
			// is retried, until the handler closes.
			afterResponse(ctx, srv.rest, h, i, reply, "", log, func(ctx context.Context, f func() error) error {
				return retryNotFound(ctx, s.stopping, f)
			})
		}()
	}
}

// readSigned reads body into one buffer after the signature's timestamp
// ts: Discord signs timestamp+body, which the check then needs no copy of.
// The buffer is sized for length, the request's Content-Length (capped by
// the caller: it is not checked yet), where it has one.
func readSigned(ts string, length int64, body io.Reader) ([]byte, error) {
	size := 512
	if length > 0 {
		size = int(length) + 1 // room to read the end of the body
	}
	b := make([]byte, len(ts), len(ts)+size)
	copy(b, ts)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// verify checks the Ed25519 signature sig (hex) over msg, the timestamp ts
// and the body, and that the timestamp is recent.
func (s *HTTPHandler) verify(ts, sig string, msg []byte) bool {
	raw, err := hex.DecodeString(sig)
	if ts == "" || err != nil || len(raw) != ed25519.SignatureSize {
		return false
	}
	if !ed25519.Verify(s.key, msg, raw) {
		return false
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return false
	}
	d := s.opts.Now().Sub(time.Unix(sec, 0))
	return d <= maxSkew && d >= -maxSkew
}

// begin counts an interaction in, unless the handler is closing, and
// returns what answers it: nil, with nothing counted, before Serve.
func (s *HTTPHandler) begin() (*serving, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	if s.srv != nil {
		s.wg.Add(1)
	}
	return s.srv, true
}

// Close refuses new interactions, stops retrying REST calls, and waits for
// the interactions in flight and their background REST work; when ctx ends
// first, that work is cancelled.
func (s *HTTPHandler) Close(ctx context.Context) error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.stopping)
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		s.cancel()
		return nil
	case <-ctx.Done():
		s.cancel()
		return fmt.Errorf("wait for interactions: %w", ctx.Err())
	}
}

// retryNotFound calls f until it returns something other than a REST 404,
// with a growing pause, for as long as ctx allows and stop is open.
func retryNotFound(ctx context.Context, stop <-chan struct{}, f func() error) error {
	wait := 100 * time.Millisecond
	for {
		err := f()
		var re *discordgo.RESTError
		if !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != http.StatusNotFound {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-stop:
			t.Stop()
			return err
		case <-t.C:
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// redact removes the interaction token from an error: transport errors
// quote the webhook URL, and the token is in it.
func redact(err error, token string) string {
	if token == "" {
		return err.Error()
	}
	return strings.ReplaceAll(err.Error(), token, "[token]")
}

// writeJSON writes r as the HTTP response: JSON, or multipart/form-data
// when files come with it.
func writeJSON(w http.ResponseWriter, r *discordgo.InteractionResponse) {
	ct, b, err := responseBody(r)
	if err != nil {
		httpError(w, http.StatusInternalServerError)
		return
	}
	// With its length known, a board larger than net/http's 2 KB buffer
	// goes out whole instead of chunked.
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

func httpError(w http.ResponseWriter, code int) {
	http.Error(w, http.StatusText(code), code)
}
