package health_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tttbot/tttbot/internal/health"
)

func TestHandler(t *testing.T) {
	pass := func(context.Context) (string, error) { return "", nil }
	beat := func(context.Context) (string, error) { return "heartbeat 12s ago", nil }
	fail := func(context.Context) (string, error) { return "", errors.New("not connected") }
	slow := func(ctx context.Context) (string, error) { <-ctx.Done(); return "", ctx.Err() }
	tests := []struct {
		name     string
		checks   []health.Check
		wantCode int
		wantBody string
	}{
		{"none", nil, 200, `{"status":"ok","checks":{}}`},
		{"all pass", []health.Check{{"database", pass}, {"gateway", beat}}, 200,
			`{"status":"ok","checks":{"database":"ok","gateway":"ok, heartbeat 12s ago"}}`},
		{"gateway down", []health.Check{{"database", pass}, {"gateway", fail}}, 503,
			`{"status":"unavailable","checks":{"database":"ok","gateway":"not connected"}}`},
		{"every failure named", []health.Check{{"database", fail}, {"gateway", fail}}, 503,
			`{"status":"unavailable","checks":{"database":"not connected","gateway":"not connected"}}`},
		{"timeout", []health.Check{{"database", slow}}, 503,
			`{"status":"unavailable","checks":{"database":"timed out after 10ms"}}`},
		{"a fast failure beside a timeout", []health.Check{{"database", slow}, {"gateway", fail}}, 503,
			`{"status":"unavailable","checks":{"database":"timed out after 10ms","gateway":"not connected"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			health.Handler(10*time.Millisecond, tt.checks...).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/healthz", nil))
			if w.Code != tt.wantCode {
				t.Errorf("got status %d, want %d", w.Code, tt.wantCode)
			}
			if got := strings.TrimSpace(w.Body.String()); got != tt.wantBody {
				t.Errorf("got body %s, want %s", got, tt.wantBody)
			}
			if got := w.Header().Get("Content-Type"); got != "application/json" {
				t.Errorf("got Content-Type %q, want application/json", got)
			}
		})
	}
}

// A check that ignores its context holds up neither the answer nor the
// other checks: /healthz answers when the limit is up, naming it.
func TestHandlerAnswersWithinLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 2 * time.Second
		release := make(chan struct{})
		defer close(release)
		stuck := func(context.Context) (string, error) { <-release; return "", nil }
		slow := func(ctx context.Context) (string, error) {
			select {
			case <-time.After(limit / 2):
				return "", nil
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		h := health.Handler(limit, health.Check{Name: "database", Func: stuck}, health.Check{Name: "gateway", Func: slow})
		start := time.Now()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/healthz", nil))
		if took := time.Since(start); took != limit {
			t.Errorf("answered after %s, want %s", took, limit)
		}
		want := `{"status":"unavailable","checks":{"database":"timed out after 2s","gateway":"ok"}}`
		if got := strings.TrimSpace(w.Body.String()); w.Code != 503 || got != want {
			t.Errorf("got %d %s, want 503 %s", w.Code, got, want)
		}
	})
}

func TestCached(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	calls := 0
	var result error
	f := health.Cached(time.Second, func() time.Time { return now }, func(ctx context.Context) (string, error) {
		calls++
		if err := ctx.Err(); err != nil {
			return "", err
		}
		return "", result
	})
	steps := []struct {
		advance   time.Duration
		result    error
		wantErr   bool
		wantCalls int
	}{
		{0, nil, false, 1},
		{500 * time.Millisecond, errors.New("disk full"), false, 1}, // kept
		{500 * time.Millisecond, errors.New("disk full"), true, 2},  // a second on: probed again
		{999 * time.Millisecond, nil, true, 2},
		{time.Millisecond, nil, false, 3}, // the disk freed up
	}
	for i, s := range steps {
		now = now.Add(s.advance)
		result = s.result
		_, err := f(t.Context())
		if (err != nil) != s.wantErr || calls != s.wantCalls {
			t.Errorf("step %d: got error %v after %d probes, want error %v after %d", i, err, calls, s.wantErr, s.wantCalls)
		}
	}

	// A probe cut short by its caller is not kept for the next.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	now = now.Add(time.Hour)
	if _, err := f(ctx); err == nil {
		t.Error("cancelled caller: got no error")
	}
	if _, err := f(t.Context()); err != nil {
		t.Errorf("after a cancelled caller: got %v, want the probe's own result", err)
	}
}
