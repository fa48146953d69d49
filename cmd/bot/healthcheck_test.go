package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/health"
)

func TestHealthURL(t *testing.T) {
	tests := []struct {
		listen, admin string
		want          string // or the error's text
		wantKey       string
	}{
		{"127.0.0.1:8080", "", "http://127.0.0.1:8080/healthz", "http.listen"},
		{"127.0.0.1:8080", "10.0.0.5:9090", "http://10.0.0.5:9090/healthz", "http.admin_listen"},
		{"0.0.0.0:8080", "", "http://127.0.0.1:8080/healthz", "http.listen"},
		{":8080", "", "http://127.0.0.1:8080/healthz", "http.listen"},
		{"[::]:8080", "", "http://[::1]:8080/healthz", "http.listen"},
		{"", "[::]:9090", "http://[::1]:9090/healthz", "http.admin_listen"},
		{"[::1]:8080", "", "http://[::1]:8080/healthz", "http.listen"},
		{"bot.internal:8080", "", "http://bot.internal:8080/healthz", "http.listen"},
		{"", "", "[http] listen is empty", ""},
		{"127.0.0.1:0", "", "http.listen 127.0.0.1:0 has no fixed port", ""},
	}
	for _, tt := range tests {
		got, key, err := healthURL(config.HTTP{Listen: tt.listen, AdminListen: tt.admin})
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tt.want) || key != tt.wantKey {
			t.Errorf("listen %q, admin_listen %q: got %q and %q, want %q and %q", tt.listen, tt.admin, got, key, tt.want, tt.wantKey)
		}
	}
}

// healthConfig writes a config file that puts /healthz at addr.
func healthConfig(t *testing.T, addr string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bot.toml")
	if err := os.WriteFile(path, fmt.Appendf(nil, "[http]\nlisten = %q\n", addr), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// healthcheck runs `bot healthcheck` with the config file at path.
func healthcheck(t *testing.T, path string) (stdout string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	err = healthcheckCmd(t.Context(), e, []string{"-config", path})
	return out.String(), err
}

func TestHealthcheckCmd(t *testing.T) {
	h := newHarness(t)
	_, port, _ := net.SplitHostPort(h.addr)
	for _, listen := range []string{h.addr, "0.0.0.0:" + port} {
		out, err := healthcheck(t, healthConfig(t, listen))
		var body health.Body
		if err != nil || json.Unmarshal([]byte(out), &body) != nil || body.Status != "ok" {
			t.Errorf("listen %s: got %v and %q, want the ok body", listen, err, out)
		}
	}
	// Nothing listens on the port once the bot has stopped: the error says
	// where it asked, which setting moves that, and why it got no answer.
	h.stop()
	_, err := healthcheck(t, healthConfig(t, h.addr))
	for _, want := range []string{"http://" + h.addr + "/healthz", "http.listen (TTTBOT_HTTP_LISTEN)", "is the bot running", "connection refused"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bot stopped: got %v, want it to say %q", err, want)
		}
	}
}

func TestUnhealthy(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{`{"status":"unavailable","checks":{"gateway":"ok, heartbeat 1s ago","database":"timed out after 2s"}}`, "database: timed out after 2s"},
		{`{"status":"unavailable","checks":{"gateway":"not connected","database":"tttbot.db: write probe: disk full"}}`,
			"database: tttbot.db: write probe: disk full; gateway: not connected"},
		{`{"status":"unavailable","checks":{}}`, "unavailable"},
		{"502 Bad Gateway", "502 Bad Gateway"}, // a proxy's page
	} {
		if got := unhealthy(tt.body); got != tt.want {
			t.Errorf("unhealthy(%s) = %q, want %q", tt.body, got, tt.want)
		}
	}
}
