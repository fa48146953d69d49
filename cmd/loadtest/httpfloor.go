package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// emptyHandlerEnv, in a child's environment, makes the load test serve
// the empty handler of measureHTTP instead of running: its value is the
// answer's size in bytes.
const emptyHandlerEnv = "TTTBOT_LOADTEST_EMPTY_HANDLER"

// servedEmptyHandler serves the empty handler, and reports true, when
// this process is measureHTTP's child; main and TestMain call it first.
func servedEmptyHandler() bool {
	size, ok := os.LookupEnv(emptyHandlerEnv)
	if !ok {
		return false
	}
	if err := serveEmptyHandler(size); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
	return true
}

// serveEmptyHandler serves, on a free loopback port whose address it
// prints, a handler that reads each request's body and answers with size
// bytes of JSON, through an http.Server set as the bot's, until stdin
// closes.
func serveEmptyHandler(size string) error {
	n, err := strconv.Atoi(size)
	if err != nil || n < 2 {
		return fmt.Errorf("%s=%q: want a size of 2 bytes or more", emptyHandlerEnv, size)
	}
	answer := []byte(`"` + strings.Repeat("x", n-2) + `"`)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, err := io.Copy(io.Discard, r.Body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(answer)
		}),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
	}
	go func() {
		io.Copy(io.Discard, os.Stdin)
		srv.Close()
	}()
	fmt.Println(ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// The load test's windows of measureHTTP: a warm-up, then the measure.
const httpWarmup, httpWindow = time.Second, 3 * time.Second

// measureHTTP is net/http's own CPU per request on this machine, as the
// bot serves its interactions: an empty handler in a process of its own
// (this program run again) answers requests of body bytes, as the driver's
// with their headers, with answer bytes, sent at rate a second on conns
// keep-alive connections, measured for window after warmup. The handler's
// process runs with godebug added to its GODEBUG, as the bots do, so that
// the figure stands beside theirs. It is 0 where /proc does not tell a
// process's CPU time, and when the measure saw no request or less CPU
// than /proc counts (10 ms).
func measureHTTP(ctx context.Context, rate, conns, body, answer int, godebug string, warmup, window time.Duration) (time.Duration, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(withGodebug(os.Environ(), godebug), emptyHandlerEnv+"="+strconv.Itoa(max(answer, 2)))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("start the empty handler: %w", err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return 0, fmt.Errorf("the empty handler's address: %w", err)
	}
	addr = strings.TrimSpace(addr)

	// The driver's request: its headers, a body of the same size.
	var req bytes.Buffer
	fmt.Fprintf(&req, "POST /interactions HTTP/1.1\r\nHost: %s\r\nUser-Agent: Discord-Interactions/1.0 (+https://discord.com)\r\n"+
		"Content-Length: %d\r\nContent-Type: application/json\r\nX-Signature-Ed25519: %s\r\nX-Signature-Timestamp: %d\r\n\r\n",
		addr, body, strings.Repeat("0", 128), time.Now().Unix())
	req.WriteString(strings.Repeat("x", body))

	pace := newPacer(rate)
	from := time.Now().Add(warmup)
	to := from.Add(window)
	var counted atomic.Int64
	errs := make([]error, conns)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Go(func() { errs[i] = sendEmpty(ctx, addr, req.Bytes(), pace, from, to, &counted) })
	}
	// The child's CPU at the window's edges, while the connections send.
	var cpu [2]time.Duration
	for k, at := range []time.Time{from, to} {
		t := time.NewTimer(time.Until(at))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
		cpu[k] = cpuTime(cmd.Process.Pid)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, fmt.Errorf("the empty handler: %w", err)
	}
	n := counted.Load()
	if n == 0 || cpu[1] == 0 {
		return 0, nil
	}
	return (cpu[1] - cpu[0]) / time.Duration(n), nil
}

// sendEmpty is one connection of measureHTTP: it sends req at the pacer's
// times until to, counting the requests sent within [from, to).
func sendEmpty(ctx context.Context, addr string, req []byte, pace *pacer, from, to time.Time, counted *atomic.Int64) error {
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	for {
		at, err := pace.ticket(ctx)
		if err != nil {
			return ctx.Err()
		}
		if !at.Before(to) {
			return nil
		}
		if _, err := conn.Write(req); err != nil {
			return err
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %s", resp.Status)
		}
		if !at.Before(from) {
			counted.Add(1)
		}
	}
}
