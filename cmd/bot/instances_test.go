package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/postgres"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// childVar, set, makes the test binary run main with its arguments: a bot
// process the tests can kill. Its prefix keeps config.CheckEnviron quiet.
const childVar = "TTTBOT_TEST_BOT_PROCESS"

func TestMain(m *testing.M) {
	if os.Getenv(childVar) != "" {
		main()
		os.Exit(0)
	}
	pgtest.Announce()
	os.Exit(m.Run())
}

// instance is a `bot run` process in http mode.
type instance struct {
	name string
	addr string // host:port of its endpoint, /healthz and /metrics
	cmd  *exec.Cmd
	done chan struct{}
	// logPath is the file the process logs to: written by the process
	// itself, with no pipe between, it holds a line once the process has
	// written it.
	logPath string
}

// log is what the process has logged so far.
func (in *instance) log() string {
	b, err := os.ReadFile(in.logPath)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// dueListings is how many times the process's timers have listed the due
// games, as its /metrics counts the store's Due calls.
func (in *instance) dueListings(t *testing.T) int {
	t.Helper()
	return dueListings(t, in.addr)
}

// dueListings counts the times the timers of the bot whose HTTP server is
// at addr have listed the due games, as its /metrics says.
func dueListings(t *testing.T, addr string) int {
	t.Helper()
	return storeCalls(t, addr, "Due")
}

// storeCalls counts the calls of store method the bot whose HTTP server is
// at addr has made, as its /metrics says.
func storeCalls(t *testing.T, addr, method string) int {
	t.Helper()
	_, body := get(t, "http://"+addr+"/metrics")
	for line := range strings.Lines(body) {
		if v, ok := strings.CutPrefix(line, `tttbot_store_seconds_count{method="`+method+`"} `); ok {
			n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				t.Fatalf("%s's metrics: %q: %v", addr, line, err)
			}
			return int(n)
		}
	}
	return 0
}

// fired counts the times the process fired game id's deadline.
func (in *instance) fired(id int64) int {
	n := 0
	for line := range strings.Lines(in.log()) {
		if strings.Contains(line, "deadline fired") && strings.Contains(line, fmt.Sprintf(" game=%d ", id)) {
			n++
		}
	}
	return n
}

