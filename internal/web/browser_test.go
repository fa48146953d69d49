package web_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/web"
)

// screenshots, when set, is the directory the browser test writes the
// pages' screenshots to, light and dark: docs/web for the README.
var screenshots = flag.String("screenshots", "", "write the pages' screenshots, light and dark, to this directory")

// chromium is the browser's executable, or "" when none is installed.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless Chromium for t, or skips t without one.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromium()
	if path == "" {
		t.Skip("browser tests skipped: no Chromium found (apt-get install -y chromium)")
	}
	// No sandbox: CI runs as root. /tmp, not /dev/shm, which containers
	// keep small.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// problems collects what went wrong in the browser: console errors and
// exceptions, and failed requests other than those to Discord's CDN,
// which tests never reach.
type problems struct {
	mu   sync.Mutex
	urls map[network.RequestID]string
	list []string
}

// cdnURL reports whether u is Discord's CDN's.
func cdnURL(u string) bool { return strings.HasPrefix(u, "https://cdn.discordapp.com/") }

func (p *problems) listen(t *testing.T, ctx context.Context) {
	p.urls = map[network.RequestID]string{}
	err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			p.urls[ev.RequestID] = ev.Request.URL
		case *network.EventLoadingFailed:
			if u := p.urls[ev.RequestID]; !cdnURL(u) {
				p.list = append(p.list, "failed: "+u+": "+ev.ErrorText)
			}
		case *network.EventResponseReceived:
			if ev.Response.Status >= 400 && !cdnURL(ev.Response.URL) {
				p.list = append(p.list, fmt.Sprintf("status %d: %s", ev.Response.Status, ev.Response.URL))
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if (m.Type == "error" || m.IsException()) && !cdnURL(m.URL) && !strings.Contains(m.Text, "cdn.discordapp.com") {
				p.mu.Lock()
				p.list = append(p.list, "console: "+m.String())
				p.mu.Unlock()
			}
		}
	}()
}

func (p *problems) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.list
	p.list = nil
	return l
}

// checks are what every page must pass, in JavaScript: no horizontal
// scroll at the viewport's width, alt text on every image and a name on
// every drawn chart.
const checks = `(() => {
	const out = [];
	if (document.documentElement.scrollWidth > window.innerWidth) out.push("scrolls sideways: " + document.documentElement.scrollWidth + " > " + window.innerWidth);
	for (const i of document.images) if (!(i.getAttribute("alt") || "").trim()) out.push("an image without alt text: " + i.src);
	for (const s of document.querySelectorAll("svg")) if (!(s.getAttribute("aria-label") || "").trim()) out.push("an svg without a name");
	return out;
})()`

// browserSite is a site with data on a real HTTP server, and the pages
// to visit.
func browserSite(t *testing.T) (pages map[string]string, replay string) {
	s := newSite(t, web.Options{})
	g := s.seed(t)
	s.finish(t, guild, carol, alice, 0, 4, 1, 2, 6, 3, 5, 8, 7)
	for range 6 {
		s.finish(t, guild, carol, bob, xWins...)
	}
	if err := s.play.SetProfilePublic(t.Context(), tttbot.Player{ID: alice, Name: "Alice", Avatar: "a_1"}, true); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.srv)
	t.Cleanup(srv.Close)
	replay = srv.URL + "/g/" + strconv.FormatInt(g.ID, 10)
	return map[string]string{
		"leaderboard": srv.URL + s.page,
		"profile":     srv.URL + "/p/" + s.profileID(t, alice),
		"game":        replay,
	}, replay
}

func call[P any](t *testing.T, ctx context.Context, cmd func(context.Context, P) error, params P) {
	t.Helper()
	if err := cmd(ctx, params); err != nil {
		t.Fatal(err)
	}
}

