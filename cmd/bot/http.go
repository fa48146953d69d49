package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/health"
	"github.com/tttbot/tttbot/internal/metrics"
)

// webServer is the bot's HTTP server on [http] listen: /healthz and
// /metrics, and in http mode the interactions endpoint.
type webServer struct {
	srv      *http.Server
	endpoint *discord.HTTPHandler // nil in gateway mode
	served   chan error
}

// startWeb listens on cfg.HTTP.Listen and serves until close. endpoint,
// when not nil, answers at cfg.HTTP.Path.
func startWeb(cfg config.Config, m *metrics.Metrics, checks []health.Check, endpoint *discord.HTTPHandler, log *slog.Logger) (*webServer, net.Addr, error) {
	mux := http.NewServeMux()
	mux.Handle("GET /healthz", health.Handler(2*time.Second, checks...))
	mux.Handle("GET /metrics", m.Handler())
	if endpoint != nil {
		mux.Handle(cfg.HTTP.Path, m.InteractionEndpoint(endpoint))
	}
	ln, err := net.Listen("tcp", cfg.HTTP.Listen)
	if err != nil {
		return nil, nil, fmt.Errorf("http server: %w", err)
	}
	w := &webServer{
		srv: &http.Server{
			Handler:           mux,
			ReadHeaderTimeout: 5 * time.Second,
			ReadTimeout:       10 * time.Second,
			WriteTimeout:      30 * time.Second, // longer than an interaction may take
			IdleTimeout:       2 * time.Minute,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		},
		endpoint: endpoint,
		served:   make(chan error, 1),
	}
	go func() { w.served <- w.srv.Serve(ln) }()
	log.Info("http server listening", "addr", ln.Addr().String(), "interactions", endpoint != nil)
	return w, ln.Addr(), nil
}

// close stops taking requests and waits for those in flight, then for the
// REST calls that follow their answers.
func (w *webServer) close(ctx context.Context) error {
	err := w.srv.Shutdown(ctx)
	if w.endpoint != nil {
		err = errors.Join(err, w.endpoint.Close(ctx))
	}
	if e := <-w.served; !errors.Is(e, http.ErrServerClosed) {
		err = errors.Join(err, e)
	}
	if err != nil {
		return fmt.Errorf("close http server: %w", err)
	}
	return nil
}
