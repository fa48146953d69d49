package main

import (
	"cmp"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/palette"
)

// The end-to-end tests run the whole bot — config, SQLite, AI, the real
// discordgo session, timers — against a local Discord.

// clock is a test clock the bot reads through serveOptions.now.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// identifyInterval scales Discord's identify pacing down, for the bot and
// the local Discord alike, so that a bot restarted in a test need not wait
// Discord's 5s.
const identifyInterval = 20 * time.Millisecond

type harness struct {
	t     *testing.T
	srv   *discordtest.Server
	clock *clock
	db    string
	addr  string // the HTTP server's, for /healthz and /metrics
	stop  func()
	// key, when set, runs the bot in http mode: the local Discord POSTs
	// interactions to its endpoint, signed with key.
	key ed25519.PrivateKey
	// configure, when set, changes the bot's configuration.
	configure func(*config.Config)
	// interval is the identify pacing of the bot and the local Discord.
	interval time.Duration
	// log, when set, is the bot's logger, else warnings go to the test's
	// output.
	log *slog.Logger
	// workLimit, when set, bounds each interaction's work.
	workLimit time.Duration
}

func newHarness(t *testing.T) *harness { return startHarness(t, nil, discordtest.Options{}) }

// newHTTPHarness is newHarness with the bot in http mode.
func newHTTPHarness(t *testing.T) *harness {
	return startHarness(t, ed25519.NewKeyFromSeed([]byte("tttbot-e2e-http-harness-key-0123")), discordtest.Options{})
}

// startHarness runs the bot against a local Discord made with opts, in
// http mode when key is set.
func startHarness(t *testing.T, key ed25519.PrivateKey, opts discordtest.Options) *harness {
	return startHarnessWith(t, key, opts, nil)
}

// startHarnessWith is startHarness with the harness changed by set, when
// not nil, before the bot starts.
func startHarnessWith(t *testing.T, key ed25519.PrivateKey, opts discordtest.Options, set func(*harness)) *harness {
	if opts.IdentifyInterval == 0 {
		opts.IdentifyInterval = identifyInterval
	}
	h := &harness{
		t:     t,
		srv:   discordtest.NewServerWith(t, opts),
		clock: &clock{now: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)},
		db:    filepath.Join(t.TempDir(), "tttbot.db"),
		key:   key,
	}
	// Interaction tokens age on the bot's clock, as they would on Discord's.
	h.srv.SetClock(h.clock.Now)
	if set != nil {
		set(h)
	}
	h.start()
	t.Cleanup(func() { h.stop() })
	return h
}

// start runs the bot until stop; stop waits for a clean shutdown.
func (h *harness) start() {
	t := h.t
	cfg := config.Default()
	cfg.Discord.Token = config.Secret(h.srv.Token())
	cfg.Discord.APIURL = h.srv.URL()
	cfg.Database.Path = h.db
	cfg.HTTP.Listen = "127.0.0.1:0"
	if h.key != nil {
		cfg.Discord.Mode = config.ModeHTTP
		cfg.Discord.PublicKey = hex.EncodeToString(h.key.Public().(ed25519.PublicKey))
	}
	if h.configure != nil {
		h.configure(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	log := cmp.Or(h.log, slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})))
	ctx, cancel := context.WithCancel(context.Background())
	ready, errc := make(chan struct{}), make(chan error, 1)
	go func() {
		errc <- serve(ctx, cfg, log, serveOptions{
			now: h.clock.Now, seed: 1, timerInterval: 5 * time.Millisecond, ready: func() { close(ready) },
			identifyInterval: cmp.Or(h.interval, identifyInterval), workLimit: h.workLimit,
			listening: func(a net.Addr) { h.addr = a.String() },
		})
	}()
	select {
	case <-ready:
	case err := <-errc:
		cancel()
		t.Fatalf("bot did not start: %v", err)
	}
	if h.key != nil {
		h.srv.UseEndpoint("http://"+h.addr+cfg.HTTP.Path, h.key, h.clock.Now)
	}
	stopped := false
	h.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("bot shutdown: %v", err)
		}
	}
}