// header has the browser send Accept-Language lang.
func header(ctx context.Context, lang string) error {
	_, err := chromedp.Call(ctx, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": lang}})
	return err
}

// scripts turns JavaScript on or off.
func scripts(ctx context.Context, on bool) error {
	_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on})
	return err
}

// visitPages opens the named pages in five languages on a phone's screen,
// and reports what checks finds on each, a lang other than the one asked
// for, and what the browser complained of meanwhile.
func visitPages(t *testing.T, ctx context.Context, p *problems, pages map[string]string, names ...string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 800)); err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en-US", "de", "ja", "ru", "pt-BR"} {
		call(t, ctx, header, lang)
		for _, name := range names {
			if err := chromedp.Do(ctx, chromedp.Navigate(pages[name]), chromedp.WaitReady("footer")); err != nil {
				t.Fatalf("%s in %s: %v", name, lang, err)
			}
			found, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](checks))
			if err != nil {
				t.Fatal(err)
			}
			if got, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.documentElement.lang")); err != nil || got != lang {
				t.Errorf("%s in %s: the page's lang is %q (%v)", name, lang, got, err)
			}
			for _, f := range append(found, p.take()...) {
				t.Errorf("%s in %s: %s", name, lang, f)
			}
		}
	}
}

func TestBrowser(t *testing.T) {
	ctx := browser(t)
	pages, replay := browserSite(t)
	var p problems
	p.listen(t, ctx)
	visitPages(t, ctx, &p, pages, "leaderboard", "profile", "game")

	// The replay steps with the arrow keys, and, with JavaScript off, by
	// its links.
	step := func(action chromedp.Action[chromedp.Void], ply int, want string) {
		t.Helper()
		sel := fmt.Sprintf(`p[data-ply="%d"]`, ply)
		if err := chromedp.Do(ctx, action, chromedp.WaitReady(sel)); err != nil {
			t.Fatalf("to move %d: %v", ply, err)
		}
		text, err := chromedp.Run(ctx, chromedp.Text(sel))
		if err != nil || !strings.Contains(text, want) {
			t.Errorf("at move %d: got %q (%v), want %q", ply, text, err, want)
		}
	}
	call(t, ctx, header, "en")
	step(chromedp.Navigate(replay+"?m=0"), 0, "Before the first move")
	step(chromedp.KeyEvent(kb.ArrowRight), 1, "Move 1 of 5: X on A1")
	step(chromedp.KeyEvent(kb.ArrowRight), 2, "Move 2 of 5: O on A2")
	step(chromedp.KeyEvent(kb.ArrowLeft), 1, "Move 1 of 5")
	step(chromedp.KeyEvent(kb.End), 5, "Move 5 of 5")
	step(chromedp.KeyEvent(kb.Home), 0, "Before the first move")
	call(t, ctx, scripts, false)
	step(chromedp.Navigate(replay+"?m=0"), 0, "Before the first move")
	step(chromedp.Click(`a[data-step="next"]`), 1, "Move 1 of 5")
	step(chromedp.Click(`a[data-step="last"]`), 5, "Move 5 of 5")
	step(chromedp.Click(`a[data-step="prev"]`), 4, "Move 4 of 5")
	// Without the script, the keys do nothing.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if loc, err := chromedp.Run(ctx, chromedp.Location()); err != nil || !strings.HasSuffix(loc, "?m=4") {
		t.Errorf("a key with JavaScript off: at %s (%v), want ?m=4", loc, err)
	}
	call(t, ctx, scripts, true)
	for _, f := range p.take() {
		t.Errorf("replay: %s", f)
	}

	if *screenshots != "" {
		shoot(t, ctx, pages, *screenshots)
	}
}

