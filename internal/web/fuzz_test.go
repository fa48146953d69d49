package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	pathpkg "path"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/web"
)

// FuzzRequest: whatever the address, query and headers, a request gets a
// page or an error page, never a panic, and a 200 only for a page that
// exists.
func FuzzRequest(f *testing.F) {
	for _, seed := range []struct{ path, lang, inm, ims, enc, xff string }{
		{"/s/0123456789abcdef?b=3x3x3&p=1", "de-DE,de;q=0.9", `"x"`, "Mon, 02 Jan 2006 15:04:05 GMT", "gzip", "192.0.2.1"},
		{"/p/0123456789abcdef?s=fedcba9876543210", "*;q=0", "*", "garbage", "gzip;q=0.5, br", ""},
		{"/g/1?m=-1", ";;;", "W/", "", "identity;q=x", "::1, 2001:db8::1"},
		{"/g/99999999999999999999", "zz-ZZ", "", "", "", "not an address"},
		{"/static/style.css", "ja", "", "", "gzip", ""},
		{"/t/0123456789abcdef", "uk", "", "", "gzip", ""},
		{"/t/./0123456789abcdef", "", "", "", "", ""}, // the fuzzer's find: a redirect to /t/0123456789abcdef
	} {
		f.Add(seed.path, seed.lang, seed.inm, seed.ims, seed.enc, seed.xff)
	}
	s := newSite(f, web.Options{RateLimit: 1000, TrustForwarded: true})
	f.Fuzz(func(t *testing.T, path, lang, inm, ims, enc, xff string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \r\n\t#") {
			return // no request line carries it
		}
		r, err := http.NewRequest(http.MethodGet, "http://ttt.example"+path, nil)
		if err != nil {
			return
		}
		for k, v := range map[string]string{"Accept-Language": lang, "If-None-Match": inm, "If-Modified-Since": ims, "Accept-Encoding": enc, "X-Forwarded-For": xff} {
			if strings.ContainsAny(v, "\r\n") {
				return
			}
			r.Header.Set(k, v)
		}
		r.RemoteAddr = "192.0.2.9:1"
		w := httptest.NewRecorder()
		s.srv.ServeHTTP(w, r)
		switch w.Code {
		case http.StatusOK, http.StatusNotModified, http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusTooManyRequests:
		case http.StatusTemporaryRedirect:
			// ServeMux sends a path that is not clean ("/.", "/g/./1",
			// "//g/1") to its clean form, and nowhere else.
			clean := pathpkg.Clean(r.URL.Path)
			if strings.HasSuffix(r.URL.Path, "/") && clean != "/" {
				clean += "/"
			}
			loc, err := url.Parse(w.Header().Get("Location"))
			if err != nil || loc.Host != "" || loc.Path != clean || clean == r.URL.Path {
				t.Errorf("%s: redirected to %q", path, w.Header().Get("Location"))
			}
		default:
			t.Errorf("%s: status %d", path, w.Code)
		}
		if w.Code == http.StatusOK && !strings.HasPrefix(path, "/static/") {
			t.Errorf("%s: a page where none exists", path)
		}
	})
}
