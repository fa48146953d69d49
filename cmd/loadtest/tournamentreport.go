package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tttbot/tttbot"
)

// tournamentReport is what a tournament through the bots measured, and
// what its check found.
type tournamentReport struct {
	opts     loadOptions
	kinds    [numKinds]kindStats
	sessions map[string]int
	errs     []string
	acked    []tttbot.Move
	answered []int64 // by each bot
	posted   tournamentPosts
	// From the create command to the start's answer, from there to the
	// final table, and both.
	signup, play, total time.Duration
	finished            time.Time // the final table posted

	dbProblems        []string // the database's consistency check's
	summary, problems []string // the tournament check's (tournamentcheck.go)
}

func (r *tournamentReport) gather(t *tournamentRun) {
	r.sessions = map[string]int{}
	for _, w := range t.workers {
		for k := range numKinds {
			r.kinds[k].lat = append(r.kinds[k].lat, w.lat[k]...)
			r.kinds[k].errs += w.errs[k]
		}
		for s, n := range w.sessions {
			r.sessions[s] += n
		}
		r.acked = append(r.acked, w.acked...)
		r.errs = append(r.errs, w.errMsgs...)
	}
	for k := range r.kinds {
		slices.Sort(r.kinds[k].lat)
	}
	for _, in := range t.d.bots {
		r.answered = append(r.answered, in.answered.Load())
	}
	r.posted = t.posted
	if !t.started.IsZero() {
		r.signup = t.started.Sub(t.began)
	}
	if !t.finished.IsZero() {
		r.play, r.total, r.finished = t.finished.Sub(t.started), t.finished.Sub(t.began), t.finished
	}
}

// roundTimes is how long each round took, once the final table is posted:
// a round with a game walked away from waits for its move timeout and
// tttbot.DeadlineGrace.
func (r *tournamentReport) roundTimes() []string {
	if r.total == 0 {
		return nil
	}
	var out []string
	for n := 1; ; n++ {
		at, ok := r.posted.roundAt[n]
		if !ok {
			return out
		}
		end, ok := r.posted.roundAt[n+1]
		if !ok {
			end = r.finished
		}
		out = append(out, end.Sub(at).Round(10*time.Millisecond).String())
	}
}

func (r *tournamentReport) failed() bool {
	n := len(r.dbProblems) + len(r.problems)
	for _, k := range r.kinds {
		n += k.errs
	}
	return n > 0
}

func (r *tournamentReport) print(out io.Writer, playErr error) {
	o := r.opts
	engine := "SQLite"
	if o.databaseURL != "" {
		engine = fmt.Sprintf("PostgreSQL shared by %d bot", o.instances)
		if o.instances > 1 {
			engine += "s"
		}
	}
	fmt.Fprintf(out, "loadtest -tournament: a Swiss of %d players, %d rounds, 3×3, rounds of %d min, moves of %ds; %s; %d boards played at once, resign %.2f, walk away %.2f, seed %d, REST latency %s\n\n",
		o.tournament, o.rounds, tournamentRoundMinutes, tournamentMoveSeconds, engine, max(1, min(o.concurrency, o.tournament/2)), o.resign, o.abandon, o.seed, o.restLatency)
	if r.total > 0 {
		fmt.Fprintf(out, "finished in %s: sign-up %s (create, %d joins, start), rounds %s (from the start's answer to the final table)\n",
			r.total.Round(time.Millisecond), r.signup.Round(time.Millisecond), o.tournament, r.play.Round(time.Millisecond))
	}
	if d := r.roundTimes(); len(d) > 0 {
		fmt.Fprintf(out, "rounds, each from its pairings' post to the next's or the final table's: %s\n", strings.Join(d, ", "))
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	kindTable(tw, r.kinds)
	tw.Flush()
	if len(r.answered) > 1 {
		var per []string
		for i, n := range r.answered {
			per = append(per, fmt.Sprintf("%d: %d", i+1, n))
		}
		fmt.Fprintf(out, "answers by bot: %s\n", strings.Join(per, ", "))
	}
	var sess []string
	for _, s := range slices.Sorted(maps.Keys(r.sessions)) {
		sess = append(sess, fmt.Sprintf("%s %d", s, r.sessions[s]))
	}
	fmt.Fprintf(out, "games: %s (walked away: left to the move timeout); moves acknowledged: %d\n", strings.Join(sess, ", "), len(r.acked))
	rounds := 0
	for _, n := range r.posted.rounds {
		rounds += n
	}
	boards := 0
	for _, n := range r.posted.boards {
		boards += n
	}
	fmt.Fprintf(out, "posted in the channel: %d rounds' pairings, %d boards, %d final tables, %d others\n", rounds, boards, len(r.posted.tables), r.posted.other)
	for _, e := range r.errs {
		fmt.Fprintln(out, "error:", e)
	}
	if playErr != nil {
		fmt.Fprintf(out, "tournament: FAILED before its end: %v\n", playErr)
		return
	}
	if len(r.dbProblems) == 0 {
		fmt.Fprintf(out, "database check: ok (every game replays; all %d acknowledged moves stored; ratings count their results)\n", len(r.acked))
	} else {
		fmt.Fprintf(out, "database check: %d problems\n", len(r.dbProblems))
		printProblems(out, r.dbProblems)
	}
	for _, s := range r.summary {
		fmt.Fprintln(out, "  "+s)
	}
	if len(r.problems) == 0 {
		fmt.Fprintln(out, "tournament check: ok")
		return
	}
	fmt.Fprintf(out, "tournament check: %d problems\n", len(r.problems))
	printProblems(out, r.problems)
}

// printProblems prints the first 20 of problems.
func printProblems(out io.Writer, problems []string) {
	for i, p := range problems {
		if i == 20 {
			fmt.Fprintf(out, "  … and %d more\n", len(problems)-i)
			break
		}
		fmt.Fprintln(out, " ", p)
	}
}
