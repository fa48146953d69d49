// Package health answers /healthz: whether the bot can do its work now.
package health

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Check is one dependency the bot needs. Func returns a short note on its
// state when it is usable ("heartbeat 12s ago", or "" for nothing to add),
// else an error that says why not.
type Check struct {
	Name string
	Func func(ctx context.Context) (string, error)
}

// Body is the JSON answer of /healthz: Status "ok" or "unavailable", and
// each check's state, "ok" or "ok, NOTE" when it passes, else its error.
type Body struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

// Handler runs the checks at once, each within limit, and answers 200 with
// Status "ok" when all pass, else 503 with Status "unavailable"; the body
// names every check's state either way. It answers within limit whatever
// the checks do: a check that has not answered by then is "timed out after
// LIMIT", and is not waited for. Its goroutine ends when it returns; the
// probes behind Cached keep at most one such in flight per check.
func Handler(limit time.Duration, checks ...Check) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), limit)
		defer cancel()
		type result struct {
			note string
			err  error
			late bool // failed once the limit had passed
		}
		results := make([]chan result, len(checks))
		for i, c := range checks {
			results[i] = make(chan result, 1)
			go func() {
				note, err := c.Func(ctx)
				late := err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded)
				results[i] <- result{note, err, late}
			}()
		}
		body := Body{Status: "ok", Checks: make(map[string]string, len(checks))}
		for i, c := range checks {
			var res result
			select {
			case res = <-results[i]:
			case <-ctx.Done():
				// A check that answered at the last moment still counts.
				select {
				case res = <-results[i]:
				default:
					res = result{err: ctx.Err(), late: errors.Is(ctx.Err(), context.DeadlineExceeded)}
				}
			}
			switch {
			case res.late:
				body.Status = "unavailable"
				body.Checks[c.Name] = fmt.Sprintf("timed out after %s", limit)
			case res.err != nil:
				body.Status = "unavailable"
				body.Checks[c.Name] = res.err.Error()
			case res.note != "":
				body.Checks[c.Name] = "ok, " + res.note
			default:
				body.Checks[c.Name] = "ok"
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		if body.Status != "ok" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
		json.NewEncoder(w).Encode(body)
	})
}

// Cached returns f with each result kept for ttl by the clock now (nil is
// time.Now), so that a probe runs at most once per ttl however often
// /healthz is asked; callers meanwhile wait for the one probe in flight. A
// result that came from the caller's own cancellation is not kept.
func Cached(ttl time.Duration, now func() time.Time, f func(context.Context) (string, error)) func(context.Context) (string, error) {
	if now == nil {
		now = time.Now
	}
	lock := make(chan struct{}, 1)
	var (
		at   time.Time
		kept bool
		note string
		err  error
	)
	return func(ctx context.Context) (string, error) {
		select {
		case lock <- struct{}{}:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		defer func() { <-lock }()
		if kept && now().Sub(at) < ttl {
			return note, err
		}
		n, e := f(ctx)
		if ctx.Err() == nil {
			at, kept, note, err = now(), true, n, e
		}
		return n, e
	}
}
