package main

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
)

// loadtest runs the load and the check. The report is nil when the bots
// never started.
func loadtest(ctx context.Context, stderr io.Writer, o loadOptions, dir string) (*report, error) {
	// The bots' logs go to stderr, each copied by a goroutine of its own
	// unless stderr is a file.
	stderr = &syncWriter{w: stderr}
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		return nil, fmt.Errorf("generate a key: %w", err)
	}
	db := databaseOf(o)
	speed := machineSpeed()
	commits, err := db.commitSpeed(ctx)
	if err != nil {
		return nil, err
	}
	ids := newRunIDs(time.Now())
	stub := newRESTStub(o.restLatency, ids)
	apiLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("rest stub: %w", err)
	}
	api := &http.Server{Handler: stub, ReadHeaderTimeout: 5 * time.Second}
	go api.Serve(apiLn)
	defer api.Close()

	// Each bot keeps its address across a restart.
	starts := make([]func() (*child, error), o.instances)
	urls := make([]string, o.instances)
	for i := range starts {
		listen, err := freeAddr()
		if err != nil {
			return nil, err
		}
		cfgPath := filepath.Join(dir, fmt.Sprintf("config%d.toml", i+1))
		if o.instances == 1 {
			cfgPath = filepath.Join(dir, "config.toml")
		}
		cfg := botConfig(o, hex.EncodeToString(pub), "http://"+apiLn.Addr().String()+"/api/v9", listen, i == 0)
		if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
			return nil, fmt.Errorf("write config: %w", err)
		}
		starts[i] = func() (*child, error) { return startChild(ctx, o.bot, cfgPath, "http://"+listen, stderr) }
		urls[i] = "http://" + listen + "/interactions"
	}
	bots := make([]*child, o.instances)
	defer func() {
		for _, b := range bots { // whichever bots run by then
			if b != nil {
				b.kill()
			}
		}
	}()
	for i, start := range starts {
		if bots[i], err = start(); err != nil {
			return nil, err
		}
	}
	// anyDone is closed when a bot exits, which ends the load.
	anyDone := make(chan struct{})
	var anyOnce sync.Once
	watch := func(b *child) {
		go func() {
			select {
			case <-b.done:
				if !b.killed.Load() {
					anyOnce.Do(func() { close(anyDone) })
				}
			case <-ctx.Done():
			}
		}()
	}
	for _, b := range bots {
		watch(b)
	}

	d := newDriver(o, ids, priv, urls)

	loadCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	workers := make([]*worker, o.concurrency)
	for i := range workers {
		per := o.players / o.concurrency
		workers[i] = d.newWorker(i, per*i, per)
		wg.Go(func() { workers[i].run(loadCtx) })
	}

	rep := &report{opts: o, speed: [2]time.Duration{speed}, commits: [2]int{commits}, rss: make([]int64, o.instances)}
	// The load runs from the start; the figures count from the warm-up's end.
	select {
	case <-time.After(time.Until(d.from)):
	case <-ctx.Done():
	case <-anyDone:
	}
	end := d.from.Add(o.duration)
	cpu0 := make([]time.Duration, o.instances)
	for i, b := range bots {
		cpu0[i] = b.cpuTime()
	}
	self0 := cpuTime(os.Getpid())
	if o.kill {
		select {
		case <-time.After(o.duration / 2):
		case <-ctx.Done():
		case <-anyDone:
		}
		if ctx.Err() == nil && bots[0].exited() == nil {
			// Kill the first bot with requests in flight, so that some die
			// mid-transaction. Alone, it holds the load meanwhile; with
			// others, they take its share, as behind a load balancer.
			in := d.bots[0]
			for t := time.Now(); in.inflight.Load() == 0 && time.Since(t) < time.Second; {
				time.Sleep(50 * time.Microsecond)
			}
			alone := o.instances == 1
			if alone {
				d.pace.down()
			}
			in.down()
			rep.rss[0] = max(rep.rss[0], bots[0].peakRSS())
			rep.cpu += bots[0].cpuTime() - cpu0[0]
			bots[0].kill()
			downAt := time.Now()
			if bots[0], err = starts[0](); err != nil {
				stop()
				wg.Wait()
				return nil, err
			}
			watch(bots[0])
			cpu0[0] = bots[0].cpuTime()
			rep.downtime = time.Since(downAt)
			in.up()
			if alone {
				d.pace.up()
				end = end.Add(rep.downtime)
				rep.paused = rep.downtime
			}
		}
	}
	select {
	case <-time.After(time.Until(end)):
	case <-ctx.Done():
	case <-anyDone:
	}
	stop()
	wg.Wait()
	rep.elapsed = time.Since(d.from) - rep.paused
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for i, b := range bots {
		if err := b.exited(); err != nil {
			return nil, fmt.Errorf("bot %d died: %w", i+1, err)
		}
		rep.rss[i] = max(rep.rss[i], b.peakRSS())
		rep.cpu += b.cpuTime() - cpu0[i]
	}
	rep.driverCPU = cpuTime(os.Getpid()) - self0
	if o.abandon > 0 {
		// Every deadline set under load falls within a timeout of its end:
		// wait until the timers have fired the last, so that the check
		// finds each fired and none half done.
		select {
		case <-time.After(o.turnTimeout + 2*timerInterval + 500*time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	var stopErrs []error
	for _, b := range bots {
		stopErrs = append(stopErrs, b.stop())
	}
	if err := errors.Join(stopErrs...); err != nil {
		return nil, err
	}
	rep.speed[1] = machineSpeed()
	if rep.commits[1], err = db.commitSpeed(ctx); err != nil {
		return nil, err
	}
	rep.gather(d, workers, stub)
	if rep.problems, err = db.check(ctx, rep.acked); err != nil {
		return rep, fmt.Errorf("check the database: %w", err)
	}
	games, err := db.games(ctx, rep.games)
	if err != nil {
		return rep, fmt.Errorf("check the deadlines: %w", err)
	}
	var problems []string
	rep.fired, rep.unedited, problems = checkDeadlines(games, stub.editCounts(), time.Now(), o.kill)
	rep.problems = append(rep.problems, problems...)
	return rep, nil
}

// syncWriter writes to w one Write at a time.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// timerInterval is how often the bots look for due deadlines.
const timerInterval = time.Second

// botConfig is the configuration of one bot: in http mode on listen, with
// the REST stub at api. Only the first bot registers the commands, as in a
// deployment of several instances.
func botConfig(o loadOptions, publicKey, api, listen string, register bool) string {
	database := fmt.Sprintf("path = %q", o.db)
	if o.databaseURL != "" {
		database = fmt.Sprintf("url = %q", o.databaseURL)
	}
	game := "simultaneous_games = true"
	if o.abandon > 0 {
		game += fmt.Sprintf("\nchallenge_timeout = %q\nturn_timeout = %q", o.turnTimeout, o.turnTimeout)
	}
	return fmt.Sprintf(`[discord]
mode = "http"
public_key = %q
api_url = %q
register_commands = %t

[http]
listen = %q

[database]
%s

[game]
%s

[log]
level = "warn"
`, publicKey, api, register, listen, database, game)
}

// machineSpeed times ed25519.Sign on 2 KB, the fastest of a few batches: a
// yardstick for the machine, whose speed varies from day to day (on a
// shared VM by a factor of two and more), so that runs on different days
// can be compared. It runs while the bot is idle.
func machineSpeed() time.Duration {
	_, key, _ := ed25519.GenerateKey(nil)
	msg := make([]byte, 2048)
	const batch = 100
	best := time.Duration(math.MaxInt64)
	for range 10 {
		t := time.Now()
		for range batch {
			ed25519.Sign(key, msg)
		}
		best = min(best, time.Since(t)/batch)
	}
	return best
}

// freeAddr finds a free loopback port for the bot, which keeps it across a
// restart.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// child is a bot under load.
type child struct {
	cmd    *exec.Cmd
	done   chan struct{} // closed when the process has exited
	err    error         // its exit, once done
	killed atomic.Bool   // on purpose, by kill
}

// startChild runs bin with the config at cfg and waits until base/healthz
// answers.
func startChild(ctx context.Context, bin, cfg, base string, stderr io.Writer) (*child, error) {
	cmd := exec.Command(bin, "run", "-config", cfg)
	env := []string{"DISCORD_TOKEN=loadtest-token"}
	for _, kv := range os.Environ() {
		// The config names the database and the token.
		if !strings.HasPrefix(kv, "TTTBOT_DATABASE_PATH=") && !strings.HasPrefix(kv, "TTTBOT_DATABASE_URL=") && !strings.HasPrefix(kv, "DISCORD_TOKEN=") {
			env = append(env, kv)
		}
	}
	cmd.Env, cmd.Stderr = env, stderr
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the bot: %w", err)
	}
	c := &child{cmd: cmd, done: make(chan struct{})}
	go func() { c.err = cmd.Wait(); close(c.done) }()
	deadline := time.Now().Add(time.Minute)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return c, nil
			}
		}
		select {
		case <-c.done:
			return nil, fmt.Errorf("the bot exited at start-up: %v", c.err)
		case <-ctx.Done():
			c.kill()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.kill()
			return nil, errors.New("the bot was not healthy within a minute")
		}
	}
}

