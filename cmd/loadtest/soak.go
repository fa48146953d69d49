package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tttbot/tttbot"
)

// A soak (-soak) runs a modest load for long, with a fault every
// -fault-every: a bot killed, and its database restarted, stalled or out
// of disk. What must never happen, whatever the fault: an answer later
// than Discord waits (lateAfter), an acknowledged move lost (the database
// check), a player losing on time while the database held their move.

// rssEvery is how often a soak samples the bots' memory.
const rssEvery = time.Minute

// faultRecord is a fault as it happened, with the driver's counts since
// the previous one's.
type faultRecord struct {
	at                               time.Duration // from the end of the warm-up
	name, what                       string
	answers, late, deferred, abandon int64
	lost                             int64
}

// rssSample is the bots' resident memory at a time of the soak; restarted
// marks the bots started again since the previous sample.
type rssSample struct {
	at        time.Duration
	rss       []int64
	restarted []bool
}

// soakCounts are the driver's running counts a fault's line shows the
// change of.
type soakCounts struct{ answers, late, deferred, abandon, lost int64 }

func (d *driver) counts() soakCounts {
	c := soakCounts{late: d.late.Load(), deferred: d.deferred.Load(), abandon: d.abandoned.Load(), lost: d.lost.Load()}
	for _, in := range d.bots {
		c.answers += in.answered.Load()
	}
	return c
}

// soak does the schedule's faults as the load runs until end, which a kill
// that holds the load puts off, and samples the bots' memory every
// rssEvery. It prints a line per fault to progress, and returns the end.
func (f *fleet) soak(ctx context.Context, progress io.Writer, ft *faulter, end time.Time, anyDone <-chan struct{}) (time.Time, error) {
	o, d, rep := f.d.o, f.d, f.rep
	plan := schedule(faultNames(ft.cluster != nil), o.faultEvery, o.duration, faultRoom(o.stall))
	restarted := make([]bool, len(f.bots))
	sample := func() {
		s := rssSample{at: time.Since(d.from).Round(time.Second), restarted: restarted}
		for _, b := range f.bots {
			s.rss = append(s.rss, b.rss())
		}
		rep.rssCurve = append(rep.rssCurve, s)
		restarted = make([]bool, len(f.bots))
	}
	sample()
	nextSample := d.from.Add(rssEvery)
	var shift time.Duration // the load held by kills
	last := d.counts()
	for {
		next, name := end, ""
		if len(plan) > 0 && d.from.Add(plan[0].at+shift).Before(next) {
			next, name = d.from.Add(plan[0].at+shift), plan[0].name
		}
		if nextSample.Before(next) {
			next, name = nextSample, "sample"
		}
		t := time.NewTimer(time.Until(next))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return end, ctx.Err()
		case <-anyDone:
			t.Stop()
			return end, nil
		}
		switch name {
		case "":
			if time.Until(nextSample) < rssEvery/2 {
				sample() // the end, unless a sample was just taken
			}
			return end, nil
		case "sample":
			sample()
			nextSample = nextSample.Add(rssEvery)
			continue
		}
		plan = plan[1:]
		at := time.Since(d.from)
		var what string
		var err error
		if name == "kill-bot" {
			var down, paused time.Duration
			n := d.bots[0].inflight.Load()
			if down, paused, err = f.restart(0); err == nil {
				restarted[0] = true
				what = fmt.Sprintf("bot 1 killed (SIGKILL) with %d requests in flight, back in %s", n, down.Round(time.Millisecond))
				end, shift, rep.paused = end.Add(paused), shift+paused, rep.paused+paused
			}
		} else {
			pids := make([]int, len(f.bots))
			for i, b := range f.bots {
				pids[i] = b.cmd.Process.Pid
			}
			what, err = ft.do(ctx, name, pids)
		}
		if err != nil {
			return end, fmt.Errorf("soak: %s at %s: %w", name, at.Round(time.Second), err)
		}
		now := d.counts()
		r := faultRecord{at: at.Round(time.Second), name: name, what: what,
			answers: now.answers - last.answers, late: now.late - last.late, deferred: now.deferred - last.deferred,
			abandon: now.abandon - last.abandon, lost: now.lost - last.lost}
		last = now
		rep.faults = append(rep.faults, r)
		fmt.Fprintf(progress, "soak %s %s: %s; since the last fault %d answers, %d late, %d deferred, %d abandoned, %d lost with a killed bot\n",
			r.at, r.name, r.what, r.answers, r.late, r.deferred, r.abandon, r.lost)
	}
}

// lostOnTime lists the games of games that ended on time although the
// driver played them on: none but those in letGo, which it walked away
// from, left when the load stopped or could not settle, may have. Any
// other's player was made to lose for the server's delay.
func lostOnTime(games []*tttbot.Game, letGo []int64) []int64 {
	left := make(map[int64]bool, len(letGo))
	for _, id := range letGo {
		left[id] = true
	}
	var out []int64
	for _, g := range games {
		ended := g.Status == tttbot.StatusExpired || g.Status == tttbot.StatusFinished && g.Reason == tttbot.ReasonTimeout
		if ended && !left[g.ID] {
			out = append(out, g.ID)
		}
	}
	return out
}

