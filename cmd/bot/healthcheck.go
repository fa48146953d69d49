package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/config"
)

// healthcheckTimeout bounds the whole query: the bot's own checks take at
// most 2 s each, and a container runtime waits 30 s by default.
const healthcheckTimeout = 5 * time.Second

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
	ctx, cancel := context.WithTimeout(ctx, healthcheckTimeout)
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
		return fmt.Errorf("healthcheck: %s: %s", resp.Status, text)
	}
	fmt.Fprintln(e.stdout, text)
	return nil
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
