package discord

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// NewTransport returns a RoundTripper that sends discordgo's requests for
// Discord's REST base (https://discord.com/api/v9/...) to apiURL instead —
// a REST proxy or a local test server — and every other request through
// base unchanged. For Discord's own base it returns base itself. A nil base
// is http.DefaultTransport.
//
// Use it as the session's transport:
//
//	s.Client = &http.Client{Transport: t}
//
// so no package-level endpoint of discordgo is rewritten.
func NewTransport(apiURL string, base http.RoundTripper) (http.RoundTripper, error) {
	if base == nil {
		base = http.DefaultTransport
	}
	to, err := url.Parse(strings.TrimSuffix(apiURL, "/"))
	if err != nil {
		return nil, fmt.Errorf("parse api url: %w", err)
	}
	if to.Scheme != "http" && to.Scheme != "https" || to.Host == "" {
		return nil, fmt.Errorf("api url %q: want an absolute http or https URL", apiURL)
	}
	if to.RawQuery != "" || to.Fragment != "" {
		return nil, fmt.Errorf("api url %q: want no query or fragment", apiURL)
	}
	from, err := url.Parse(strings.TrimSuffix(discordgo.EndpointAPI, "/"))
	if err != nil {
		return nil, fmt.Errorf("parse discordgo api url: %w", err)
	}
	if *to == *from {
		return base, nil
	}
	return &rebase{from: from, to: to, base: base}, nil
}

// rebase moves requests under one URL prefix to another.
type rebase struct {
	from, to *url.URL
	base     http.RoundTripper
}

func (t *rebase) RoundTrip(r *http.Request) (*http.Response, error) {
	rest, ok := t.under(r.URL)
	if !ok {
		return t.base.RoundTrip(r)
	}
	// A RoundTripper must not change the caller's request.
	out := r.Clone(r.Context())
	u := *r.URL
	u.Scheme, u.Host, u.User = t.to.Scheme, t.to.Host, t.to.User
	u.Path = t.to.Path + rest
	u.RawPath = ""
	if r.URL.RawPath != "" {
		u.RawPath = t.to.EscapedPath() + strings.TrimPrefix(r.URL.RawPath, t.from.EscapedPath())
	}
	out.URL, out.Host = &u, ""
	resp, err := t.base.RoundTrip(out)
	if err != nil {
		return nil, &sentTo{url: u.Redacted(), err: err}
	}
	return resp, nil
}

// sentTo is a failed request's error with the URL it went to. http.Client
// names the URL discordgo built, under Discord's own base; requested puts
// this one in its place.
type sentTo struct {
	url string
	err error
}

func (e *sentTo) Error() string { return fmt.Sprintf("%q: %v", e.url, e.err) }
func (e *sentTo) Unwrap() error { return e.err }

// requested makes a failed call's error name the URL the transport sent it
// to (api_url's), not the one discordgo built. It returns err.
func requested(err error) error {
	var ue *url.Error
	var st *sentTo
	if errors.As(err, &ue) && errors.As(ue.Err, &st) {
		// The *url.Error is this call's own: http.Client made it.
		ue.URL, ue.Err = st.url, st.err
	}
	return err
}

// under reports whether u lies under the from prefix and returns the rest
// of its path ("" or starting with "/").
func (t *rebase) under(u *url.URL) (string, bool) {
	if u.Scheme != t.from.Scheme || !strings.EqualFold(u.Host, t.from.Host) {
		return "", false
	}
	rest, ok := strings.CutPrefix(u.Path, t.from.Path)
	if !ok || rest != "" && !strings.HasPrefix(rest, "/") {
		return "", false
	}
	return rest, true
}
