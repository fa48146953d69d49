package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/commands"
)

// loadtest runs the load and the check. A soak prints a line to progress
// per fault as it happens. The report is nil when the bots never started.
func loadtest(ctx context.Context, progress, stderr io.Writer, o loadOptions, dir string) (*report, error) {
	// The bots' logs go to stderr, each copied by a goroutine of its own
	// unless stderr is a file.
	stderr = &syncWriter{w: stderr}
	rg, err := newRig(ctx, o, dir, stderr)
	if err != nil {
		return nil, err
	}
	defer rg.close()
	o = rg.o
	db := rg.db
	speed := machineSpeed()
	commits, err := db.commitSpeed(ctx)
	if err != nil {
		return nil, err
	}
	// Settled: commitSpeed's backends report their commits as they exit,
	// which may be after it returns.
	tx0, err := db.transactions(ctx)
	if err != nil {
		return nil, err
	}
	if err := rg.start(ctx); err != nil {
		return nil, err
	}
	ids, stub, starts, urls, bots, anyDone, watch, cluster := rg.ids, rg.stub, rg.starts, rg.urls, rg.bots, rg.anyDone, rg.watch, rg.cluster
	profileAddr := rg.profileAddr

	d := newDriver(o, ids, rg.key, urls, &stub.answers)
	if o.soak > 0 {
		// A failure on the bot's side is the answer a fault may cost, as
		// long as nothing is stored: it is counted, and its game settled.
		if d.internal, err = commands.Text("en-US", "error_internal"); err != nil {
			return nil, err
		}
		for _, id := range []string{"error_time_up", "error_expired", "error_game_over"} {
			text, err := commands.Text("en-US", id)
			if err != nil {
				return nil, err
			}
			d.tooLate = append(d.tooLate, text)
		}
	}

	loadCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	var pages *webLoad
	if o.pages > 0 {
		start, err := d.turnWebOn(ctx, o.channels)
		if err != nil {
			return nil, err
		}
		bases := make([]string, len(urls))
		for i, u := range urls {
			bases[i] = strings.TrimSuffix(u, "/interactions")
		}
		pages = newWebLoad(bases, start, o.pages, d.from, o.seed)
		wg.Go(func() { pages.run(loadCtx) })
	}
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
	f := &fleet{d: d, rep: rep, starts: starts, bots: bots, cpu0: make([]time.Duration, o.instances), watch: watch}
	for i, b := range bots {
		f.cpu0[i] = b.cpuTime()
	}
	self0 := cpuTime(os.Getpid())
	machine0, _ := machineBusy()
	var pgCPU0 time.Duration
	if cluster != nil {
		// The server's CPU, and its statements, while measuring.
		pgCPU0 = cluster.cpu()
		if cluster.statements() {
			if err := countStatements(ctx, cluster.url()); err != nil {
				return nil, err
			}
		}
	}
	var profiled chan error
	if profileAddr != "" {
		profiled = make(chan error, 1)
		go func() { profiled <- fetchProfile(ctx, profileAddr, o.duration, o.cpuProfile) }()
	}
	switch {
	case o.kill:
		select {
		case <-time.After(o.duration / 2):
		case <-ctx.Done():
		case <-anyDone:
		}
		if ctx.Err() == nil && bots[0].exited() == nil {
			var paused time.Duration
			if rep.downtime, paused, err = f.restart(0); err != nil {
				stop()
				wg.Wait()
				return nil, err
			}
			end = end.Add(paused)
			rep.paused += paused
		}
	case o.soak > 0:
		if end, err = f.soak(ctx, progress, &faulter{stall: o.stall, cluster: cluster, db: o.db}, end, anyDone); err != nil {
			stop()
			wg.Wait()
			return nil, err
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
	if pages != nil {
		rep.web = pages.report(rep.elapsed)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	for i, b := range bots {
		if err := b.exited(); err != nil {
			return nil, fmt.Errorf("bot %d died: %w", i+1, err)
		}
		rep.rss[i] = max(rep.rss[i], b.peakRSS())
		rep.cpu += b.cpuTime() - f.cpu0[i]
	}
	rep.driverCPU = cpuTime(os.Getpid()) - self0
	machine1, cpus := machineBusy()
	rep.busy, rep.cpus = machine1-machine0, cpus
	if cluster != nil {
		rep.pgCPU = cluster.cpu() - pgCPU0
	}
	if profiled != nil {
		if err := <-profiled; err != nil {
			return nil, err
		}
	}
	if o.abandon > 0 {
		// Every deadline set under load falls within a timeout of its end,
		// and is due tttbot.DeadlineGrace later: wait until the timers
		// have fired the last, so that the check finds each fired and none
		// half done.
		select {
		case <-time.After(o.turnTimeout + tttbot.DeadlineGrace + 2*timerInterval + 500*time.Millisecond):
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
	if cluster != nil && cluster.statements() {
		if rep.statements, err = statementsRun(ctx, cluster.url()); err != nil {
			return nil, err
		}
	}
	rep.speed[1] = machineSpeed()
	if tx, err := db.transactions(ctx); err != nil {
		return nil, err
	} else if tx > 0 {
		rep.transactions = tx - tx0
	}
	rep.bodySize = d.meanBody()
	if rep.floor, err = measureFloor(ctx, db, dir, rep.bodySize); err != nil {
		return nil, err
	}
	if rep.commits[1], err = db.commitSpeed(ctx); err != nil {
		return nil, err
	}
	rep.gather(d, workers, stub)
	if rate := rep.botRate(); rate > 0 {
		// A figure beside the run's: without it the report still stands.
		if rep.floor.http, err = measureHTTP(ctx, rate, o.concurrency, rep.bodySize, d.meanAnswer(), o.botGodebug, httpWarmup, httpWindow); err != nil {
			fmt.Fprintf(stderr, "loadtest: net/http's own cost not measured: %v\n", err)
		}
	}
	if rep.problems, err = db.check(ctx, rep.acked); err != nil {
		return rep, fmt.Errorf("check the database: %w", err)
	}
	games, err := db.games(ctx, rep.games)
	if err != nil {
		return rep, fmt.Errorf("check the deadlines: %w", err)
	}
	var problems []string
	rep.fired, rep.unedited, problems = checkDeadlines(games, stub.board, stub.editCounts(), time.Now(), o.kill || o.soak > 0)
	rep.problems = append(rep.problems, problems...)
	rep.timeLosses = lostOnTime(games, rep.letGo)
	return rep, nil
}

// rig is the bots under test and what they talk to: the key that signs
// the interactions, their database (on a PostgreSQL server of the run's
// own with -postgres), the REST stub, and the bots themselves once start
// has run. close ends them all.
type rig struct {
	o       loadOptions // o with the own server's URL
	stderr  io.Writer
	dir     string
	key     ed25519.PrivateKey
	pub     ed25519.PublicKey
	cluster *pgCluster
	db      database
	ids     runIDs
	stub    *restStub
	api     *http.Server
	starts  []func() (*child, error) // each bot keeps its address across a restart
	urls    []string                 // each bot's interactions endpoint
	// profileAddr is the first bot's admin listener, with -cpuprofile.
	profileAddr string
	bots        []*child
	anyDone     chan struct{} // closed when a bot exits on its own
	anyOnce     sync.Once
	watch       func(*child)
}

// newRig makes the key and the database, but starts nothing that would
// share the machine with a measurement of it.
func newRig(ctx context.Context, o loadOptions, dir string, stderr io.Writer) (*rig, error) {
	r := &rig{o: o, stderr: stderr, dir: dir, anyDone: make(chan struct{})}
	var err error
	if r.pub, r.key, err = ed25519.GenerateKey(nil); err != nil {
		return nil, fmt.Errorf("generate a key: %w", err)
	}
	if o.ownPostgres {
		if r.cluster, err = startCluster(ctx, dir); err != nil {
			return nil, err
		}
		r.o.databaseURL = r.cluster.url()
	}
	r.db = databaseOf(r.o)
	return r, nil
}

// start serves the REST stub and starts the bots, each watched: one that
// exits on its own closes anyDone.
func (r *rig) start(ctx context.Context) error {
	o := r.o
	r.ids = newRunIDs(time.Now())
	r.stub = newRESTStub(o.restLatency, r.ids)
	if o.tournament > 0 {
		r.stub.keepPosts()
	}
	apiLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("rest stub: %w", err)
	}
	r.api = &http.Server{Handler: r.stub, ReadHeaderTimeout: 5 * time.Second}
	go r.api.Serve(apiLn)
	r.starts = make([]func() (*child, error), o.instances)
	r.urls = make([]string, o.instances)
	for i := range r.starts {
		listen, err := freeAddr()
		if err != nil {
			return err
		}
		cfgPath := filepath.Join(r.dir, fmt.Sprintf("config%d.toml", i+1))
		if o.instances == 1 {
			cfgPath = filepath.Join(r.dir, "config.toml")
		}
		admin := ""
		if i == 0 && o.cpuProfile != "" {
			if admin, err = freeAddr(); err != nil {
				return err
			}
			r.profileAddr = admin
		}
		cfg := botConfig(o, hex.EncodeToString(r.pub), "http://"+apiLn.Addr().String()+"/api/v9", listen, admin, i == 0)
		if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
			return fmt.Errorf("write config: %w", err)
		}
		health := "http://" + listen // where /healthz answers
		if admin != "" {
			health = "http://" + admin
		}
		r.starts[i] = func() (*child, error) { return startChild(ctx, o.bot, cfgPath, health, o.botGodebug, r.stderr) }
		r.urls[i] = "http://" + listen + "/interactions"
	}
	r.bots = make([]*child, o.instances)
	r.watch = func(b *child) {
		go func() {
			select {
			case <-b.done:
				if !b.killed.Load() {
					r.anyOnce.Do(func() { close(r.anyDone) })
				}
			case <-ctx.Done():
			}
		}()
	}
	for i, start := range r.starts {
		if r.bots[i], err = start(); err != nil {
			return err
		}
		r.watch(r.bots[i])
	}
	return nil
}

// close kills whichever bots run by then, stops the REST stub and removes
// the PostgreSQL server of the run's own.
func (r *rig) close() {
	for _, b := range r.bots {
		if b != nil {
			b.kill()
		}
	}
	if r.api != nil {
		r.api.Close()
	}
	if r.cluster != nil {
		if err := r.cluster.remove(); err != nil {
			fmt.Fprintf(r.stderr, "loadtest: remove the postgresql cluster: %v\n", err)
		}
	}
}

// stop asks each bot to shut down and waits for them.
func (r *rig) stop() error {
	var errs []error
	for _, b := range r.bots {
		errs = append(errs, b.stop())
	}
	return errors.Join(errs...)
}

// fleet is the bots under load, which kills restart.
type fleet struct {
	d      *driver
	rep    *report
	starts []func() (*child, error)
	bots   []*child
	cpu0   []time.Duration // each bot's CPU time when measuring began, or it last started
	watch  func(*child)
}

// restart kills bot i with requests in flight, so that some die
// mid-transaction, and starts it again on the same database. Alone, it
// holds the load meanwhile; with others, they take its share, as behind a
// load balancer. It returns how long the bot was down, and how long the
// load was held.
func (f *fleet) restart(i int) (down, paused time.Duration, err error) {
	in := f.d.bots[i]
	for t := time.Now(); in.inflight.Load() == 0 && time.Since(t) < time.Second; {
		time.Sleep(50 * time.Microsecond)
	}
	alone := len(f.bots) == 1
	if alone {
		f.d.pace.down()
	}
	in.down()
	f.rep.rss[i] = max(f.rep.rss[i], f.bots[i].peakRSS())
	f.rep.cpu += f.bots[i].cpuTime() - f.cpu0[i]
	f.bots[i].kill()
	downAt := time.Now()
	if f.bots[i], err = f.starts[i](); err != nil {
		return 0, 0, err
	}
	f.watch(f.bots[i])
	f.cpu0[i] = f.bots[i].cpuTime()
	down = time.Since(downAt)
	in.up()
	if alone {
		f.d.pace.up()
		paused = down
	}
	return down, paused, nil
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
func botConfig(o loadOptions, publicKey, api, listen, admin string, register bool) string {
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
%s

[database]
%s

[game]
%s

[log]
level = "warn"
%s`, publicKey, api, register, listen, profiling(admin), database, game, webConfig(o))
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