func (h *harness) restart() {
	h.stop()
	h.start()
}

// cells returns the board's cell buttons row by row (the controls excluded).
func cells(m *discordtest.Message) []discordtest.Button {
	var out []discordtest.Button
	for _, row := range m.Grid() {
		for _, b := range row {
			if strings.HasPrefix(b.CustomID, "ttt:m:") {
				out = append(out, b)
			}
		}
	}
	return out
}

// freeCells are the enabled cells of an active board.
func freeCells(m *discordtest.Message) []discordtest.Button {
	var out []discordtest.Button
	for _, b := range cells(m) {
		if !b.Disabled {
			out = append(out, b)
		}
	}
	return out
}

func wantEphemeral(t *testing.T, r *discordtest.Response, contains string) {
	t.Helper()
	if !r.Ephemeral() {
		t.Fatalf("got a public response %s, want an ephemeral one", r.Data)
	}
	if !strings.Contains(r.Message.Text(), contains) {
		t.Errorf("got %q, want it to say %q", r.Message.Text(), contains)
	}
}

// playBot plays a game against the bot with user taking the first free cell
// each turn, and returns the final board.
func (h *harness) playBot(user discordtest.User, board *discordtest.Message) *discordtest.Message {
	h.t.Helper()
	for range 30 {
		free := freeCells(board)
		if len(free) == 0 {
			return board
		}
		board = h.srv.Click(h.t, user, board, free[len(free)/2].CustomID).Result(h.t)
	}
	h.t.Fatalf("game did not end:\n%s", board)
	return nil
}

func TestGameAgainstBot(t *testing.T) {
	tests := []struct {
		name  string
		opts  []discordtest.Option
		cells int
	}{
		{"3x3 human first", []discordtest.Option{discordtest.StringOption("first", "me")}, 9},
		{"3x3 bot first", []discordtest.Option{discordtest.StringOption("first", "them")}, 9},
		{"4x4", []discordtest.Option{discordtest.IntOption("size", 4)}, 16},
		{"5x5", []discordtest.Option{discordtest.IntOption("size", 5), discordtest.StringOption("first", "me")}, 25},
	}
	h := newHarness(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			alice := h.srv.NewUser("alice")
			board := h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge", tt.opts...).Result(t)
			if got := len(cells(board)); got != tt.cells {
				t.Fatalf("got %d cells, want %d:\n%s", got, tt.cells, board)
			}
			end := h.playBot(alice, board)
			if strings.Contains(end.Text(), alice.Mention()+" wins") {
				t.Errorf("the bot lost at perfect:\n%s", end)
			}
			if !strings.Contains(end.Text(), h.srv.Bot().Mention()) {
				t.Errorf("board does not name the bot:\n%s", end)
			}
			if _, ok := end.FindButton(func(b discordtest.Button) bool { return b.Label == "Rematch" }); !ok {
				t.Errorf("no Rematch button on a finished board:\n%s", end)
			}
		})
	}
}

