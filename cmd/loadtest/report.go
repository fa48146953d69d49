package main

import (
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/tttbot/tttbot"
)

// report is what the load test measured.
type report struct {
	opts       loadOptions
	web        *webReport    // the pages', with -pages
	elapsed    time.Duration // measured (after the warm-up) with a bot up
	warm       []time.Duration
	downtime   time.Duration    // from the kill until the new bot was healthy
	paused     time.Duration    // the load held meanwhile: the killed bot was the only one
	rss        []int64          // each bot's peak
	answered   []int64          // by each bot, warm-up included
	cpu        time.Duration    // the bots', under load
	driverCPU  time.Duration    // the load test's own, meanwhile
	speed      [2]time.Duration // machineSpeed before and after the load
	commits    [2]int           // the database's commitSpeed before and after the load
	floor      floor            // measured after the load, with the bots stopped
	bodySize   int              // the requests' mean body
	pgCPU      time.Duration    // the load test's own PostgreSQL's (-postgres), while measuring
	statements []statementStat  // and the statements it ran meanwhile
	busy       time.Duration    // every process's on the machine, the kernel's included, while measuring
	cpus       int              // the machine's, of which the load test may see fewer
	// transactions is PostgreSQL's count of the database's transactions
	// from before the bots started until they stopped.
	transactions int64
	kinds        [numKinds]kindStats
	bySize       [2][]time.Duration // 3×3, bigger boards
	perSec       []int64
	sessions     map[string]int
	lost         int64
	errs         []string
	rest         map[string]int64
	acked        []tttbot.Move
	games        []int64 // every game the bots answered with
	fired        int     // deadlines that ended a game
	unedited     int     // of those, boards the timers never edited: lost with a killed bot
	problems     []string

	// A soak's (see soak.go).
	faults     []faultRecord
	rssCurve   []rssSample
	late       int64         // answers later than lateAfter
	slowest    time.Duration // of those
	deferred   int64
	abandoned  int64
	refused    int64   // clicks refused as too late
	letGo      []int64 // games the driver left to their deadlines
	timeLosses []int64 // games lost on time that the driver played on
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
		r.slowest = max(r.slowest, w.slowest)
		r.letGo = append(r.letGo, w.letGo...)
		r.warm = append(r.warm, w.warm...)
		r.acked = append(r.acked, w.acked...)
		r.games = append(r.games, w.games...)
		r.errs = append(r.errs, w.errMsgs...)
	}
	for _, in := range d.bots {
		r.answered = append(r.answered, in.answered.Load())
	}
	r.lost, r.late, r.deferred, r.abandoned, r.refused = d.lost.Load(), d.late.Load(), d.deferred.Load(), d.abandoned.Load(), d.refused.Load()
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

// botRate is the interactions each bot answered a second while measured.
func (r *report) botRate() int {
	n := len(r.bySize[0]) + len(r.bySize[1])
	return int(float64(n) / r.elapsed.Seconds() / float64(max(r.opts.instances, 1)))
}

func (r *report) failed() bool {
	n := len(r.problems) + len(r.timeLosses) + int(r.late+r.refused)
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
	if o.guests > 0 {
		fmt.Fprintf(out, ", guests %.2f", o.guests)
	}
	if o.botGodebug != "" {
		fmt.Fprintf(out, ", bots' GODEBUG %s", o.botGodebug)
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
	all := kindTable(tw, r.kinds)
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
		if r.pgCPU > 0 {
			fmt.Fprintf(out, "PostgreSQL CPU: %.2f of %d cores, %dµs per interaction\n", r.pgCPU.Seconds()/r.elapsed.Seconds(),
				runtime.NumCPU(), r.pgCPU.Microseconds()/int64(max(len(all), 1)))
		}
		// What one process sheds may land on another on the same cores:
		// the sum tells a saving from a cost moved.
		who := bots(len(r.rss)) + " and driver's"
		if r.pgCPU > 0 {
			who = bots(len(r.rss)) + ", driver's and PostgreSQL's"
		}
		fmt.Fprintf(out, "%s CPU together: %dµs per interaction\n", who, (r.cpu+r.driverCPU+r.pgCPU).Microseconds()/int64(max(len(all), 1)))
		if r.busy > 0 {
			// How near the cores are to full: past it, latency is queueing.
			fmt.Fprintf(out, "machine: %.2f of %d cores busy, every process and the kernel\n",
				r.busy.Seconds()/(r.elapsed+r.paused).Seconds(), r.cpus)
		}
		printStatements(out, r.statements, len(all))
		if f := r.floor; f.total() > 0 {
			per := r.cpu / time.Duration(max(len(all), 1))
			fmt.Fprintf(out, "floor: %dµs = Ed25519 check of a %d-byte request %dµs + a move committed on %s %dµs; the bot's CPU per interaction is %.1f× the floor\n",
				f.total().Microseconds(), r.bodySize, f.verify.Microseconds(), r.engine(), f.move.Microseconds(), float64(per)/float64(f.total()))
			if f.http > 0 {
				fmt.Fprintf(out, "net/http's own: %dµs per request, an empty handler in a process of its own at the bot's %d/s; with it the floor is %dµs, and the bot's CPU %.1f× that\n",
					f.http.Microseconds(), r.botRate(), (f.total() + f.http).Microseconds(), float64(per)/float64(f.total()+f.http))
			}
		}
	}
	fmt.Fprintf(out, "machine speed: ed25519.Sign on 2 KB takes %.1fµs before the load, %.1fµs after\n",
		float64(r.speed[0].Nanoseconds())/1000, float64(r.speed[1].Nanoseconds())/1000)
	if r.transactions > 0 {
		var n int64
		for _, a := range r.answered {
			n += a
		}
		fmt.Fprintf(out, "PostgreSQL transactions: %d while the bots ran, %.2f per interaction answered (warm-up, timers and pruning included)\n",
			r.transactions, float64(r.transactions)/float64(max(n, 1)))
	}
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

// kindTable writes to tw the latency of each kind of request answered, and
// of all of them, which it returns sorted.
func kindTable(tw io.Writer, kinds [numKinds]kindStats) []time.Duration {
	fmt.Fprintln(tw, "kind\tcount\terrors\tp50\tp99\tmax\t")
	var all []time.Duration
	errs := 0
	for k, s := range kinds {
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
	return all
}
