package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"sync/atomic"
	"time"

	"golang.org/x/net/netutil"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/health"
	"github.com/tttbot/tttbot/internal/metrics"
	pages "github.com/tttbot/tttbot/internal/web"
)

// maxHeaderBytes bounds a request's headers, which the server reads before
// any signature check. Discord's are a few hundred bytes (the signature,
// its timestamp, content type and length, user agent), and a proxy adds a
// few more. net/http allows 4 KiB beyond it, and answers 431 past that.
const maxHeaderBytes = 8 << 10

// listeners are the bot's bound HTTP addresses: public on [http] listen,
// nil when nothing is served there, and admin on [http] admin_listen, nil
// when /healthz and /metrics share public.
type listeners struct {
	public, admin net.Listener
}

// listen binds the addresses the configuration asks for, each accepting at
// most [http] max_connections connections at a time: a connection over the
// cap waits in the kernel's accept queue until one closes, so that a flood
// of slow or idle clients costs a bounded amount of memory and leaves
// in-flight requests alone (ReadHeaderTimeout frees the slots of clients
// that never finish their headers). The bot binds them before it does
// anything else, so that a busy port stops it at once.
func listen(cfg config.Config) (listeners, error) {
	var l listeners
	httpMode := cfg.Discord.Mode == config.ModeHTTP
	if cfg.HTTP.Listen != "" && (httpMode || cfg.Web.Enabled || cfg.HTTP.AdminListen == "") {
		ln, err := net.Listen("tcp", cfg.HTTP.Listen)
		switch {
		case err != nil && httpMode:
			return l, fmt.Errorf("http.listen: %w", err)
		case err != nil:
			return l, fmt.Errorf("http.listen: %w (listen = \"\" in [http] turns the server off)", err)
		}
		l.public = netutil.LimitListener(ln, cfg.HTTP.MaxConnections)
	}
	if cfg.HTTP.AdminListen != "" {
		ln, err := net.Listen("tcp", cfg.HTTP.AdminListen)
		if err != nil {
			l.close()
			return listeners{}, fmt.Errorf("http.admin_listen: %w", err)
		}
		l.admin = netutil.LimitListener(ln, cfg.HTTP.MaxConnections)
	}
	return l, nil
}

// close releases listeners that no server has taken.
func (l listeners) close() {
	for _, ln := range []net.Listener{l.public, l.admin} {
		if ln != nil {
			ln.Close()
		}
	}
}

// webServer is the bot's HTTP servers: on the public listener the
// interactions endpoint in http mode and the web pages when [web] is
// enabled, and /healthz and /metrics on the
// admin listener if there is one, else on the public one. They serve from
// the start, while the bot opens its database and connects: /healthz then
// answers 503 with what the bot is waiting for (see starting), until ready
// hands it the bot's checks, and the endpoint checks
// signatures and answers 503, "starting", until it is served a handler.
type webServer struct {
	servers  []*http.Server
	health   atomic.Pointer[http.Handler]
	endpoint *discord.HTTPHandler // nil but in http mode
	served   chan error
	limit    time.Duration                // of each health check: [http] health_timeout
	status   atomic.Pointer[string]       // what /healthz says until ready
	pages    atomic.Pointer[http.Handler] // the web pages, once the store is open
}

// startWeb serves on l until close. In http mode endpoint, the
// interactions endpoint, answers at cfg.HTTP.Path on the public listener.
func startWeb(l listeners, cfg config.Config, endpoint *discord.HTTPHandler, m *metrics.Metrics, log *slog.Logger) *webServer {
	w := &webServer{endpoint: endpoint, served: make(chan error, 2), limit: cfg.HTTP.HealthTimeout.Duration}
	w.starting("starting: opening the database")
	starting := health.Handler(w.limit, health.Check{Name: "startup", Func: func(context.Context) (string, error) {
		return "", errors.New(*w.status.Load())
	}})
	admin := http.NewServeMux()
	admin.HandleFunc("GET /healthz", func(rw http.ResponseWriter, r *http.Request) {
		if h := w.health.Load(); h != nil {
			(*h).ServeHTTP(rw, r)
			return
		}
		starting.ServeHTTP(rw, r)
	})
	admin.Handle("GET /metrics", m.Handler())
	if cfg.HTTP.Pprof {
		admin.HandleFunc("GET /debug/pprof/", pprof.Index)
		admin.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
		admin.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	}
	public := admin
	if l.admin != nil {
		public = http.NewServeMux()
	}
	httpMode := endpoint != nil
	if httpMode {
		public.Handle(cfg.HTTP.Path, m.InteractionEndpoint(endpoint))
	}
	if cfg.Web.Enabled {
		serve := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			if h := w.pages.Load(); h != nil {
				(*h).ServeHTTP(rw, r)
				return
			}
			rw.Header().Set("Retry-After", "5")
			http.Error(rw, "starting", http.StatusServiceUnavailable)
		})
		for _, route := range pages.Routes(cfg.Web.PublicURL) {
			public.Handle(route, serve)
		}
	}
	serve := func(ln net.Listener, h http.Handler, name string) {
		srv := &http.Server{
			Handler:           h,
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       10 * time.Second,
			WriteTimeout:      30 * time.Second, // longer than an interaction may take
			IdleTimeout:       2 * time.Minute,
			MaxHeaderBytes:    maxHeaderBytes,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		}
		w.servers = append(w.servers, srv)
		go func() { w.served <- srv.Serve(ln) }()
		log.Info("http server listening", "server", name, "addr", ln.Addr().String(),
			"interactions", httpMode && h == public, "health", h == admin, "web", cfg.Web.Enabled && h == public)
	}
	if l.public != nil {
		serve(l.public, public, "public")
	}
	if l.admin != nil {
		serve(l.admin, admin, "admin")
	}
	return w
}

// servePages hands the web pages their handler, once the store is open.
func (w *webServer) servePages(h http.Handler) { w.pages.Store(&h) }

// starting sets what /healthz says, with 503, until ready.
func (w *webServer) starting(status string) { w.status.Store(&status) }

// ready hands /healthz the bot's health checks.
func (w *webServer) ready(checks []health.Check) {
	h := health.Handler(w.limit, checks...)
	w.health.Store(&h)
}

// close stops taking requests and waits for those in flight, then for the
// REST calls that follow their answers.
func (w *webServer) close(ctx context.Context) error {
	var err error
	for _, srv := range w.servers {
		err = errors.Join(err, srv.Shutdown(ctx))
	}
	if w.endpoint != nil {
		err = errors.Join(err, w.endpoint.Close(ctx))
	}
	for range w.servers {
		if e := <-w.served; !errors.Is(e, http.ErrServerClosed) {
			err = errors.Join(err, e)
		}
	}
	if err != nil {
		return fmt.Errorf("close http server: %w", err)
	}
	return nil
}
