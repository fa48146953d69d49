package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// The web pages under load (-pages): the bots serve them beside the
// interactions, each guild's page turned on by its admin at the start, and
// a crawler fetches them at a steady rate from the pages it has seen —
// leaderboards, the profiles they link to and the games those list — as
// browsers would, with gzip and a language of their own. Latency counts
// from when each request was due, so that a bot that falls behind is seen.

// webPublicURL is the pages' public address in the bots' configuration;
// the crawler asks the bots themselves.
const webPublicURL = "https://ttt.example"

// maxWebURLs bounds the addresses the crawler keeps.
const maxWebURLs = 20_000

// webLinks are the pages' own links in a page.
var webLinks = regexp.MustCompile(`href="(/[spg]/[^"]+)"`)

// webLanguages are the Accept-Language headers the crawler sends in turn.
var webLanguages = []string{"en-US,en;q=0.9", "de-DE,de;q=0.9", "ja", "pt-BR,pt;q=0.8", "fr-FR", "ru"}

// webConfig is the [web] section of the bots' configuration: the pages on,
// and a rate limit no single crawler reaches, since all its requests come
// from one address.
func webConfig(o loadOptions) string {
	if o.pages == 0 {
		return ""
	}
	return fmt.Sprintf("\n[web]\nenabled = true\npublic_url = %q\nrate_limit = 1000000\n", webPublicURL)
}

// webLoad fetches the pages at a rate.
type webLoad struct {
	bases  []string // each bot's http://host:port
	rate   int
	from   time.Time // measuring starts
	client *http.Client

	mu     sync.Mutex
	rng    *rand.Rand
	urls   []string
	seen   map[string]bool
	lat    []time.Duration // after from
	codes  map[int]int     // answers other than 200, by status
	errs   []string
	sent   int
	bytes  int64
	elapse time.Duration
}

// webReport is what a run of pages measured.
type webReport struct {
	rate    int
	elapsed time.Duration
	lat     []time.Duration
	codes   map[int]int
	errs    []string
	urls    int
	bytes   int64
}

// turnWebOn has an admin of each of the run's guilds run /ttt-admin web on,
// and returns the paths of their pages.
func (d *driver) turnWebOn(ctx context.Context, channels int) ([]string, error) {
	w := d.newWorker(0, 0, 1)
	admin := w.players[0]
	var pages []string
	for g := 0; g*16 < channels; g++ {
		s := &session{guild: snowflake(idGuilds, g), channel: snowflake(idChannels, g*16), admin: true}
		data := commandData{ID: "1100000000000000003", Name: "ttt-admin", Type: discordgo.ChatApplicationCommand,
			Options: []jsonOption{{Name: "web", Type: discordgo.ApplicationCommandOptionSubCommandGroup,
				Options: []jsonOption{{Name: "on", Type: discordgo.ApplicationCommandOptionSubCommand}}}}}
		r, err := w.interact(ctx, kChallenge, s, admin, discordgo.InteractionApplicationCommand, data, nil)
		if err != nil {
			return nil, fmt.Errorf("turn the web page of guild %d on: %w", g, err)
		}
		var rows []struct {
			Components []struct {
				URL string `json:"url"`
			} `json:"components"`
		}
		if r.Data == nil || json.Unmarshal(r.Data.Components, &rows) != nil {
			return nil, fmt.Errorf("turn the web page of guild %d on: got %s", g, r)
		}
		for _, row := range rows {
			for _, c := range row.Components {
				if path, ok := strings.CutPrefix(c.URL, webPublicURL); ok {
					pages = append(pages, path)
				}
			}
		}
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("no guild's page was turned on")
	}
	return pages, nil
}

func newWebLoad(bases, start []string, rate int, from time.Time, seed uint64) *webLoad {
	l := &webLoad{bases: bases, rate: rate, from: from, rng: rand.New(rand.NewPCG(seed, 35)), seen: map[string]bool{},
		codes: map[int]int{}, client: &http.Client{Timeout: 10 * time.Second,
			Transport: &http.Transport{MaxIdleConnsPerHost: 256, DisableCompression: true}}}
	for _, u := range start {
		l.add(u)
	}
	return l
}

