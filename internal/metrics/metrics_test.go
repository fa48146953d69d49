package metrics

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/interaction"
	"github.com/tttbot/tttbot/internal/sqlite"
)

// replies is a discord.Handler that answers with its replies in turn.
type replies struct {
	mu      sync.Mutex
	rs      []interaction.Reply
	tracked []string
}

func (h *replies) Handle(context.Context, *discordgo.Interaction) interaction.Reply {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rs[0]
	h.rs = h.rs[1:]
	return r
}

func (h *replies) TrackMessage(_ context.Context, _ int64, id string) {
	h.tracked = append(h.tracked, id)
}

func (h *replies) Private(i *discordgo.Interaction) bool { return i.ID == "private" }

// observed returns, for each series of a histogram vector, its
// observation count and sum, keyed by its label values joined with ",".
func observed(t *testing.T, c prometheus.Collector) map[string][2]float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetValue())
			}
			h := m.GetHistogram()
			got[strings.Join(labels, ",")] = [2]float64{float64(h.GetSampleCount()), h.GetSampleSum()}
		}
	}
	return got
}

func TestInteractions(t *testing.T) {
	m := New()
	next := &replies{rs: []interaction.Reply{
		{}, {}, {Code: tttbot.ESTALE}, {Code: tttbot.EINTERNAL}, {Code: tttbot.ESTALE},
	}}
	h := m.Interactions(next)
	for _, typ := range []discordgo.InteractionType{
		discordgo.InteractionApplicationCommand, discordgo.InteractionMessageComponent,
		discordgo.InteractionMessageComponent, discordgo.InteractionApplicationCommand, 99,
	} {
		h.Handle(t.Context(), &discordgo.Interaction{Type: typ})
	}
	h.TrackMessage(t.Context(), 1, "m1")
	if len(next.tracked) != 1 {
		t.Errorf("got %d messages tracked, want 1: TrackMessage passes through", len(next.tracked))
	}
	if !h.Private(&discordgo.Interaction{ID: "private"}) || h.Private(&discordgo.Interaction{ID: "public"}) {
		t.Error("Private does not pass through")
	}
	for _, tt := range []struct {
		typ, outcome string
		want         float64
	}{
		{"command", "ok", 1}, {"component", "ok", 1}, {"component", "stale", 1},
		{"command", "error", 1}, {"other", "stale", 1}, {"command", "stale", 0},
	} {
		if got := testutil.ToFloat64(m.interactions.WithLabelValues(tt.typ, tt.outcome)); got != tt.want {
			t.Errorf("interactions{type=%q,outcome=%q}: got %v, want %v", tt.typ, tt.outcome, got, tt.want)
		}
	}
	lat := observed(t, m.handleSeconds)
	if len(lat) != 3 || lat["command"][0] != 2 || lat["component"][0] != 2 || lat["other"][0] != 1 {
		t.Errorf("got latency counts %v, want command 2, component 2, other 1", lat)
	}
}

func TestDeferrals(t *testing.T) {
	m := New()
	c := m.Deferrals()
	c.Deferred()
	c.Deferred()
	c.Abandoned()
	if got := testutil.ToFloat64(m.deferred); got != 2 {
		t.Errorf("deferred: got %v, want 2", got)
	}
	if got := testutil.ToFloat64(m.abandoned); got != 1 {
		t.Errorf("abandoned: got %v, want 1", got)
	}
}

type fixedAI struct{ c ai.Choice }

func (f fixedAI) Move(context.Context, game.Position, ai.Level, *rand.Rand) (ai.Choice, error) {
	return f.c, nil
}

func (f fixedAI) Analyze(context.Context, game.Position) (ai.Analysis, error) {
	return ai.Analysis{Proven: true, Nodes: 500}, nil
}

func TestAI(t *testing.T) {
	m := New()
	e := m.AI(fixedAI{ai.Choice{Cell: 4, Nodes: 1000}})
	for range 2 {
		c, err := e.Move(t.Context(), game.Position{}, ai.Perfect, nil)
		if err != nil || c.Cell != 4 {
			t.Fatalf("got %+v, %v; want the wrapped AI's choice", c, err)
		}
	}
	if a, err := e.Analyze(t.Context(), game.Position{}); err != nil || a.Nodes != 500 {
		t.Fatalf("got %+v, %v; want the wrapped AI's analysis", a, err)
	}
	if got, want := observed(t, m.aiNodes), map[string][2]float64{"perfect": {2, 2000}, "analyze": {1, 500}}; !maps.Equal(got, want) {
		t.Errorf("got nodes %v, want %v", got, want)
	}
	if got := observed(t, m.aiSeconds)["perfect"][0]; got != 2 {
		t.Errorf("got %v searches timed, want 2", got)
	}
}