// rssGrowth is how much a bot's memory may grow from the first half of a
// soak to the second and still count as flat: a fraction of the first
// half's peak, and a floor for a bot that uses little.
const (
	rssGrowth      = 0.10
	rssGrowthFloor = 8 << 20
)

// rssFlat says whether each bot's memory held flat over the samples: the
// peak of the second half within rssGrowth of the first half's. The first
// sample, taken as the warm-up ends, is left out: the bot is still growing
// its heap, caches and connections. Fewer than minRSSSamples tell nothing.
func rssFlat(samples []rssSample) (verdict, why string) {
	if len(samples) < minRSSSamples {
		return "unknown", fmt.Sprintf("%d samples, too few to tell", len(samples))
	}
	s := samples[1:]
	half := len(s) / 2
	verdict = "flat"
	var per []string
	for i := range s[0].rss {
		var first, second int64
		for j, x := range s {
			if j < half {
				first = max(first, x.rss[i])
			} else {
				second = max(second, x.rss[i])
			}
		}
		if float64(second) > float64(first)*(1+rssGrowth) && second-first > rssGrowthFloor {
			verdict = "NOT flat"
		}
		per = append(per, fmt.Sprintf("bot %d: peak %.1f MB in the first half, %.1f MB in the second", i+1, mb(first), mb(second)))
	}
	return verdict, strings.Join(per, "; ")
}

// minRSSSamples is how many samples rssFlat needs: a few minutes.
const minRSSSamples = 5

func mb(n int64) float64 { return float64(n) / (1 << 20) }

// printSoak prints the soak's figures: each fault, the must-be-zero
// counts, and the memory curve.
func (r *report) printSoak(out io.Writer) {
	o := r.opts
	fmt.Fprintf(out, "\nsoak: %s on %s, a fault every %s, stalls of %s; %d faults\n", o.duration, r.engine(), o.faultEvery, o.stall, len(r.faults))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "at\tfault\tanswers\tlate\tdeferred\tabandoned\tlost\twhat happened")
	for _, f := range r.faults {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\n", f.at, f.name, f.answers, f.late, f.deferred, f.abandon, f.lost, f.what)
	}
	tw.Flush()
	fmt.Fprintln(out)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "answered later than %s (must be 0)\t%d", lateAfter, r.late)
	if r.late > 0 {
		fmt.Fprintf(tw, " (slowest %s)", r.slowest.Round(time.Millisecond))
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "deferred (type 5/6, then the webhook)\t%d\n", r.deferred)
	fmt.Fprintf(tw, "abandoned (told of a failure)\t%d\n", r.abandoned)
	fmt.Fprintf(tw, "acknowledged moves lost (must be 0)\t%d of %d\n", r.ackedLost(), len(r.acked))
	fmt.Fprintf(tw, "games lost on time, not walked away from (must be 0)\t%d", len(r.timeLosses))
	if len(r.timeLosses) > 0 {
		n := min(len(r.timeLosses), 5)
		fmt.Fprintf(tw, " (games %v", r.timeLosses[:n])
		if n < len(r.timeLosses) {
			fmt.Fprint(tw, " …")
		}
		fmt.Fprint(tw, ")")
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "clicks made at once refused as too late (must be 0)\t%d\n", r.refused)
	fmt.Fprintf(tw, "games left to their deadlines (walked away, unsettled, open at the end)\t%d\n", len(r.letGo))
	tw.Flush()

	fmt.Fprintf(out, "\nbots' RSS every %s (* restarted since the previous sample):\n", rssEvery)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "at\t")
	for i := range r.rss {
		fmt.Fprintf(tw, "bot %d\t", i+1)
	}
	fmt.Fprintln(tw)
	for _, s := range r.rssCurve {
		fmt.Fprintf(tw, "%s\t", s.at)
		for i, n := range s.rss {
			mark := ""
			if s.restarted[i] {
				mark = "*"
			}
			fmt.Fprintf(tw, "%s%.1f MB\t", mark, mb(n))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	verdict, why := rssFlat(r.rssCurve)
	fmt.Fprintf(out, "RSS %s: %s\n", verdict, why)
}

// ackedLost counts the database check's problems that are acknowledged
// moves not stored as acknowledged.
func (r *report) ackedLost() int {
	n := 0
	for _, p := range r.problems {
		if strings.Contains(p, "acknowledged move") {
			n++
		}
	}
	return n
}

func (r *report) engine() string {
	if r.opts.databaseURL != "" {
		return "PostgreSQL"
	}
	return "SQLite"
}
