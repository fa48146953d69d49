package health_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tttbot/tttbot/internal/health"
)

func TestHandler(t *testing.T) {
	pass := func(context.Context) error { return nil }
	fail := func(context.Context) error { return errors.New("not connected") }
	slow := func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	tests := []struct {
		name     string
		checks   []health.Check
		wantCode int
		wantBody string
	}{
		{"none", nil, 200, `{"status":"ok"}`},
		{"all pass", []health.Check{{"database", pass}, {"gateway", pass}}, 200, `{"status":"ok"}`},
		{"gateway down", []health.Check{{"database", pass}, {"gateway", fail}}, 503,
			`{"reason":"gateway: not connected","status":"unavailable"}`},
		{"first failure wins", []health.Check{{"database", fail}, {"gateway", fail}}, 503,
			`{"reason":"database: not connected","status":"unavailable"}`},
		{"timeout", []health.Check{{"database", slow}}, 503,
			`{"reason":"database: context deadline exceeded","status":"unavailable"}`},
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