// exited returns why the bot exited, or nil while it runs.
func (c *child) exited() error {
	select {
	case <-c.done:
		if c.err == nil {
			return errors.New("exit status 0")
		}
		return c.err
	default:
		return nil
	}
}

// kill sends SIGKILL and waits for the process to go.
func (c *child) kill() {
	c.killed.Store(true)
	c.cmd.Process.Kill()
	<-c.done
}

// stop asks the bot to shut down (SIGTERM) and waits for it.
func (c *child) stop() error {
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop the bot: %w", err)
	}
	select {
	case <-c.done:
		if c.err != nil {
			return fmt.Errorf("the bot's shutdown: %w", c.err)
		}
		return nil
	case <-time.After(30 * time.Second):
		c.kill()
		return errors.New("the bot did not stop within 30s")
	}
}

// cpuTime is the CPU time the bot has used, or 0 where /proc does not tell.
func (c *child) cpuTime() time.Duration { return cpuTime(c.cmd.Process.Pid) }

// cpuTime is the CPU time process pid has used, or 0 where /proc does not
// tell.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// utime and stime are the 12th and 13th fields after the command name,
	// in USER_HZ (100 a second).
	_, rest, _ := strings.Cut(string(b), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+sys) * time.Second / 100
}

// peakRSS is the process's peak resident memory in bytes (VmHWM), or 0 where
// /proc does not tell.
func (c *child) peakRSS() int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// restStub answers the bot's REST calls as Discord would, enough for the
// bot to run: who it is, command registration, the message an inline
// response created, follow-ups and edits. Each answer takes latency, as
// Discord's would: REST calls that wait for each other show only then.
type restStub struct {
	mux     *http.ServeMux
	ids     runIDs
	latency time.Duration
	nextID  atomic.Int64
	calls   sync.Map // route → *atomic.Int64

	mu     sync.Mutex
	closed map[string]map[int]bool // message ID → the versions of its game edits showed closed
}