func TestChallengeAcceptWin(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
	ch := h.srv.NewChannel()
	msg := h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
	if !strings.Contains(msg.Text(), bob.Mention()) || !strings.Contains(msg.Text(), alice.Mention()+" challenges") {
		t.Fatalf("challenge message:\n%s", msg)
	}
	// Only bob may answer.
	wantEphemeral(t, h.srv.Click(t, alice, msg, msg.Button(t, "Accept").CustomID).Wait(t), "")
	board := h.srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
	if board.ID != msg.ID {
		t.Fatalf("accept posted a new message %s, want the challenge %s updated", board.ID, msg.ID)
	}
	// alice (X) takes the left column; bob plays the middle.
	for i, mv := range []struct {
		who  discordtest.User
		cell int
	}{{alice, 0}, {bob, 1}, {alice, 3}, {bob, 4}, {alice, 6}} {
		board = h.srv.Click(t, mv.who, board, cells(board)[mv.cell].CustomID).Result(t)
		if i < 4 && !strings.Contains(board.Text(), "your turn") {
			t.Fatalf("after move %d:\n%s", i+1, board)
		}
	}
	if !strings.Contains(board.Text(), alice.Mention()+" wins") {
		t.Fatalf("got %q, want alice to win", board.Text())
	}
	for _, c := range []int{0, 3, 6} {
		if b := cells(board)[c]; b.Style != discordgo.SuccessButton || b.Label != "X" {
			t.Errorf("winning cell %d: got style %d label %q, want success X", c, b.Style, b.Label)
		}
	}
	if len(freeCells(board)) != 0 {
		t.Errorf("finished board still has enabled cells:\n%s", board)
	}

	// Rematch: bob asks, sides swap, alice must accept.
	re := h.srv.Click(t, bob, board, board.Button(t, "Rematch").CustomID).Result(t)
	if re.ID == board.ID || !strings.Contains(re.Text(), bob.Mention()+" challenges") || !strings.Contains(re.Text(), bob.Mention()+" plays ❌") {
		t.Fatalf("rematch message:\n%s", re)
	}
	next := h.srv.Click(t, alice, re, re.Button(t, "Accept").CustomID).Result(t)
	if !strings.Contains(next.Text(), bob.Mention()+", your turn") {
		t.Errorf("after rematch accept:\n%s", next)
	}
}

func TestDeclineAndWithdraw(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
	ch := h.srv.NewChannel()
	msg := h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
	got := h.srv.Click(t, bob, msg, msg.Button(t, "Decline").CustomID).Result(t)
	if !strings.Contains(got.Text(), "declined") || len(got.Buttons()) != 0 {
		t.Errorf("after decline:\n%s", got)
	}
	// The channel is free again; alice withdraws her next challenge.
	h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
	r := h.srv.Slash(t, alice, ch, "ttt resign").Wait(t)
	if r.Ephemeral() || !strings.Contains(r.Message.Text(), "withdrew") {
		t.Errorf("withdraw reply: %s", r.Data)
	}
}

func TestTimers(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")

	ch1 := h.srv.NewChannel()
	msg := h.srv.Slash(t, alice, ch1, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
	// alice cannot accept her own challenge: a refused click records
	// nothing. The challenge expires within the life of the token that
	// posted it, and the timers edit it through that token's webhook: the
	// bot never fetches the board's message.
	wantEphemeral(t, h.srv.Click(t, alice, msg, msg.Button(t, "Accept").CustomID).Wait(t), "")
	h.clock.Advance(2*time.Minute + tttbot.DeadlineGrace)
	got := h.srv.WaitMessage(t, ch1, msg.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "expired") })
	if len(got.Buttons()) != 0 {
		t.Errorf("expired challenge still has buttons:\n%s", got)
	}
	fetches, tokenEdits := len(h.srv.CallsTo(discordtest.RouteWebhookMessage)), len(h.srv.CallsTo(discordtest.RouteEditWebhookMessage))
	if fetches != 0 || tokenEdits != 1 {
		t.Errorf("got %d fetches of the board and %d edits through its token, want none and 1", fetches, tokenEdits)
	}
	r := h.srv.ClickStale(t, bob, msg, msg.Button(t, "Accept").CustomID).Wait(t)
	wantEphemeral(t, r, "")

	ch2 := h.srv.NewChannel()
	msg = h.srv.Slash(t, alice, ch2, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
	board := h.srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
	board = h.srv.Click(t, alice, board, cells(board)[4].CustomID).Result(t)
	h.clock.Advance(5*time.Minute + tttbot.DeadlineGrace)
	got = h.srv.WaitMessage(t, ch2, board.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "ran out of time") })
	if !strings.Contains(got.Text(), bob.Mention()+" ran out of time") || !strings.Contains(got.Text(), alice.Mention()+" wins") {
		t.Errorf("after turn timeout:\n%s", got)
	}
	// The clicks told the bot the board's message: channel REST.
	edits := 0
	for _, c := range h.srv.CallsTo(discordtest.RouteEditChannelMessage) {
		if strings.HasSuffix(c.Path, "/"+board.ID) {
			edits++
		}
	}
	if edits != 1 {
		t.Errorf("got %d edits of the board through channel REST, want the timers' one", edits)
	}
}

