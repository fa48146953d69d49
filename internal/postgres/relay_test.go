package postgres

import (
	"net"
	"net/url"
	"sync"
	"testing"
)

// A relay is what the test proxies share: a listener, the server's
// address, the connections it relays, and the goroutines that relay them.
type relay struct {
	ln     net.Listener
	target string
	wg     sync.WaitGroup

	mu    sync.Mutex
	conns []net.Conn
}

// start runs accept on a listener for the server of rawURL until t ends,
// and returns rawURL through it.
func (r *relay) start(t *testing.T, rawURL string, accept func()) string {
	t.Helper()
	ln, target, through := proxyListen(t, rawURL)
	r.ln, r.target = ln, target
	r.wg.Go(accept)
	t.Cleanup(func() {
		ln.Close()
		r.closeAll()
		r.wg.Wait()
	})
	return through
}

// dial connects to the server for client c; false, with c closed, if it
// cannot.
func (r *relay) dial(c net.Conn) (net.Conn, bool) {
	s, err := net.Dial("tcp", r.target)
	if err != nil {
		c.Close()
		return nil, false
	}
	r.mu.Lock()
	r.conns = append(r.conns, c, s)
	r.mu.Unlock()
	return s, true
}

// closeAll ends every relayed connection.
func (r *relay) closeAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
	r.conns = nil
}

// proxyListen opens a proxy's listener for the server of rawURL, and
// returns it, the server's address, and rawURL through the proxy, without
// SSL: the proxies read the start-up message, not an SSL request.
func proxyListen(t *testing.T, rawURL string) (ln net.Listener, target, through string) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	target = u.Host
	q := u.Query()
	q.Set("sslmode", "disable")
	u.RawQuery = q.Encode()
	u.Host = ln.Addr().String()
	return ln, target, u.String()
}