func newRESTStub(latency time.Duration, ids runIDs) *restStub {
	s := &restStub{mux: http.NewServeMux(), ids: ids, latency: latency, closed: map[string]map[int]bool{}}
	s.nextID.Store(int64(ids) + stubMessages)
	user := map[string]any{"id": botUserID, "username": "tttbot", "discriminator": "0", "bot": true}
	s.route("GET /api/v9/users/@me", func(w http.ResponseWriter, r *http.Request) { writeJSONBody(w, user) })
	s.route("GET /api/v9/applications/@me", func(w http.ResponseWriter, r *http.Request) {
		writeJSONBody(w, map[string]any{"id": appID, "name": "tttbot", "bot": user})
	})
	s.route("PUT /api/v9/applications/{app}/commands", func(w http.ResponseWriter, r *http.Request) {
		var cmds []map[string]any
		if err := json.NewDecoder(r.Body).Decode(&cmds); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, c := range cmds {
			c["id"], c["application_id"] = s.id(), appID
		}
		writeJSONBody(w, cmds)
	})
	s.route(fetchRoute, func(w http.ResponseWriter, r *http.Request) {
		// The token names the interaction, whose response made the message.
		n, err := strconv.ParseInt(strings.TrimPrefix(r.PathValue("token"), tokenPrefix), 10, 64)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		writeJSONBody(w, map[string]any{"id": strconv.FormatInt(s.ids.message(n), 10), "author": user, "type": discordgo.MessageTypeChatInputCommand})
	})
	s.route("POST /api/v9/webhooks/{app}/{token}", func(w http.ResponseWriter, r *http.Request) {
		writeJSONBody(w, map[string]any{"id": s.id(), "author": user, "webhook_id": appID})
	})
	s.route("PATCH /api/v9/channels/{channel}/messages/{message}", func(w http.ResponseWriter, r *http.Request) {
		// A stale click's refresh shows the game open; the timers' edit
		// after a deadline shows it closed. A click's refresh of a board
		// whose game has ended shows the state the timers' edit showed, at
		// the same version: it is not a second edit by the timers.
		var m struct {
			Components json.RawMessage `json:"components"`
		}
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if b, err := parseBoard(&response{Data: &responseData{Components: m.Components}}); err != nil || !b.open() {
			s.mu.Lock()
			msg := r.PathValue("message")
			if s.closed[msg] == nil {
				s.closed[msg] = map[int]bool{}
			}
			s.closed[msg][b.version] = true
			s.mu.Unlock()
		}
		writeJSONBody(w, map[string]any{"id": r.PathValue("message"), "channel_id": r.PathValue("channel"), "author": user})
	})
	s.route("POST /api/v9/channels/{channel}/messages", func(w http.ResponseWriter, r *http.Request) {
		writeJSONBody(w, map[string]any{"id": s.id(), "channel_id": r.PathValue("channel"), "author": user})
	})
	s.route("/", http.NotFound)
	return s
}

