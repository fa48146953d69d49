package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/i18n"
)

// contentSecurity allows the page's own stylesheet, script and images,
// and the avatars of Discord's CDN: no inline script or style, no frames,
// no forms, no plugins.
const contentSecurity = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' https://cdn.discordapp.com; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// secure sets the headers every answer carries.
func secure(w http.ResponseWriter, r *http.Request, trustForwarded bool) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurity)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if r.TLS != nil || trustForwarded && strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
}

// clientAddr is the address a request came from, as the rate limit counts
// it: the connection's peer, or the last address of X-Forwarded-For, the
// one the trusted proxy saw, when trusted. An IPv6 address counts by its
// /64, which one client usually holds whole.
func clientAddr(r *http.Request, trustForwarded bool) netip.Addr {
	raw := r.RemoteAddr
	if host, _, err := net.SplitHostPort(raw); err == nil {
		raw = host
	}
	if xff := r.Header.Values("X-Forwarded-For"); trustForwarded && len(xff) > 0 {
		last := xff[len(xff)-1]
		raw = strings.TrimSpace(last[strings.LastIndexByte(last, ',')+1:])
	}
	a, err := netip.ParseAddr(raw)
	if err != nil {
		return netip.Addr{}
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.Addr()
	}
	return a
}

// retryAfter is a Retry-After header's whole seconds for wait, at least 1.
func retryAfter(wait time.Duration) string {
	return strconv.Itoa(max(1, int((wait+time.Second-1)/time.Second)))
}

// page is a rendered answer, before the conditional request and encoding.
type page struct {
	status   int
	body     []byte
	typ      string    // Content-Type
	modified time.Time // Last-Modified; zero: none
	cache    string    // Cache-Control
}

// revalidate makes browsers and proxies ask again each time: with the
// ETag, an unchanged page costs a 304.
const revalidate = "public, no-cache"

// send writes p as the answer to r: 304 when r's validators match it,
// gzipped when r accepts it and it is worth it.
func (s *Server) send(w http.ResponseWriter, r *http.Request, p page) {
	h := w.Header()
	h.Set("Vary", "Accept-Encoding, Accept-Language")
	if p.status == 0 {
		p.status = http.StatusOK
	}
	if p.status == http.StatusOK {
		sum := sha256.Sum256(p.body)
		etag := `"` + hex.EncodeToString(sum[:12]) + `"`
		h.Set("ETag", etag)
		h.Set("Cache-Control", p.cache)
		if !p.modified.IsZero() {
			h.Set("Last-Modified", p.modified.UTC().Format(http.TimeFormat))
		}
		if notModified(r, etag, p.modified) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	} else {
		h.Set("Cache-Control", "no-store")
	}
	h.Set("Content-Type", p.typ)
	body := p.body
	if len(body) >= minGzip && acceptsGzip(r) {
		var b bytes.Buffer
		z := s.zippers.Get().(*gzip.Writer)
		z.Reset(&b)
		z.Write(body)
		z.Close()
		s.zippers.Put(z)
		body = b.Bytes()
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(p.status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// minGzip is the smallest body worth compressing: below it, gzip's header
// and the work cost more than they save.
const minGzip = 1024

// notModified reports whether r's validators say it holds this version:
// If-None-Match, when sent, decides; else If-Modified-Since.
func notModified(r *http.Request, etag string, modified time.Time) bool {
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for tag := range strings.SplitSeq(inm, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == etag || tag == "*" {
				return true
			}
		}
		return false
	}
	ims, err := http.ParseTime(r.Header.Get("If-Modified-Since"))
	return err == nil && !modified.IsZero() && !modified.Truncate(time.Second).After(ims)
}

// acceptsGzip reports whether r's Accept-Encoding takes gzip.
func acceptsGzip(r *http.Request) bool {
	for part := range strings.SplitSeq(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(name), "gzip") {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		return q > 0
	}
	return false
}

// lang is the language of the viewer of r.
func (s *Server) lang(r *http.Request) *i18n.Language {
	return s.cat.ForAccept(r.Header.Get("Accept-Language"))
}

// render executes template name with data for the viewer of r, and sends
// it.
func (s *Server) render(w http.ResponseWriter, r *http.Request, l *i18n.Language, name string, data any, status int, modified time.Time) {
	var b bytes.Buffer
	if err := s.pages.execute(&b, name, s.view(l, data)); err != nil {
		s.opts.Logger.Error("render page", "page", name, "err", err)
		s.fail(w, r, http.StatusInternalServerError)
		return
	}
	s.send(w, r, page{status: status, body: b.Bytes(), typ: "text/html; charset=utf-8", modified: modified, cache: revalidate})
}

// fail answers r with the page of an error status: 404 for anything not
// shown, whether it does not exist or its owners did not opt in.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int) {
	l := s.lang(r)
	id := "web_not_found"
	switch status {
	case http.StatusTooManyRequests:
		id = "web_too_many"
	case http.StatusInternalServerError:
		id = "web_error"
	}
	var b bytes.Buffer
	if err := s.pages.execute(&b, "error", s.view(l, errorPage{Title: l.T(id, nil)})); err != nil {
		http.Error(w, http.StatusText(status), status)
		return
	}
	s.send(w, r, page{status: status, body: b.Bytes(), typ: "text/html; charset=utf-8"})
}

// failed answers r for err, a store's: 404 for what is not there, 500 for
// the rest, logged.
func (s *Server) failed(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, tttbot.ErrNotFound) || tttbot.ErrorCode(err) == tttbot.ENOTFOUND {
		s.fail(w, r, http.StatusNotFound)
		return
	}
	if r.Context().Err() != nil {
		return // the client left: nobody to answer
	}
	s.opts.Logger.Error("web page", "path", r.URL.Path, "err", err)
	s.fail(w, r, http.StatusInternalServerError)
}

type errorPage struct{ Title string }
