// Package metrics makes the bot observable in Prometheus format. It wraps the
// interfaces the other packages already meet — the interaction handler, the
// AI, the game store, the REST transport — so that none of them knows it is
// measured.
package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the bot's instruments, on a registry of their own.
type Metrics struct {
	reg *prometheus.Registry

	interactions  *prometheus.CounterVec
	handleSeconds *prometheus.HistogramVec
	aiSeconds     *prometheus.HistogramVec
	aiNodes       *prometheus.HistogramVec
	storeSeconds  *prometheus.HistogramVec
	restRequests  *prometheus.CounterVec
	restSeconds   *prometheus.HistogramVec
	rateLimits    prometheus.Counter
	rateLimitWait prometheus.Counter
	httpRequests  *prometheus.CounterVec
	deferred      prometheus.Counter
	abandoned     prometheus.Counter
}

// New returns the bot's metrics, with the Go runtime's and the process's.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		interactions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tttbot_interactions_total",
			Help: "Interactions handled, by type (command, component, ...) and outcome: ok, error, or the code of a refusal (stale, not_your_turn, ...).",
		}, []string{"type", "outcome"}),
		handleSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tttbot_interaction_handle_seconds",
			Help:    "Time to decide the answer to an interaction, store and AI included.",
			Buckets: prometheus.ExponentialBucketsRange(0.0005, 3, 14),
		}, []string{"type"}),
		aiSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tttbot_ai_search_seconds",
			Help:    "Time the AI took to choose a move, by level, or to analyze a position for a review (level \"analyze\").",
			Buckets: prometheus.ExponentialBucketsRange(0.00001, 2, 14),
		}, []string{"level"}),
		aiNodes: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tttbot_ai_search_nodes",
			Help:    "Positions the AI searched to choose a move, by level, or to analyze a position (level \"analyze\").",
			Buckets: prometheus.ExponentialBuckets(1, 4, 13),
		}, []string{"level"}),
		storeSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tttbot_store_seconds",
			Help:    "Database transaction time, by store method.",
			Buckets: prometheus.ExponentialBucketsRange(0.00005, 1, 14),
		}, []string{"method"}),
		restRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tttbot_discord_rest_requests_total",
			Help: "REST requests to Discord, by method and status code (\"error\" when no response came).",
		}, []string{"method", "code"}),
		restSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "tttbot_discord_rest_seconds",
			Help:    "Round-trip time of REST requests to Discord, by method.",
			Buckets: prometheus.ExponentialBucketsRange(0.005, 10, 12),
		}, []string{"method"}),
		rateLimits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tttbot_discord_rate_limits_total",
			Help: "429 answers from Discord that the REST client waited out.",
		}),
		rateLimitWait: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tttbot_discord_rate_limit_wait_seconds_total",
			Help: "Time the REST client spent waiting out 429 answers.",
		}),
		httpRequests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tttbot_http_interaction_requests_total",
			Help: "Requests to the HTTP interactions endpoint, by status code (401: bad or stale signature).",
		}, []string{"code"}),
		deferred: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tttbot_interactions_deferred_total",
			Help: "Interactions whose work outlasted discord.defer_after: answered with a deferral, then an edit once the work was done.",
		}),
		abandoned: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "tttbot_interactions_abandoned_total",
			Help: "Deferred interactions whose work failed or ran out of time, storing nothing; the player was told so.",
		}),
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.interactions, m.handleSeconds, m.aiSeconds, m.aiNodes, m.storeSeconds,
		m.restRequests, m.restSeconds, m.rateLimits, m.rateLimitWait, m.httpRequests,
		m.deferred, m.abandoned,
	)
	return m
}

// Registry is where the metrics live, for tests and for adding more.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// ActiveGames reports the games being played, asking count at each scrape.
// Call it at most once.
func (m *Metrics) ActiveGames(count func() float64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "tttbot_games_active",
		Help: "Games being played now.",
	}, count))
}

// DatabaseState is what the bot knows of its database (health.Database).
type DatabaseState interface {
	Up() bool
	Outages() int
}

// Database reports db's state, asking it at each scrape. Call it at most
// once.
func (m *Metrics) Database(db DatabaseState) {
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "tttbot_database_up",
			Help: "0 while the database is known to be unavailable (store calls failing with connection errors or timeouts), else 1.",
		}, func() float64 {
			if db.Up() {
				return 1
			}
			return 0
		}),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "tttbot_database_outages_total",
			Help: "Times the database became unavailable.",
		}, func() float64 { return float64(db.Outages()) }),
	)
}