// shoot writes each page's screenshot at a phone's width, light and dark,
// as small JPEGs, with the CDN's avatars stood in for by a disc.
func shoot(t *testing.T, ctx context.Context, pages map[string]string, dir string) {
	t.Helper()
	avatar := avatarPNG()
	err := chromedp.Listen(ctx, func(ev any) {
		if ev, ok := ev.(*fetch.EventRequestPaused); ok {
			go chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: 200, Body: avatar,
				ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "image/png"}}})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "https://cdn.discordapp.com/*"}}}); err != nil {
		t.Fatal(err)
	}
	call(t, ctx, header, "en-US")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, url := range pages {
		for _, scheme := range []string{"light", "dark"} {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			if err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady("footer")); err != nil {
				t.Fatal(err)
			}
			// The avatars and the chart arrive.
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("[...document.images].every(i => i.complete)", chromedp.WithPollingTimeout(10*time.Second))); err != nil {
				t.Fatal(err)
			}
			shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(70))
			if err != nil {
				t.Fatalf("screenshot of %s, %s: %v", name, scheme, err)
			}
			if err := os.WriteFile(filepath.Join(dir, name+"-"+scheme+".jpg"), shot, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// avatarPNG is a disc of Discord's blurple, for the screenshots' avatars.
func avatarPNG() []byte {
	const n = 64
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := range n {
		for x := range n {
			if dx, dy := x-n/2, y-n/2; dx*dx+dy*dy <= n*n/4 {
				img.Set(x, y, color.NRGBA{0x58, 0x65, 0xf2, 0xff})
			}
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// TestBrowserTournament: a Swiss's table and a knockout's bracket pass
// the pages' checks in a phone's width, in languages of long words and of
// other scripts.
func TestBrowserTournament(t *testing.T) {
	ctx := browser(t)
	s := newSite(t, web.Options{})
	s.finish(t, guild, carol, dave) // names carol and dave
	swiss := s.tournament(t, guild, tttbot.Swiss,
		[]tttbot.TournamentGame{{White: alice, Black: dave, Result: tttbot.ResultWhite, GameID: -1}, {White: bob, Black: carol, Result: tttbot.ResultDraw}},
		[]tttbot.TournamentGame{{White: carol, Black: alice, Result: tttbot.ResultBlack, GameID: -1}, {White: dave, Black: bob, Result: tttbot.ResultBothLose}})
	knockout := s.tournament(t, guild, tttbot.Knockout,
		[]tttbot.TournamentGame{{White: alice, Black: dave, Result: tttbot.ResultWhite, GameID: -1}, {White: bob, Black: carol, Result: tttbot.ResultBlack, GameID: -1}},
		[]tttbot.TournamentGame{{White: alice, Black: carol, Result: tttbot.ResultWhite, GameID: -1}})
	halfway := s.tournament(t, guild, tttbot.Knockout,
		[]tttbot.TournamentGame{{White: alice, Black: dave, Result: tttbot.ResultWhite, GameID: -1}, {White: bob, Black: carol, Result: tttbot.ResultPending}})
	halfway.Rounds = 2 // the final, not yet drawn
	if err := s.db.Advance(t.Context(), halfway, nil); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.srv)
	t.Cleanup(srv.Close)
	pages := map[string]string{"tournament": srv.URL + "/t/" + swiss.WebID, "bracket": srv.URL + "/t/" + knockout.WebID,
		"bracket-running": srv.URL + "/t/" + halfway.WebID}
	var p problems
	p.listen(t, ctx)
	visitPages(t, ctx, &p, pages, "tournament", "bracket", "bracket-running")
	// A board's result leads to its game.
	call(t, ctx, header, "en")
	if err := chromedp.Do(ctx, chromedp.Navigate(pages["tournament"]), chromedp.WaitReady("footer"),
		chromedp.Click(`table.pairings a[href^="/g/"]`), chromedp.WaitReady(`p[data-ply]`)); err != nil {
		t.Fatalf("from a board to its game: %v", err)
	}
	for _, f := range p.take() {
		t.Errorf("to the game: %s", f)
	}
	if *screenshots != "" {
		shoot(t, ctx, pages, *screenshots)
	}
}