func TestBadClicks(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.srv.NewUser("alice"), h.srv.NewUser("bob"), h.srv.NewUser("carol")
	ch := h.srv.NewChannel()
	msg := h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
	board := h.srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
	old := board
	board = h.srv.Click(t, alice, board, cells(board)[0].CustomID).Result(t)
	before := h.srv.Message(ch, board.ID)

	tests := []struct {
		name     string
		user     discordtest.User
		msg      *discordtest.Message
		customID string
		want     string
	}{
		{"stranger", carol, board, cells(board)[1].CustomID, "isn't your game"},
		{"out of turn", alice, board, cells(board)[1].CustomID, "not your turn"},
		{"taken cell", bob, board, cells(board)[0].CustomID, "taken"},
		{"stale board", bob, old, cells(old)[1].CustomID, "out of date"},
		{"malformed custom_id", bob, board, "ttt:m:zz", "isn't one I know"},
		{"unknown game", bob, board, "ttt:m:99999:1:1", "doesn't exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantEphemeral(t, h.srv.ClickStale(t, tt.user, tt.msg, tt.customID).Wait(t), tt.want)
		})
	}
	after := h.srv.Message(ch, board.ID)
	if after.Text() != before.Text() || after.Edits != before.Edits {
		t.Errorf("a refused click changed the board:\nbefore %s\nafter %s", before, after)
	}
	// The game goes on.
	board = h.srv.Click(t, bob, board, cells(board)[1].CustomID).Result(t)
	if !strings.Contains(board.Text(), alice.Mention()+", your turn") {
		t.Errorf("after bob's move:\n%s", board)
	}
}

func TestBadChallenges(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol := h.srv.NewUser("alice"), h.srv.NewUser("bob"), h.srv.NewUser("carol")
	other := h.srv.NewBotUser("otherbot")
	ch := h.srv.NewChannel()
	h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
	tests := []struct {
		name string
		user discordtest.User
		ch   string
		opts []discordtest.Option
		want string
	}{
		{"yourself", carol, h.srv.NewChannel(), []discordtest.Option{discordtest.UserOption("opponent", carol)}, "yourself"},
		{"another bot", carol, h.srv.NewChannel(), []discordtest.Option{discordtest.UserOption("opponent", other)}, "is a bot"},
		{"win too long", carol, h.srv.NewChannel(), []discordtest.Option{discordtest.IntOption("size", 3), discordtest.IntOption("win", 5)}, "does not fit"},
		{"channel busy", carol, ch, nil, "already"},
		{"player busy", alice, ch, []discordtest.Option{discordtest.UserOption("opponent", carol)}, "already"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantEphemeral(t, h.srv.Slash(t, tt.user, tt.ch, "ttt challenge", tt.opts...).Wait(t), tt.want)
		})
	}
	wantEphemeral(t, h.srv.Slash(t, carol, ch, "ttt help").Wait(t), "/ttt challenge")
	wantEphemeral(t, h.srv.Slash(t, carol, h.srv.NewChannel(), "ttt resign").Wait(t), "no game")
}

// TestResign: resigning by command ends the game and redraws its board:
// through channel REST in a server, through the latest click's webhook in
// the DM with the bot.
func TestResign(t *testing.T) {
	bothModes(t, func(t *testing.T, h *harness) {
		alice := h.srv.NewUser("alice")
		dm := h.srv.NewDMChannel()
		for _, ch := range []string{h.srv.NewChannel(), dm} {
			board := h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
			board = h.srv.Click(t, alice, board, cells(board)[4].CustomID).Result(t)
			r := h.srv.Slash(t, alice, ch, "ttt resign").Wait(t)
			if r.Ephemeral() || !strings.Contains(r.Message.Text(), "resigned") {
				t.Fatalf("resign reply: %s", r.Data)
			}
			got := h.srv.WaitMessage(t, ch, board.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Text(), "resigned") })
			if len(freeCells(got)) != 0 {
				t.Errorf("resigned board still playable:\n%s", got)
			}
			wantBoard(t, "resigned by command", got, palette.O, commands.ActRematch, "v")
		}
		h.noChannelREST(dm)
	})
}