func TestStore(t *testing.T) {
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "tttbot.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m := New()
	var told outcomes
	s := m.Store(db, &told)
	g := &tttbot.Game{ChannelID: "c", Rows: 3, Cols: 3, K: 3, Challenger: "a", Opponent: "b",
		Status: tttbot.StatusPending, Deadline: time.Now().Add(time.Minute)}
	if err := s.StartGame(t.Context(), g, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(t.Context(), g.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.Game(t.Context(), g.ID+1)
	if tttbot.ErrorCode(err) != tttbot.ENOTFOUND || !strings.HasPrefix(err.Error(), "told: ") {
		t.Fatalf("got %v, want the store's ENOTFOUND through the wrapper, as the observer returned it", err)
	}
	if len(told) != 3 || told[0] != nil || told[1] != nil || tttbot.ErrorCode(told[2]) != tttbot.ENOTFOUND {
		t.Errorf("the observer was told %v, want nil, nil and ENOTFOUND", told)
	}
	got := observed(t, m.storeSeconds)
	if len(got) != 2 || got["StartGame"][0] != 1 || got["Game"][0] != 2 {
		t.Errorf("got store timings %v, want StartGame once and Game twice", got)
	}
}

// outcomes is an Observer that keeps the outcomes it is told, and marks
// the errors.
type outcomes []error

func (o *outcomes) Observe(_ context.Context, err error) error {
	*o = append(*o, err)
	if err != nil {
		return fmt.Errorf("told: %w", err)
	}
	return nil
}

type database struct {
	up      bool
	outages int
}

func (d database) Up() bool     { return d.up }
func (d database) Outages() int { return d.outages }

func TestDatabase(t *testing.T) {
	for _, db := range []database{{true, 0}, {false, 1}, {true, 2}} {
		m := New()
		m.Database(db)
		want := fmt.Sprintf(`
# HELP tttbot_database_outages_total Times the database became unavailable.
# TYPE tttbot_database_outages_total counter
tttbot_database_outages_total %d
# HELP tttbot_database_up 0 while the database is known to be unavailable (store calls failing with connection errors or timeouts), else 1.
# TYPE tttbot_database_up gauge
tttbot_database_up %d
`, db.outages, map[bool]int{false: 0, true: 1}[db.up])
		if err := testutil.GatherAndCompare(m.reg, strings.NewReader(want), "tttbot_database_up", "tttbot_database_outages_total"); err != nil {
			t.Errorf("%+v: %v", db, err)
		}
	}
}

// rest is a Discord REST API that answers 429 to the first request, then a
// user, then 500.
type rest struct {
	mu sync.Mutex
	n  int
}

func (r *rest) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	w.Header().Set("Content-Type", "application/json")
	switch r.n {
	case 1:
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"message":"You are being rate limited.","retry_after":0.05,"global":false}`)
	case 2:
		io.WriteString(w, `{"id":"1","username":"tttbot","bot":true}`)
	default:
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"message":"oops","code":0}`)
	}
}

type toServer struct{ u *url.URL }

func (ts toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = ts.u.Scheme, ts.u.Host
	return http.DefaultTransport.RoundTrip(r)
}

func TestREST(t *testing.T) {
	srv := httptest.NewServer(&rest{})
	u, _ := url.Parse(srv.URL)
	m := New()
	s, err := discordgo.New("Bot token")
	if err != nil {
		t.Fatal(err)
	}
	s.SyncEvents = true // the RateLimit event is counted before the retry
	s.Client = &http.Client{Transport: m.Transport(toServer{u})}
	s.AddHandler(m.RateLimited)

	if _, err := s.User("@me"); err != nil {
		t.Fatalf("a 429 is waited out: %v", err)
	}
	if _, err := s.User("@me"); err == nil {
		t.Fatal("got no error from a 500")
	}
	srv.Close()
	if _, err := s.User("@me"); err == nil {
		t.Fatal("got no error from a closed server")
	}
	for code, want := range map[string]float64{"429": 1, "200": 1, "500": 1, "error": 1} {
		if got := testutil.ToFloat64(m.restRequests.WithLabelValues("GET", code)); got != want {
			t.Errorf("rest requests{code=%s}: got %v, want %v", code, got, want)
		}
	}
	if got := testutil.ToFloat64(m.rateLimits); got != 1 {
		t.Errorf("got %v rate limits, want 1", got)
	}
	if got := testutil.ToFloat64(m.rateLimitWait); got != 0.05 {
		t.Errorf("got %v s of rate-limit wait, want 0.05", got)
	}
}

func TestHandler(t *testing.T) {
	m := New()
	m.ActiveGames(func() float64 { return 3 })
	endpoint := m.InteractionEndpoint(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
	}))
	endpoint.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/interactions", nil))

	w := httptest.NewRecorder()
	m.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if w.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", w.Code)
	}
	for _, want := range []string{
		"tttbot_games_active 3\n",
		`tttbot_http_interaction_requests_total{code="401"} 1` + "\n",
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

type okHandler struct{}

func (okHandler) Handle(context.Context, *discordgo.Interaction) interaction.Reply {
	return interaction.Reply{}
}
func (okHandler) TrackMessage(context.Context, int64, string) {}

func (okHandler) Private(*discordgo.Interaction) bool { return false }

// BenchmarkInteractions is what counting and timing add to an interaction.
func BenchmarkInteractions(b *testing.B) {
	h := New().Interactions(okHandler{})
	i := &discordgo.Interaction{Type: discordgo.InteractionMessageComponent}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		h.Handle(ctx, i)
	}
}
