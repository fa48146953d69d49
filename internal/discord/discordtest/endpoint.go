package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// endpoint is a bot's Interactions Endpoint URL.
type endpoint struct {
	url string
	key ed25519.PrivateKey
	now func() time.Time
}

// UseEndpoint makes the server deliver interactions to a bot's HTTP
// interactions endpoint at url instead of over the gateway, as Discord
// does for an application with an Interactions Endpoint URL: each is
// POSTed with an Ed25519 signature by key over the timestamp now gives and
// the body, and the response's body is the callback (a fault set on
// RouteCallback loses it, as when Discord drops an answer). Called again —
// a restarted bot listens elsewhere — it points later deliveries and
// replays at the new url.
func (s *Server) UseEndpoint(url string, key ed25519.PrivateKey, now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.endpoint = &endpoint{url: url, key: key, now: now}
}

// deliver POSTs an interaction to the endpoint and applies the answer as
// its callback.
func (s *Server) deliver(tb testing.TB, ep *endpoint, in *Interaction, payload []byte) {
	tb.Helper()
	ts := strconv.FormatInt(ep.now().Unix(), 10)
	sig := hex.EncodeToString(ed25519.Sign(ep.key, append([]byte(ts), payload...)))
	s.mu.Lock()
	in.timestamp, in.signature = ts, sig
	in.sent = time.Now()
	s.mu.Unlock()
	status, contentType, body := s.postSigned(tb, in, payload)
	if status != http.StatusOK {
		tb.Errorf("discordtest: %s: the endpoint answered %d %s", in.what, status, body)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	req := &request{
		Call:   Call{Method: http.MethodPost, Path: "/interactions/" + in.ID + "/" + in.Token + "/callback", Route: RouteCallback, Body: body},
		params: map[string]string{"interaction": in.ID, "token": in.Token},
	}
	var formVs []Violation
	if isMultipart(contentType) {
		req.Body, req.Files, formVs = parseMultipart(contentType, body)
	}
	switch {
	case s.takeFault(req.Call) != 0:
	case len(formVs) > 0:
		s.invalid(req, "", formVs)
	default:
		s.callback(req)
	}
	s.notify()
}

// postSigned POSTs the interaction's signed request to the current
// endpoint and returns the status, content type and body of the answer.
func (s *Server) postSigned(tb testing.TB, in *Interaction, payload []byte) (int, string, []byte) {
	tb.Helper()
	s.mu.Lock()
	url, ts, sig := s.endpoint.url, in.timestamp, in.signature
	s.mu.Unlock()
	r, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		tb.Fatalf("discordtest: %s: %v", in.what, err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Signature-Timestamp", ts)
	r.Header.Set("X-Signature-Ed25519", sig)
	c := &http.Client{Timeout: s.opts.Timeout}
	resp, err := c.Do(r)
	if err != nil {
		tb.Fatalf("discordtest: %s: the endpoint: %v", in.what, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("discordtest: %s: the endpoint: %v", in.what, err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), body
}

// Replay sends an interaction delivered to the endpoint again, byte for
// byte with its signature, as someone who recorded the request could, and
// returns the endpoint's status. Discord never does this, so the answer is
// no callback: it goes to whoever replayed.
func (i *Interaction) Replay(tb testing.TB) int {
	tb.Helper()
	i.srv.mu.Lock()
	signed := i.signature != ""
	i.srv.mu.Unlock()
	if !signed {
		tb.Fatalf("discordtest: Replay of %s, which was not delivered to an endpoint", i.what)
	}
	status, _, _ := i.srv.postSigned(tb, i, i.Payload)
	return status
}

// Hold keeps the calls to a route waiting, unanswered, until Release: a
// REST route that is slow to answer.
type Hold struct {
	s       *Server
	route   string
	open    chan struct{}
	once    sync.Once
	arrived int // guarded by s.mu
}

// Hold makes calls to route (a Route constant or a concrete "METHOD
// /path") wait before they take effect, until Release or the end of the
// test.
func (s *Server) Hold(tb testing.TB, route string) *Hold {
	tb.Helper()
	if err := checkRoute(route); err != nil {
		tb.Fatalf("discordtest: Hold: %v", err)
	}
	h := &Hold{s: s, route: route, open: make(chan struct{})}
	s.mu.Lock()
	s.holds = append(s.holds, h)
	s.mu.Unlock()
	tb.Cleanup(h.Release)
	return h
}

// Release lets the held calls, and those to come, through.
func (h *Hold) Release() { h.once.Do(func() { close(h.open) }) }

// Wait waits until n calls have come to the hold.
func (h *Hold) Wait(tb testing.TB, n int) {
	tb.Helper()
	h.s.waitTB(tb, func() string { return fmt.Sprintf("%d calls to %s held", n, h.route) },
		func() bool { return h.arrived >= n })
}

// hold makes a call wait at the holds of its route. s.mu must be held; it
// is released while the call waits.
func (s *Server) hold(ctx context.Context, c Call) {
	for _, h := range s.holds {
		if !c.matches(h.route) {
			continue
		}
		h.arrived++
		s.notify()
		s.mu.Unlock()
		select {
		case <-h.open:
		case <-ctx.Done():
		}
		s.mu.Lock()
	}
}
