// Package web serves the bot's public pages from its HTTP listener: a
// server's leaderboard (/s/{id}), a player's profile (/p/{id}), a
// finished game's replay (/g/{id}) and a tournament's table or bracket
// (/t/{id}). They are rendered on the server with html/template, in the
// viewer's language from the bot's own catalogs, and work without
// JavaScript; one small script adds the arrow keys to a replay.
//
// The addresses hold no Discord ID: a server's page, a player's profile
// and a tournament's page are named by random opaque IDs
// (tttbot.NewWebID), a game by its number. Only what its owners opted
// into is shown: a server's page once its admins turned it on, a profile
// once its player made it public (or, restricted to that server's games,
// from an enabled server's page), a game once finished and of either, a
// tournament while its server's page is on. Anything else is the same 404
// as an address that never existed.
package web

import (
	"compress/gzip"
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/i18n"
)

// Store is what the pages read. tttbot.Store describes each method.
type Store interface {
	WebGuild(ctx context.Context, webID string) (*tttbot.Settings, error)
	Settings(ctx context.Context, guildID string) (*tttbot.Settings, error)
	Profile(ctx context.Context, webID string) (*tttbot.Profile, error)
	Profiles(ctx context.Context, ids []string) (map[string]tttbot.Profile, error)
	Leaderboard(ctx context.Context, scope string, shape tttbot.Shape, offset, limit int) (tttbot.LeaderboardPage, error)
	Stats(ctx context.Context, scope, player string) (*tttbot.Stats, error)
	Trends(ctx context.Context, scope string, shape tttbot.Shape, players []string, limit int) (map[string][]tttbot.RatingPoint, error)
	RecentGames(ctx context.Context, player, guildID string, limit int) ([]tttbot.HistoryEntry, error)
	Game(ctx context.Context, id int64) (*tttbot.Game, error)
	Moves(ctx context.Context, id int64) ([]tttbot.Move, error)
	WebTournament(ctx context.Context, webID string) (*tttbot.TournamentState, error)
}

// AI values every move of a position, for a replay's verdicts.
type AI interface {
	Analyze(ctx context.Context, p game.Position) (ai.Analysis, error)
}

// Options configure a Server.
type Options struct {
	// PublicURL is where people reach the pages ([web] public_url); its
	// path, if any, prefixes every page's.
	PublicURL string
	// TrustForwarded takes the client's address and scheme from
	// X-Forwarded-For and X-Forwarded-Proto.
	TrustForwarded bool
	// RateLimit is the pages a second one client address may load, on
	// average; a burst of twice as many passes. 0: no limit.
	RateLimit int
	// Concurrency bounds the pages built at once; more wait their turn.
	// Each holds a database connection while it reads, and the bot's
	// interactions need theirs: 0 is GOMAXPROCS, at least 2.
	Concurrency int
	BotID       string // the bot's user ID, which plays the games against it
	Logger      *slog.Logger
	Now         func() time.Time // default time.Now
}

// Server serves the pages. It is safe for concurrent use.
type Server struct {
	store   Store
	ai      AI
	cat     *i18n.Catalog
	opts    Options
	prefix  string // PublicURL's path, without its final "/"
	limiter *limiter
	assets  *assets
	pages   *templates
	judged  *judgeCache
	mux     *http.ServeMux
	zippers sync.Pool     // of *gzip.Writer: each holds a few hundred KB of tables
	slots   chan struct{} // one per page being built
}

// New returns a Server reading store, judging moves with engine and
// speaking the languages of cat.
func New(store Store, engine AI, cat *i18n.Catalog, opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = max(2, runtime.GOMAXPROCS(0))
	}
	s := &Server{store: store, ai: engine, cat: cat, opts: opts, prefix: pathOf(opts.PublicURL),
		judged: newJudgeCache(judgeCacheSize), slots: make(chan struct{}, opts.Concurrency)}
	s.zippers.New = func() any {
		z, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed) // a valid level: no error
		return z
	}
	var err error
	if s.assets, err = loadAssets(s.prefix); err != nil {
		return nil, err
	}
	if s.pages, err = loadTemplates(); err != nil {
		return nil, err
	}
	if opts.RateLimit > 0 {
		s.limiter = newLimiter(float64(opts.RateLimit), 2*opts.RateLimit, maxClients, opts.Now)
	}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET "+s.prefix+"/s/{id}", s.bounded(s.leaderboard))
	s.mux.HandleFunc("GET "+s.prefix+"/p/{id}", s.bounded(s.profile))
	s.mux.HandleFunc("GET "+s.prefix+"/p/{id}/chart.svg", s.bounded(s.chart))
	s.mux.HandleFunc("GET "+s.prefix+"/g/{id}", s.game)
	s.mux.HandleFunc("GET "+s.prefix+"/t/{id}", s.bounded(s.tournament))
	s.mux.HandleFunc("GET "+s.prefix+"/static/{name}", s.static)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { s.fail(w, r, http.StatusNotFound) })
	return s, nil
}

// Routes are the patterns that a ServeMux hands a Server for the pages
// at publicURL.
func Routes(publicURL string) []string {
	prefix := pathOf(publicURL)
	return []string{"GET " + prefix + "/s/", "GET " + prefix + "/p/", "GET " + prefix + "/g/", "GET " + prefix + "/t/", "GET " + prefix + "/static/"}
}

// pathOf is the path of publicURL without its final "/": "" for a site's
// root.
func pathOf(publicURL string) string {
	u, err := url.Parse(publicURL)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(u.Path, "/")
}

// bounded is page, built in a slot of its own (see reading).
func (s *Server) bounded(page http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.reading(r.Context(), func() error { page(w, r); return nil }) != nil {
			return // the client left while the page waited
		}
	}
}

// reading runs fn, a page's reads, in a slot of its own: a burst of pages
// waits for slots rather than take every database connection from the
// interactions.
func (s *Server) reading(ctx context.Context, fn func() error) error {
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.slots }()
	return fn()
}

// ServeHTTP serves one request: the rate limit first, then the page.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secure(w, r, s.opts.TrustForwarded)
	if s.limiter != nil {
		if wait, ok := s.limiter.allow(clientAddr(r, s.opts.TrustForwarded)); !ok {
			w.Header().Set("Retry-After", retryAfter(wait))
			s.fail(w, r, http.StatusTooManyRequests)
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}
