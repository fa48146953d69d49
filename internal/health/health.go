// Package health answers /healthz: whether the bot can do its work now.
package health

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// Check is one dependency the bot needs: Func reports why it is unusable,
// or nil.
type Check struct {
	Name string
	Func func(ctx context.Context) error
}

// Handler runs the checks in order, each within timeout, and answers 200
// {"status":"ok"} when all pass, else 503 with the first failure:
// {"status":"unavailable","reason":"database: ..."}.
func Handler(timeout time.Duration, checks ...Check) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		for _, c := range checks {
			ctx, cancel := context.WithTimeout(r.Context(), timeout)
			err := c.Func(ctx)
			cancel()
			if err != nil {
				w.WriteHeader(http.StatusServiceUnavailable)
				json.NewEncoder(w).Encode(map[string]string{"status": "unavailable", "reason": c.Name + ": " + err.Error()})
				return
			}
		}
		json.NewEncoder(w).Encode(map[string]string{"status": "ok"})
	})
}