func TestRestartMidGame(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.srv.NewUser("alice"), h.srv.NewUser("bob")
	ch := h.srv.NewChannel()
	msg := h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob), discordtest.StringOption("first", "me")).Result(t)
	board := h.srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
	board = h.srv.Click(t, alice, board, cells(board)[4].CustomID).Result(t)

	h.restart()
	h.srv.WaitReady(t)

	board = h.srv.Click(t, bob, board, cells(board)[0].CustomID).Result(t)
	if got := cells(board); got[4].Label != "X" || got[0].Label != "O" || !strings.Contains(board.Text(), alice.Mention()+", your turn") {
		t.Errorf("after restart:\n%s", board)
	}
}

func TestRESTFaults(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.NewUser("alice")

	// A 429 on the callback: discordgo waits retry_after and sends it again.
	h.srv.FailNext(t, discordtest.RouteCallback, 1, http.StatusTooManyRequests)
	board := h.srv.Slash(t, alice, h.srv.NewChannel(), "ttt challenge", discordtest.StringOption("first", "me")).Result(t)
	if len(freeCells(board)) != 9 {
		t.Fatalf("board after a 429:\n%s", board)
	}

	// A 500 on the callback loses that answer (the move stands), but the bot
	// lives on: a click on the outdated board is refused and refreshes it,
	// and the game goes on.
	h.srv.FailNext(t, discordtest.RouteCallback, 1, http.StatusInternalServerError)
	h.srv.Click(t, alice, board, freeCells(board)[0].CustomID)
	h.srv.WaitCalls(t, discordtest.RouteCallback, 3)
	wantEphemeral(t, h.srv.ClickStale(t, alice, board, freeCells(board)[1].CustomID).Wait(t), "out of date")
	board = h.srv.WaitMessage(t, board.ChannelID, board.ID, func(m *discordtest.Message) bool { return len(freeCells(m)) == 7 })
	board = h.srv.Click(t, alice, board, freeCells(board)[0].CustomID).Result(t)
	if got := len(freeCells(board)); got != 5 && !strings.Contains(board.Text(), "wins") {
		t.Errorf("got %d free cells after the next move, want 5:\n%s", got, board)
	}
}

func TestSettingsSimultaneousGames(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol, dave := h.srv.NewUser("alice"), h.srv.NewUser("bob"), h.srv.NewUser("carol"), h.srv.NewUser("dave")
	admin := h.srv.NewAdminUser("admin")
	ch := h.srv.NewChannel()
	h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", bob)).Result(t)
	wantEphemeral(t, h.srv.Slash(t, carol, ch, "ttt challenge", discordtest.UserOption("opponent", dave)).Wait(t), "already")

	wantEphemeral(t, h.srv.Slash(t, admin, ch, "ttt settings", discordtest.BoolOption("simultaneous_games", true)).Wait(t), "/ttt-admin simultaneous")
	wantEphemeral(t, h.srv.Slash(t, carol, ch, "ttt-admin simultaneous", discordtest.BoolOption("allow", true)).Wait(t), "manage")
	wantEphemeral(t, h.srv.Slash(t, admin, ch, "ttt-admin simultaneous", discordtest.BoolOption("allow", true)).Wait(t), "allowed")

	msg := h.srv.Slash(t, carol, ch, "ttt challenge", discordtest.UserOption("opponent", dave)).Result(t)
	if msg.Ephemeral() || !strings.Contains(msg.Text(), carol.Mention()+" challenges") {
		t.Errorf("second game in the channel after allowing it:\n%s", msg)
	}
	// One game per player per channel still holds.
	wantEphemeral(t, h.srv.Slash(t, alice, ch, "ttt challenge", discordtest.UserOption("opponent", carol)).Wait(t), "already")
}