// add keeps path among the pages to fetch, in place of a random one when
// the list is full.
func (l *webLoad) add(path string) {
	if l.seen[path] {
		return
	}
	l.seen[path] = true
	if len(l.urls) < maxWebURLs {
		l.urls = append(l.urls, path)
		return
	}
	i := l.rng.IntN(len(l.urls))
	delete(l.seen, l.urls[i])
	l.urls[i] = path
}

// run fetches pages until ctx ends, at most 512 at once: each request is
// due at its turn of the rate, and one that finds all slots busy waits,
// its wait counted in its latency.
func (l *webLoad) run(ctx context.Context) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, 512)
	start := time.Now()
	every := time.Second / time.Duration(l.rate)
	for n := 0; ; n++ {
		due := start.Add(time.Duration(n) * every)
		select {
		case <-ctx.Done():
			wg.Wait()
			return
		case <-time.After(time.Until(due)):
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return
		}
		l.mu.Lock()
		path := l.urls[l.rng.IntN(len(l.urls))]
		base := l.bases[n%len(l.bases)]
		lang := webLanguages[n%len(webLanguages)]
		l.mu.Unlock()
		// One request in crawlEvery asks without gzip, and its links join
		// the pages to fetch: reading them from the others would cost the
		// driver the CPU the bots need.
		crawl := n%crawlEvery == 0
		wg.Go(func() {
			defer func() { <-slots }()
			l.fetch(ctx, base+path, lang, due, crawl)
		})
	}
}

// crawlEvery is how often a request reads the links of its page.
const crawlEvery = 20

// fetch asks for url as a browser in lang would, and counts the answer;
// crawl asks without gzip and keeps the page's links.
func (l *webLoad) fetch(ctx context.Context, url, lang string, due time.Time, crawl bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Accept-Language", lang)
	if !crawl {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := l.client.Do(req)
	var body []byte
	if err == nil {
		body, err = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	took := time.Since(due)
	if ctx.Err() != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	measured := due.After(l.from)
	if measured {
		l.sent++
	}
	switch {
	case err != nil:
		if measured && len(l.errs) < 10 {
			l.errs = append(l.errs, err.Error())
		}
	case resp.StatusCode != http.StatusOK:
		if measured {
			l.codes[resp.StatusCode]++
		}
	default:
		if measured {
			l.lat = append(l.lat, took)
			l.bytes += int64(len(body))
		}
		if crawl {
			for _, m := range webLinks.FindAllSubmatch(body, -1) {
				l.add(strings.ReplaceAll(string(m[1]), "&amp;", "&"))
			}
		}
	}
}

// report is what l measured once the load is over.
func (l *webLoad) report(elapsed time.Duration) *webReport {
	l.mu.Lock()
	defer l.mu.Unlock()
	lat := slices.Clone(l.lat)
	slices.Sort(lat)
	return &webReport{rate: l.rate, elapsed: elapsed, lat: lat, codes: l.codes, errs: l.errs, urls: len(l.urls), bytes: l.bytes}
}

// failed reports whether a page failed to load.
func (r *webReport) failed() bool { return len(r.errs) > 0 || len(r.codes) > 0 }

func (r *webReport) print(out io.Writer) {
	secs := r.elapsed.Seconds()
	fmt.Fprintf(out, "\nweb pages: %d/s offered, %.0f/s answered 200 (%d pages, %d addresses known), %.1f KB a page\n",
		r.rate, float64(len(r.lat))/secs, len(r.lat), r.urls, float64(r.bytes)/1024/float64(max(1, len(r.lat))))
	if len(r.lat) > 0 {
		fmt.Fprintf(out, "  latency from due: p50 %s, p90 %s, p99 %s, max %s\n",
			ms(percentile(r.lat, .5)), ms(percentile(r.lat, .9)), ms(percentile(r.lat, .99)), ms(percentile(r.lat, 1)))
	}
	for code, n := range r.codes {
		fmt.Fprintf(out, "  status %d: %d\n", code, n)
	}
	for _, e := range r.errs {
		fmt.Fprintf(out, "  error: %s\n", e)
	}
}
