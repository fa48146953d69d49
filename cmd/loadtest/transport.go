package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	json127 "github.com/go-json-experiment/json/v1"
)

// botConn is a worker's keep-alive connection to one bot, and the epoch
// it was opened in: a connection to a killed bot is dead.
type botConn struct {
	conn  net.Conn
	epoch int64
	br    *bufio.Reader
	bw    *bufio.Writer
}

// send signs body (badly when badSig) and posts it at the pacer's next
// time to the next bot that is up. It returns the HTTP status and decodes a
// 200's body into r.
func (w *worker) send(ctx context.Context, k kind, body []byte, badSig bool, r *response) (int, error) {
	// The request is signed before it is due, as Discord's would be ready:
	// signing is the client's time, not the bot's.
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := ed25519.Sign(w.d.key, append([]byte(ts), body...))
	w.d.bodies.Add(1)
	w.d.bodyBytes.Add(int64(len(body)))
	if badSig {
		sig[0] ^= 1
	}
	var at time.Time
	var bot int
	var epoch int64
	for {
		var err error
		if at, err = w.d.pace.ticket(ctx); err != nil {
			return 0, err
		}
		var ok bool
		if bot, epoch, ok = w.pick(); ok {
			break
		}
		// Every bot is down: the pacer holds the next ticket until one is up.
	}
	in := w.d.bots[bot]
	req, err := http.NewRequest(http.MethodPost, in.url, bytes.NewReader(body))
	if err != nil {
		return 0, w.fail(k, "%v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	req.Header.Set("X-Signature-Timestamp", ts)
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	in.inflight.Add(1)
	w.sentTo, w.sentEpoch = bot, epoch
	sent := time.Now()
	resp, err := w.roundTrip(req, bot, epoch)
	var b []byte
	if err == nil {
		b, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		w.d.replies.Add(1)
		w.d.replyBytes.Add(int64(len(b)))
	}
	in.inflight.Add(-1)
	if err != nil {
		w.hangUp(bot)
	}
	if in.epoch.Load() != epoch {
		// The bot was killed meanwhile: nothing can be said of this one.
		w.d.lost.Add(1)
		return 0, errLost
	}
	if err != nil {
		return 0, w.fail(k, "%v", err)
	}
	done := time.Now()
	if took := done.Sub(sent); took > lateAfter {
		// Discord's 3 s run from when it sent the request; a backlog of
		// the driver's own, which the latencies count from the pacer's
		// time, is not the bot's to answer for.
		w.d.late.Add(1)
		w.slowest = max(w.slowest, took)
	}
	if at.Before(w.d.from) {
		w.warm = append(w.warm, done.Sub(at))
	} else {
		w.lat[k] = append(w.lat[k], done.Sub(at))
		w.bySize[btoi(w.big)] = append(w.bySize[btoi(w.big)], done.Sub(at))
	}
	w.d.countAnswer(done)
	in.answered.Add(1)
	if resp.StatusCode == http.StatusOK && r != nil {
		if err := decodeAnswer(b, r); err != nil {
			return 0, w.fail(k, "decode answer: %v", err)
		}
	}
	return resp.StatusCode, nil
}

// pick chooses the bot for the next request, round robin among those that
// are up, and returns it with its epoch; ok is false when every bot is down.
func (w *worker) pick() (bot int, epoch int64, ok bool) {
	for range w.d.bots {
		bot = w.next
		w.next = (w.next + 1) % len(w.d.bots)
		if epoch = w.d.bots[bot].epoch.Load(); epoch%2 == 0 {
			return bot, epoch, true
		}
	}
	return 0, 0, false
}

// roundTrip sends req on the worker's connection to bot, opening one if it
// has none or the bot was killed since, and reads the answer's head. A
// worker sends one request at a time, so it needs neither a pool nor
// http.Transport's goroutines, whose hand-offs would cost the bot CPU it
// shares.
func (w *worker) roundTrip(req *http.Request, bot int, epoch int64) (*http.Response, error) {
	c := &w.conns[bot]
	if c.conn != nil && c.epoch != epoch {
		w.hangUp(bot)
	}
	if c.conn == nil {
		conn, err := net.Dial("tcp", req.URL.Host)
		if err != nil {
			return nil, err
		}
		*c = botConn{conn: conn, epoch: epoch, br: bufio.NewReader(conn), bw: bufio.NewWriter(conn)}
	}
	c.conn.SetDeadline(time.Now().Add(30 * time.Second))
	if err := req.Write(c.bw); err != nil {
		return nil, err
	}
	if err := c.bw.Flush(); err != nil {
		return nil, err
	}
	return http.ReadResponse(c.br, req)
}

// hangUp closes the worker's connection to bot.
func (w *worker) hangUp(bot int) {
	if c := &w.conns[bot]; c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// hangUpAll closes the worker's connections.
func (w *worker) hangUpAll() {
	for i := range w.conns {
		w.hangUp(i)
	}
}

// decodeAnswer decodes a 200's body. The driver shares the bot's cores, so
// it decodes with json127 too, in 60% of encoding/json's time
// (internal/discord/wire.go).
func decodeAnswer(body []byte, r *response) error {
	return json127.Unmarshal(body, r)
}