func (s *restStub) route(pattern string, h http.HandlerFunc) {
	n := new(atomic.Int64)
	s.calls.Store(pattern, n)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if s.latency > 0 {
			t := time.NewTimer(s.latency)
			defer t.Stop()
			select {
			case <-t.C:
			case <-r.Context().Done():
				return
			}
		}
		h(w, r)
		io.Copy(io.Discard, r.Body)
	})
}

func (s *restStub) id() string { return strconv.FormatInt(s.nextID.Add(1), 10) }

// editCounts returns, for each message, how many versions of its game
// edits showed closed: a refresh that redraws a version already shown is
// not counted again.
func (s *restStub) editCounts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	counts := make(map[string]int, len(s.closed))
	for m, versions := range s.closed {
		counts[m] = len(versions)
	}
	return counts
}

func (s *restStub) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func writeJSONBody(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// report is what the load test measured.
type report struct {
	opts      loadOptions
	elapsed   time.Duration // measured (after the warm-up) with a bot up
	warm      []time.Duration
	downtime  time.Duration    // from the kill until the new bot was healthy
	paused    time.Duration    // the load held meanwhile: the killed bot was the only one
	rss       []int64          // each bot's peak
	answered  []int64          // by each bot, warm-up included
	cpu       time.Duration    // the bots', under load
	driverCPU time.Duration    // the load test's own, meanwhile
	speed     [2]time.Duration // machineSpeed before and after the load
	commits   [2]int           // the database's commitSpeed before and after the load
	kinds     [numKinds]kindStats
	bySize    [2][]time.Duration // 3×3, bigger boards
	perSec    []int64
	sessions  map[string]int
	lost      int
	errs      []string
	rest      map[string]int64
	acked     []tttbot.Move
	games     []int64 // every game the bots answered with
	fired     int     // deadlines that ended a game
	unedited  int     // of those, boards the timers never edited: lost with a killed bot
	problems  []string
}

type kindStats struct {
	lat  []time.Duration
	errs int
}

func (r *report) gather(d *driver, workers []*worker, stub *restStub) {
	r.sessions = map[string]int{}
	for _, w := range workers {
		for k := range numKinds {
			r.kinds[k].lat = append(r.kinds[k].lat, w.lat[k]...)
			r.kinds[k].errs += w.errs[k]
		}
		for i := range r.bySize {
			r.bySize[i] = append(r.bySize[i], w.bySize[i]...)
		}
		for s, n := range w.sessions {
			r.sessions[s] += n
		}
		r.lost += w.lost
		r.warm = append(r.warm, w.warm...)
		r.acked = append(r.acked, w.acked...)
		r.games = append(r.games, w.games...)
		r.errs = append(r.errs, w.errMsgs...)
	}
	for _, in := range d.bots {
		r.answered = append(r.answered, in.answered.Load())
	}
	for k := range r.kinds {
		slices.Sort(r.kinds[k].lat)
	}
	for i := range r.bySize {
		slices.Sort(r.bySize[i])
	}
	r.perSec = d.perSecond(r.elapsed + r.paused)
	r.rest = map[string]int64{}
	stub.calls.Range(func(k, v any) bool {
		if n := v.(*atomic.Int64).Load(); n > 0 {
			r.rest[k.(string)] = n
		}
		return true
	})
}

// fetchRoute is the REST call by which the bot learns a new board's
// message, which its timers edit.
const fetchRoute = "GET /api/v9/webhooks/{app}/{token}/messages/@original"

// unfetched is how many new boards the bot did not fetch the message of.
// After a kill some are lost in flight, as answers are.
func (r *report) unfetched() int64 {
	return max(int64(r.sessions["bot games"]+r.sessions["challenges"])-r.rest[fetchRoute], 0)
}

func (r *report) failed() bool {
	n := len(r.problems)
	if !r.opts.kill && r.unfetched() > 0 {
		n++
	}
	for _, k := range r.kinds {
		n += k.errs
	}
	return n > 0
}

func percentile(s []time.Duration, p float64) time.Duration {
	if len(s) == 0 {
		return 0
	}
	i := int(float64(len(s))*p+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) string { return strconv.FormatFloat(d.Seconds()*1000, 'f', 2, 64) + "ms" }

// bots is "bot", or "bots" for several.
func bots(n int) string {
	if n > 1 {
		return "bots'"
	}
	return "bot"
}

func (r *report) print(out io.Writer) {
	o := r.opts
	rate := "as fast as answered"
	if o.rate > 0 {
		rate = fmt.Sprintf("%d/s offered", o.rate)
	}
	fmt.Fprintf(out, "loadtest: %s after %s warm-up, %s, %d games at once, %d players, %d channels, bad %.2f, big %.2f, seed %d, kill %v, REST latency %s",
		o.duration, o.warmup, rate, o.concurrency, o.players, o.channels, o.bad, o.big, o.seed, o.kill, o.restLatency)
	if o.databaseURL != "" {
		fmt.Fprintf(out, ", PostgreSQL shared by %d bot", o.instances)
		if o.instances > 1 {
			fmt.Fprint(out, "s")
		}
	}
	if o.abandon > 0 {
		fmt.Fprintf(out, ", abandon %.2f with %s timeouts", o.abandon, o.turnTimeout)
	}
	fmt.Fprint(out, "\n\n")
	if o.warmup > 0 {
		slices.Sort(r.warm)
		fmt.Fprintf(out, "warm-up (%s, not counted below): %d answers, p50 %s, p99 %s, max %s\n\n", o.warmup, len(r.warm),
			ms(percentile(r.warm, .5)), ms(percentile(r.warm, .99)), ms(percentile(r.warm, 1)))
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\tcount\terrors\tp50\tp99\tmax\t")
	var all []time.Duration
	errs := 0
	for k, s := range r.kinds {
		if len(s.lat) == 0 && s.errs == 0 {
			continue
		}
		all = append(all, s.lat...)
		errs += s.errs
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t\n", kind(k), len(s.lat), s.errs,
			ms(percentile(s.lat, .5)), ms(percentile(s.lat, .99)), ms(percentile(s.lat, 1)))
	}
	slices.Sort(all)
	fmt.Fprintf(tw, "all\t%d\t%d\t%s\t%s\t%s\t\n", len(all), errs,
		ms(percentile(all, .5)), ms(percentile(all, .99)), ms(percentile(all, 1)))
	if o.big > 0 {
		for i, name := range []string{"on 3×3", "on 4×4, 5×5"} {
			s := r.bySize[i]
			fmt.Fprintf(tw, "%s\t%d\t\t%s\t%s\t%s\t\n", name, len(s),
				ms(percentile(s, .5)), ms(percentile(s, .99)), ms(percentile(s, 1)))
		}
	}
	tw.Flush()

	through := float64(len(all)) / r.elapsed.Seconds()
	fmt.Fprintf(out, "\nthroughput: %.0f interactions/s over %s", through, r.elapsed.Round(time.Millisecond))
	// The first and last seconds are partial; the kill's are not "sustained".
	if full := r.perSec; len(full) > 2 {
		full = slices.Clone(full[1 : len(full)-1])
		full = slices.DeleteFunc(full, func(n int64) bool { return n < 0 })
		if len(full) > 0 {
			fmt.Fprintf(out, " (slowest full second %d, fastest %d)", slices.Min(full), slices.Max(full))
		}
	}
	fmt.Fprintln(out)
	if len(r.answered) > 1 {
		var per []string
		for i, n := range r.answered {
			per = append(per, fmt.Sprintf("%d: %d", i+1, n))
		}
		fmt.Fprintf(out, "answers by bot, warm-up included: %s\n", strings.Join(per, ", "))
	}
	if r.cpu > 0 {
		fmt.Fprintf(out, "%s CPU: %.2f of %d cores, %dµs per interaction\n", bots(len(r.rss)), r.cpu.Seconds()/r.elapsed.Seconds(),
			runtime.NumCPU(), r.cpu.Microseconds()/int64(max(len(all), 1)))
		// The driver stands in for Discord, but shares the bot's cores.
		fmt.Fprintf(out, "driver CPU: %.2f of %d cores, %dµs per interaction\n", r.driverCPU.Seconds()/(r.elapsed+r.paused).Seconds(),
			runtime.NumCPU(), r.driverCPU.Microseconds()/int64(max(len(all), 1)))
	}
	fmt.Fprintf(out, "machine speed: ed25519.Sign on 2 KB takes %.1fµs before the load, %.1fµs after\n",
		float64(r.speed[0].Nanoseconds())/1000, float64(r.speed[1].Nanoseconds())/1000)
	if r.commits[0] > 0 {
		fmt.Fprintf(out, "PostgreSQL's speed: %d commits/s from %d connections before the load, %d after\n", r.commits[0], commitConns, r.commits[1])
	}
	switch {
	case len(r.rss) == 0 || slices.Contains(r.rss, 0):
		fmt.Fprintln(out, "bot peak RSS: unknown (no /proc)")
	case len(r.rss) == 1:
		fmt.Fprintf(out, "bot peak RSS: %.1f MB\n", float64(r.rss[0])/(1<<20))
	default:
		var per []string
		for i, n := range r.rss {
			per = append(per, fmt.Sprintf("%d: %.1f MB", i+1, float64(n)/(1<<20)))
		}
		fmt.Fprintf(out, "bots' peak RSS: %s\n", strings.Join(per, ", "))
	}
	if o.kill {
		which := "bot"
		if len(r.rss) > 1 {
			which = "bot 1 of " + strconv.Itoa(len(r.rss))
		}
		fmt.Fprintf(out, "kill -9 halfway: %s back in %s; requests lost in flight: %d (their games resigned after the restart)\n",
			which, r.downtime.Round(time.Millisecond), r.lost)
	}
	var sess []string
	for _, s := range slices.Sorted(maps.Keys(r.sessions)) {
		sess = append(sess, fmt.Sprintf("%s %d", s, r.sessions[s]))
	}
	fmt.Fprintf(out, "games: %s; moves acknowledged: %d\n", strings.Join(sess, ", "), len(r.acked))
	var rest []string
	for _, k := range slices.Sorted(maps.Keys(r.rest)) {
		rest = append(rest, fmt.Sprintf("%s %d", strings.Replace(k, "/api/v9", "", 1), r.rest[k]))
	}
	fmt.Fprintf(out, "REST calls from the bot: %s\n", strings.Join(rest, ", "))
	if n := r.unfetched(); n > 0 {
		fmt.Fprintf(out, "board messages: %d new boards never fetched (their timers cannot edit them)\n", n)
	}
	if o.abandon > 0 || r.fired > 0 {
		fmt.Fprintf(out, "deadlines: %d fired, each once", r.fired)
		if r.unedited > 0 {
			fmt.Fprintf(out, "; %d boards not edited, their edit lost with the killed bot", r.unedited)
		}
		fmt.Fprintln(out)
	}
	for _, e := range r.errs {
		fmt.Fprintln(out, "error:", e)
	}
	if len(r.problems) == 0 {
		fmt.Fprintf(out, "database check: ok (every game replays; all %d acknowledged moves stored; ratings count their results)\n", len(r.acked))
		return
	}
	fmt.Fprintf(out, "database check: %d problems\n", len(r.problems))
	for i, p := range r.problems {
		if i == 20 {
			fmt.Fprintf(out, "  … and %d more\n", len(r.problems)-i)
			break
		}
		fmt.Fprintln(out, " ", p)
	}
}
