package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

func TestHeaderLimit(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		name     string
		header   int
		wantCode int
	}{
		{"Discord's size", 512, http.StatusOK},
		{"at the limit", maxHeaderBytes, http.StatusOK},
		{"over the limit", 16 << 10, http.StatusRequestHeaderFieldsTooLarge},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(http.MethodGet, "http://"+h.addr+"/healthz", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Padding", strings.Repeat("a", tt.header))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.wantCode {
			t.Errorf("%s: got %d, want %d", tt.name, resp.StatusCode, tt.wantCode)
		}
	}
}

// roundTrip sends a GET /healthz on c, keeping it open, and returns the
// answer's status.
func roundTrip(t *testing.T, c net.Conn, r *bufio.Reader) int {
	t.Helper()
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: bot\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestConnectionCap checks that a connection over http.max_connections is
// not served while the cap is taken, and is served once a slot frees up.
func TestConnectionCap(t *testing.T) {
	srv := discordtest.NewServer(t)
	cfg := botConfigFor(t, srv)
	cfg.HTTP.MaxConnections = 1
	addr, _ := runBot(t, cfg, serveOptions{})

	// The one slot: a client that keeps its connection open.
	hog, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer hog.Close()
	r := bufio.NewReader(hog)
	if code := roundTrip(t, hog, r); code != http.StatusOK {
		t.Fatalf("first client: got %d, want 200", code)
	}

	done := make(chan int, 1)
	go func() {
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		resp, err := client.Get("http://" + addr + "/healthz")
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	// The slot's holder keeps being served; the second client never is,
	// however many requests go by (without the cap it is at once).
	for range 200 {
		if code := roundTrip(t, hog, r); code != http.StatusOK {
			t.Fatalf("first client: got %d, want 200", code)
		}
		select {
		case code := <-done:
			t.Fatalf("second client: got %d while the only slot was taken, want it to wait", code)
		default:
		}
	}
	hog.Close()
	if code := <-done; code != http.StatusOK {
		t.Errorf("second client once the slot freed: got %d, want 200", code)
	}
}

func TestAdminListen(t *testing.T) {
	post := func(url string) int {
		t.Helper()
		resp, err := http.Post(url, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	t.Run("http mode", func(t *testing.T) {
		cfg := botConfigFor(t, discordtest.NewServer(t))
		cfg.Discord.Mode = config.ModeHTTP
		cfg.Discord.PublicKey = strings.Repeat("ab", 32)
		cfg.HTTP.AdminListen = "127.0.0.1:0"
		public, admin := runBot(t, cfg, serveOptions{})
		if public == "" || admin == "" {
			t.Fatalf("got public %q and admin %q, want both servers", public, admin)
		}
		for _, tt := range []struct {
			name string
			code int
			want int
		}{
			{"public /healthz", status(get(t, "http://"+public+"/healthz")), http.StatusNotFound},
			{"public /metrics", status(get(t, "http://"+public+"/metrics")), http.StatusNotFound},
			{"public, unsigned interaction", post("http://" + public + cfg.HTTP.Path), http.StatusUnauthorized},
			{"admin /healthz", status(get(t, "http://"+admin+"/healthz")), http.StatusOK},
			{"admin /metrics", status(get(t, "http://"+admin+"/metrics")), http.StatusOK},
			{"admin, interaction", post("http://" + admin + cfg.HTTP.Path), http.StatusNotFound},
			{"admin, profiles while pprof is off", status(get(t, "http://"+admin+"/debug/pprof/")), http.StatusNotFound},
		} {
			if tt.code != tt.want {
				t.Errorf("%s: got %d, want %d", tt.name, tt.code, tt.want)
			}
		}
	})
	t.Run("pprof", func(t *testing.T) {
		cfg := botConfigFor(t, discordtest.NewServer(t))
		cfg.Discord.Mode = config.ModeHTTP
		cfg.Discord.PublicKey = strings.Repeat("ab", 32)
		cfg.HTTP.AdminListen, cfg.HTTP.Pprof = "127.0.0.1:0", true
		public, admin := runBot(t, cfg, serveOptions{})
		for _, tt := range []struct {
			name string
			code int
			want int
		}{
			{"admin, profiles", status(get(t, "http://"+admin+"/debug/pprof/")), http.StatusOK},
			{"admin, heap profile", status(get(t, "http://"+admin+"/debug/pprof/heap")), http.StatusOK},
			{"public, profiles", status(get(t, "http://"+public+"/debug/pprof/")), http.StatusNotFound},
		} {
			if tt.code != tt.want {
				t.Errorf("%s: got %d, want %d", tt.name, tt.code, tt.want)
			}
		}
	})
	t.Run("gateway mode", func(t *testing.T) {
		cfg := botConfigFor(t, discordtest.NewServer(t))
		cfg.HTTP.AdminListen = "127.0.0.1:0"
		public, admin := runBot(t, cfg, serveOptions{})
		if public != "" {
			t.Errorf("got a public server at %s, want none: it would serve nothing", public)
		}
		if code, body := get(t, "http://"+admin+"/healthz"); code != http.StatusOK {
			t.Errorf("admin /healthz: got %d %s, want 200", code, body)
		}
	})
	t.Run("gateway mode with web pages", func(t *testing.T) {
		cfg := botConfigFor(t, discordtest.NewServer(t))
		cfg.HTTP.AdminListen = "127.0.0.1:0"
		cfg.Web.Enabled, cfg.Web.PublicURL = true, "https://ttt.example"
		public, admin := runBot(t, cfg, serveOptions{})
		if public == "" || admin == "" {
			t.Fatalf("got public %q and admin %q, want both servers", public, admin)
		}
		for _, tt := range []struct {
			name string
			code int
			want int
		}{
			{"public, a page not there", status(get(t, "http://"+public+"/s/0123456789abcdef")), http.StatusNotFound},
			{"public /healthz", status(get(t, "http://"+public+"/healthz")), http.StatusNotFound},
			{"admin, a page", status(get(t, "http://"+admin+"/s/0123456789abcdef")), http.StatusNotFound},
			{"admin /healthz", status(get(t, "http://"+admin+"/healthz")), http.StatusOK},
		} {
			if tt.code != tt.want {
				t.Errorf("%s: got %d, want %d", tt.name, tt.code, tt.want)
			}
		}
		if _, body := get(t, "http://"+public+"/s/0123456789abcdef"); !strings.Contains(body, "There is nothing here.") {
			t.Errorf("the public 404 is not the pages': %.200s", body)
		}
	})
}

// status keeps the status of get's answer.
func status(code int, _ string) int { return code }

// TestBusyPort checks that the bot binds its HTTP addresses before anything
// else: a busy port stops it before it connects to Discord, with a message
// naming the address and, where it may, how to turn the server off.
func TestBusyPort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	addr := busy.Addr().String()
	tests := []struct {
		name   string
		change func(*config.Config)
		want   []string
	}{
		{"gateway mode", func(c *config.Config) { c.HTTP.Listen = addr },
			[]string{"http.listen: ", addr, "address already in use", `listen = "" in [http] turns the server off`}},
		{"http mode", func(c *config.Config) {
			c.Discord.Mode, c.Discord.PublicKey, c.HTTP.Listen = config.ModeHTTP, strings.Repeat("ab", 32), addr
		}, []string{"http.listen: ", addr, "address already in use"}},
		{"admin", func(c *config.Config) { c.HTTP.AdminListen = addr },
			[]string{"http.admin_listen: ", addr, "address already in use"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := discordtest.NewServer(t)
			cfg := botConfigFor(t, srv)
			tt.change(&cfg)
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			log := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			err := serve(context.Background(), cfg, log, serveOptions{ready: func() { t.Error("the bot started") }})
			if err == nil {
				t.Fatal("got no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %q, want it to contain %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("got %q, want one line", err)
			}
			if n := len(srv.Identifies()); n != 0 {
				t.Errorf("got %d gateway sessions before the failure, want none", n)
			}
			if n := len(srv.Calls()); n != 0 {
				t.Errorf("got %d calls to Discord before the failure, want none", n)
			}
		})
	}
}