// startInstance runs a bot process on the database at url against srv,
// and waits until its /healthz says it is ready.
func startInstance(t *testing.T, name string, srv *discordtest.Server, key ed25519.PrivateKey, url string) *instance {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	dir := t.TempDir()
	cfg := fmt.Sprintf(`[discord]
api_url = %q
mode = "http"
public_key = %q
[http]
listen = %q
[database]
url = %q
[game]
challenge_timeout = "3s"
turn_timeout = "5s"
`, srv.URL(), hex.EncodeToString(key.Public().(ed25519.PublicKey)), addr, url)
	if err := os.WriteFile(dir+"/bot.toml", []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in := &instance{name: name, addr: addr, done: make(chan struct{}), logPath: dir + "/bot.log"}
	logFile, err := os.Create(in.logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close() // the process holds its own copy
	in.cmd = exec.Command(exe, "run", "-config", dir+"/bot.toml")
	in.cmd.Env = append(os.Environ(), childVar+"=1", "DISCORD_TOKEN="+srv.Token())
	in.cmd.Stderr = logFile
	if err := in.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { in.cmd.Wait(); close(in.done) }()
	t.Cleanup(func() {
		in.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-in.done:
		case <-time.After(15 * time.Second):
			in.cmd.Process.Kill()
			t.Errorf("%s did not stop on SIGTERM", name)
		}
		if t.Failed() {
			t.Logf("%s's log:\n%s", name, in.log())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return in
			}
		}
		select {
		case <-in.done:
			t.Fatalf("%s exited while starting:\n%s", name, in.log())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready after 30s:\n%s", name, in.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSeveralInstances runs two bot processes in http mode on one
// PostgreSQL database, as behind a load balancer: a game goes on whichever
// instance each click reaches, a deadline fires once, and a deadline that
// an instance claimed before it was killed is fired by the other once the
// claim runs out.
func TestSeveralInstances(t *testing.T) {
	url := pgtest.URL(t)
	key := ed25519.NewKeyFromSeed([]byte("tttbot-e2e-instances-key-0123456"))
	srv := discordtest.NewServerWith(t, discordtest.Options{Timeout: 30 * time.Second})
	a := startInstance(t, "a", srv, key, url)
	b := startInstance(t, "b", srv, key, url)
	use := func(in *instance) { srv.UseEndpoint("http://"+in.addr+"/interactions", key, time.Now) }
	c, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	alice, bob := srv.NewUser("alice"), srv.NewUser("bob")

	// A game whose clicks alternate between the instances.
	ch := srv.NewChannel()
	use(a)
	msg := srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
	use(b)
	board := srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
	for i, mv := range []struct {
		who  discordtest.User
		cell int
	}{{alice, 0}, {bob, 1}, {alice, 3}, {bob, 4}, {alice, 6}} {
		use([]*instance{a, b}[i%2])
		board = srv.Click(t, mv.who, board, cells(board)[mv.cell].CustomID).Result(t)
	}
	if !strings.Contains(board.Text(), alice.Mention()+" wins") {
		t.Fatalf("got %q, want alice to win", board.Text())
	}

	// A challenge nobody answers expires once, on one of the two.
	use(a)
	ch2 := srv.NewChannel()
	msg = srv.Slash(t, alice, ch2, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
	wantEphemeral(t, srv.Click(t, alice, msg, msg.Button(t, "Accept").CustomID).Wait(t), "") // records the message
	// It is due tttbot.DeadlineGrace after its deadline, on the instances' real clocks.
	waitFor(t, time.Minute, "the challenge to expire", func() bool {
		m := srv.Message(ch2, msg.ID)
		return m != nil && strings.Contains(m.Text(), "expired")
	})
	expired := latestGame(t, c, ch2)
	// Both instances' timers go on ticking: the deadline stays fired. A
	// timer lists the due games once a tick, one tick after another, so
	// once an instance has listed them three more times, its second
	// listing began after the deadline fired, and that tick, with what it
	// fired and logged, is over.
	for _, in := range []*instance{a, b} {
		since := in.dueListings(t)
		waitFor(t, 30*time.Second, in.name+"'s timers to tick three times", func() bool { return in.dueListings(t) >= since+3 })
	}
	if n := a.fired(expired) + b.fired(expired); n != 1 {
		t.Errorf("challenge %d: its deadline fired %d times, want once", expired, n)
	}

	// b goes away; a claims the next deadline, and hangs while firing it:
	// it waits for the players' ratings, which the test holds. Killed, it
	// leaves its claim behind, which b, back, fires once it runs out.
	use(a)
	ch3 := srv.NewChannel()
	msg = srv.Slash(t, alice, ch3, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
	board = srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
	id := latestGame(t, c, ch3)
	b.cmd.Process.Signal(syscall.SIGTERM)
	<-b.done

	hold, err := c.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hold.Exec(t.Context(), "SELECT * FROM ratings WHERE player_id IN ($1, $2) FOR UPDATE", alice.ID, bob.ID); err != nil {
		t.Fatal(err)
	}
	watch, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(context.Background())
	var claimed int64
	waitFor(t, time.Minute, "a to claim the turn's deadline", func() bool {
		err := watch.QueryRow(t.Context(), "SELECT coalesce(claimed_until, 0) FROM games WHERE id = $1", id).Scan(&claimed)
		return err == nil && claimed != 0
	})
	a.cmd.Process.Signal(syscall.SIGKILL)
	<-a.done
	if err := hold.Rollback(t.Context()); err != nil {
		t.Fatal(err)
	}
	var status string
	if err := watch.QueryRow(t.Context(), "SELECT status FROM games WHERE id = $1", id).Scan(&status); err != nil || status != string(tttbot.StatusActive) {
		t.Fatalf("game %d after a was killed: got %q, %v; want it still active", id, status, err)
	}
	b = startInstance(t, "b2", srv, key, url)
	got := srv.WaitMessage(t, ch3, board.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "ran out of time") })
	if !strings.Contains(got.Text(), alice.Mention()+" ran out of time") {
		t.Errorf("after the turn ran out:\n%s", got)
	}
	if at := time.UnixMilli(claimed); time.Now().Before(at) {
		t.Errorf("the claim of the dead instance was taken over at %v, before it ran out at %v", time.Now(), at)
	}
	if n := b.fired(id); n != 1 || a.fired(id) != 0 {
		t.Errorf("game %d: fired %d times by a and %d by b, want once by b", id, a.fired(id), n)
	}
	problems, err := postgres.Check(t.Context(), url, nil)
	if err != nil || len(problems) != 0 {
		t.Errorf("check: got %v, %v; want a sound database", problems, err)
	}
}

// latestGame is the ID of the latest game in channel.
func latestGame(t *testing.T, c *pgx.Conn, channel string) int64 {
	t.Helper()
	var id int64
	if err := c.QueryRow(t.Context(), "SELECT max(id) FROM games WHERE channel_id = $1", channel).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// waitFor polls cond until it holds, failing t after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
