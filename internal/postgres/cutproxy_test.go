package postgres

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"net"
	"sync/atomic"
	"testing"
)

// cutProxy relays connections to a PostgreSQL server, and, when armed,
// loses the first connection that executes a marked statement, at that
// round trip: delivered, the server receives the whole round trip and
// answers it (it flushes its answers at the round trip's Sync, after the
// commit), and the client's connection ends without the answer — a commit
// whose outcome the client cannot know, though the server committed; dropped,
// the server receives nothing of the statement and its connection ends,
// which rolls the transaction back. It reads the client's messages one by
// one, so that the cut does not depend on how they arrive.
type cutProxy struct {
	relay

	// Under relay.mu.
	mark    map[string]bool // names of the statements to cut at; none: disarmed
	deliver bool
	cuts    int
}

// newCutProxy starts a proxy to the server of rawURL and returns it and
// rawURL through it. It stops when t ends.
func newCutProxy(t *testing.T, rawURL string) (*cutProxy, string) {
	t.Helper()
	p := &cutProxy{}
	return p, p.start(t, rawURL, p.accept)
}

// stmtName is the digest of sql that pgx names its statement by.
func stmtName(sql string) string {
	sum := sha256.Sum256([]byte(sql))
	return hex.EncodeToString(sum[:24])
}

// arm makes the proxy cut the next round trip that binds one of sqls.
func (p *cutProxy) arm(deliver bool, sqls ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mark, p.deliver = map[string]bool{}, deliver
	for _, s := range sqls {
		// Named by pgx's cache, or as pgx names a statement prepared by
		// its text, as the connection opened (queryPlaySeen).
		p.mark["stmtcache_"+stmtName(s)], p.mark["stmt_"+stmtName(s)] = true, true
	}
}

// cutCount reports how many connections the proxy has cut.
func (p *cutProxy) cutCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cuts
}

// take reports whether msg, a client's message, binds a marked statement,
// disarming the proxy if so, and whether to deliver the round trip.
func (p *cutProxy) take(msg []byte) (cut, deliver bool) {
	if msg[0] != 'B' {
		return false, false
	}
	// Bind: the portal's name, then the statement's, each 0-terminated.
	body := msg[5:]
	i := indexZero(body)
	if i < 0 {
		return false, false
	}
	body = body[i+1:]
	j := indexZero(body)
	p.mu.Lock()
	defer p.mu.Unlock()
	if j < 0 || !p.mark[string(body[:j])] {
		return false, false
	}
	p.mark = nil
	p.cuts++
	return true, p.deliver
}

func indexZero(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}

func (p *cutProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, ok := p.dial(c)
		if !ok {
			continue
		}
		var cut atomic.Bool
		p.wg.Go(func() { p.down(c, s, &cut) })
		p.wg.Go(func() { p.up(c, s, &cut) })
	}
}

// down relays the server's answers to the client until the connection
// ends or is cut: then the first answer read, the cut round trip's, is
// dropped and both ends closed.
func (p *cutProxy) down(c, s net.Conn, cut *atomic.Bool) {
	defer c.Close()
	defer s.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := s.Read(buf)
		if err != nil || cut.Load() {
			return
		}
		if _, err := c.Write(buf[:n]); err != nil {
			return
		}
	}
}

// up relays the client's messages to the server until the connection ends
// or is cut. Delivered, the cut round trip reaches the server, whose
// answer down drops.
func (p *cutProxy) up(c, s net.Conn, cut *atomic.Bool) {
	// The start-up message has no type byte: a length, then the rest.
	var n [4]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		s.Close()
		return
	}
	start := make([]byte, binary.BigEndian.Uint32(n[:]))
	copy(start, n[:])
	if _, err := io.ReadFull(c, start[4:]); err != nil {
		s.Close()
		return
	}
	if _, err := s.Write(start); err != nil {
		return
	}
	for {
		var h [5]byte
		if _, err := io.ReadFull(c, h[:]); err != nil {
			s.Close()
			return
		}
		msg := make([]byte, 1+binary.BigEndian.Uint32(h[1:]))
		copy(msg, h[:])
		if _, err := io.ReadFull(c, msg[5:]); err != nil {
			s.Close()
			return
		}
		if !cut.Load() {
			hit, deliver := p.take(msg)
			if hit && !deliver {
				c.Close()
				s.Close()
				return
			}
			cut.Store(hit)
		}
		if _, err := s.Write(msg); err != nil {
			return
		}
		if cut.Load() && msg[0] == 'S' {
			return // the round trip's end: down waits for its answer
		}
	}
}
