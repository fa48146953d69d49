package web

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

// TestLimiterBounded: however many addresses ask, the limiter remembers
// at most its maximum, and a bucket it dropped was full anyway or the
// table was full.
func TestLimiterBounded(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLimiter(1, 2, 100, func() time.Time { return now })
	for i := range 10_000 {
		a := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		if _, ok := l.allow(a); !ok {
			t.Fatalf("address %d: refused its first request", i)
		}
		if n := l.size(); n > 100 {
			t.Fatalf("after %d addresses: %d remembered, want at most 100", i+1, n)
		}
	}
	// A client within the table keeps its count.
	a := netip.MustParseAddr("192.0.2.1")
	l = newLimiter(1, 2, 100, func() time.Time { return now })
	l.allow(a)
	l.allow(a)
	if wait, ok := l.allow(a); ok || wait != time.Second {
		t.Errorf("third request: got ok %v, wait %v; want refused for 1s", ok, wait)
	}
}

func TestClientAddr(t *testing.T) {
	tests := []struct {
		remote, xff string
		trust       bool
		want        string
	}{
		{"192.0.2.1:5", "", false, "192.0.2.1"},
		{"192.0.2.1:5", "198.51.100.7", false, "192.0.2.1"},
		{"192.0.2.1:5", "198.51.100.7", true, "198.51.100.7"},
		{"192.0.2.1:5", "203.0.113.1, 198.51.100.7", true, "198.51.100.7"},
		{"[2001:db8:1:2:3:4:5:6]:5", "", false, "2001:db8:1:2::"},
		{"[::ffff:192.0.2.1]:5", "", false, "192.0.2.1"},
	}
	for _, tt := range tests {
		r := newRequest(tt.remote)
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		if got := clientAddr(r, tt.trust); got.String() != tt.want {
			t.Errorf("%s, %q, trusted %v: got %s, want %s", tt.remote, tt.xff, tt.trust, got, tt.want)
		}
	}
}

func newRequest(remote string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.RemoteAddr = remote
	return r
}
