package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/health"
)

// healthcheckSlack is how much longer than [http] health_timeout, the most
// the bot's /healthz takes, healthcheck waits for its answer; a container
// runtime waits 30 s by default.
const healthcheckSlack = 3 * time.Second

// healthcheckCmd asks the running bot's /healthz and fails unless it says
// ok, for container health checks on images without curl.
func healthcheckCmd(ctx context.Context, e env, args []string) error {
	fs := cli.NewFlagSet("bot healthcheck", "[-config FILE]",
		"Asks the running bot's /healthz, at [http] admin_listen if set, else listen,\n"+
			"and exits 0 if it is healthy, else 1 with the reason.")
	path := configFlag(fs)
	rest, err := cli.Parse(fs, e.stdout, e.stderr, args)
	if err != nil {
		return err
	}
	if err := cli.NoArgs(fs, rest); err != nil {
		return err
	}
	cfg, err := loadConfig(*path, e)
	if err != nil {
		return err
	}
	u, key, err := healthURL(cfg.HTTP)
	if err != nil {
		return err
	}
	timeout := cfg.HTTP.HealthTimeout.Duration + healthcheckSlack
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	// No proxy from the environment: the bot is on this host.
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		// The request's own error repeats the address; say which setting
		// chose it, since a healthcheck run without the bot's config or
		// environment asks the default one.
		if ue := (*url.Error)(nil); errors.As(err, &ue) {
			err = ue.Err
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("healthcheck: no answer from %s within %s, though /healthz answers within http.health_timeout (%s): the bot is stuck, or this is not its configuration",
				u, timeout, cfg.HTTP.HealthTimeout)
		}
		return fmt.Errorf("healthcheck: no answer from %s, the address of %s (%s): is the bot running, with this configuration? %w",
			u, key, config.EnvVar(key), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	text := strings.TrimSpace(string(body))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s: %s", resp.Status, unhealthy(text))
	}
	fmt.Fprintln(e.stdout, text)
	return nil
}

// unhealthy is what a /healthz body says is wrong: its failing checks, each
// by name ("database: timed out after 2s"), or the body itself if it is
// not the bot's.
func unhealthy(text string) string {
	var b health.Body
	if err := json.Unmarshal([]byte(text), &b); err != nil || b.Status == "" {
		return text
	}
	var failing []string
	for _, name := range slices.Sorted(maps.Keys(b.Checks)) {
		if state := b.Checks[name]; state != "ok" && !strings.HasPrefix(state, "ok, ") {
			failing = append(failing, name+": "+state)
		}
	}
	if failing == nil {
		return b.Status
	}
	return strings.Join(failing, "; ")
}

// healthURL is where the bot serves /healthz, and the key of the setting
// that says so: admin_listen if set, else listen, with a wildcard host
// (every interface) replaced by loopback.
func healthURL(h config.HTTP) (u, key string, err error) {
	addr, key := h.AdminListen, "http.admin_listen"
	if addr == "" {
		addr, key = h.Listen, "http.listen"
	}
	if addr == "" {
		return "", "", errors.New("healthcheck: the bot serves no /healthz: [http] listen is empty")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", "", fmt.Errorf("healthcheck: %s: %w", key, err)
	}
	if port == "0" {
		return "", "", fmt.Errorf("healthcheck: %s %s has no fixed port to ask", key, addr)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port) + "/healthz", key, nil
}
