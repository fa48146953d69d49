package postgres

import (
	"encoding/binary"
	"io"
	"net"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
	"github.com/tttbot/tttbot/internal/storetest"
)

// restartProxy relays connections to a PostgreSQL server and plays a
// fast restart on demand: the sessions it relays end, and the next
// connections are refused as a server starting up refuses them, with
// SQLSTATE 57P03 at their start-up message.
type restartProxy struct {
	relay

	// Under relay.mu.
	refuse  int // connections still to refuse
	refused int
}

// newRestartProxy starts a proxy to the server of rawURL and returns it
// and rawURL through it. It stops when t ends.
func newRestartProxy(t *testing.T, rawURL string) (*restartProxy, string) {
	t.Helper()
	p := &restartProxy{}
	return p, p.start(t, rawURL, p.accept)
}

// restart ends every relayed session and refuses the next n connections.
func (p *restartProxy) restart(n int) {
	p.mu.Lock()
	p.refuse = n
	p.mu.Unlock()
	p.closeAll()
}

func (p *restartProxy) refusedCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refused
}

func (p *restartProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		refuse := p.refuse > 0
		if refuse {
			p.refuse--
			p.refused++
		}
		p.mu.Unlock()
		if refuse {
			p.wg.Go(func() { startingUp(c) })
			continue
		}
		s, ok := p.dial(c)
		if !ok {
			continue
		}
		p.wg.Go(func() { io.Copy(s, c); s.Close() })
		p.wg.Go(func() { io.Copy(c, s); c.Close() })
	}
}

// startingUp reads c's start-up message and answers it as a server still
// starting up does: a FATAL error 57P03, then the end of the connection.
func startingUp(c net.Conn) {
	defer c.Close()
	var n [4]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		return
	}
	if _, err := io.CopyN(io.Discard, c, int64(binary.BigEndian.Uint32(n[:]))-4); err != nil {
		return
	}
	var body []byte
	for _, f := range []string{"SFATAL", "VFATAL", "C57P03", "Mthe database system is starting up"} {
		body = append(append(body, f...), 0)
	}
	body = append(body, 0)
	msg := binary.BigEndian.AppendUint32([]byte{'E'}, uint32(4+len(body)))
	c.Write(append(msg, body...))
}

// TestFastRestart: while a fast restart ends the sessions and the server
// refuses connections for a moment, a read and a write each wait for it
// and succeed, rather than failing their interaction.
func TestFastRestart(t *testing.T) {
	p, rawURL := newRestartProxy(t, pgtest.Store(t))
	db, _ := openLogged(t, rawURL)
	ctx := t.Context()
	g := storetest.StartGame(t, db, "c1", "alice", "bob")

	const refusals = 8 // a second and more of backoff
	p.restart(refusals)
	got, err := db.Game(ctx, g.ID)
	if err != nil || got.Version != g.Version {
		t.Fatalf("read during a restart: got %v, %v; want version %d", got, err, g.Version)
	}
	if n := p.refusedCount(); n != refusals {
		t.Errorf("read: %d connections refused, want %d", n, refusals)
	}

	p.restart(refusals)
	played, err := db.Play(tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: "8101"}), storetest.Click(g, "alice", 4), g)
	if err != nil || played.Version != g.Version+1 {
		t.Fatalf("click during a restart: got %v, %v; want version %d", played, err, g.Version+1)
	}
	if n := p.refusedCount(); n != 2*refusals {
		t.Errorf("click: %d connections refused in all, want %d", n, 2*refusals)
	}
}
