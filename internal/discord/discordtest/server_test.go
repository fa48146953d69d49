package discordtest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// toServer sends discordgo's requests for discord.com to srv, as
// discord.NewTransport does for the bot (which this package cannot import:
// the discord package's tests import this one).
type toServer struct{ srv *Server }

func (t toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	out := r.Clone(r.Context())
	u := *r.URL
	u.Scheme, u.Host = "http", strings.TrimPrefix(t.srv.http.URL, "http://")
	out.URL, out.Host = &u, ""
	return http.DefaultTransport.RoundTrip(out)
}

// newSession returns a discordgo session for srv, not yet open, that the
// test closes at its end.
func newSession(t *testing.T, srv *Server) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: toServer{srv}, Timeout: 10 * time.Second}
	s.Identify.Intents = discordgo.IntentsNone
	t.Cleanup(func() { s.Close() })
	return s
}

// open connects a discordgo session to srv, with h handling interactions.
func open(t *testing.T, srv *Server, h func(*discordgo.Session, *discordgo.InteractionCreate)) *discordgo.Session {
	t.Helper()
	s := newSession(t, srv)
	if h != nil {
		s.AddHandler(h)
	}
	if err := s.Open(); err != nil {
		t.Fatalf("open session: %v", err)
	}
	return s
}

// recorder is a testing.TB that keeps the failures the server reports, so
// tests can check them without failing.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

func (r *recorder) failures() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

// fails runs f with a recorder and returns what failed; f ends at a Fatalf.
func fails(t *testing.T, f func(tb testing.TB)) []string {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(rec)
	}()
	<-done
	return rec.failures()
}

func restStatus(err error) (status, code int) {
	var re *discordgo.RESTError
	if !errors.As(err, &re) {
		return 0, 0
	}
	if re.Message != nil {
		code = re.Message.Code
	}
	return re.Response.StatusCode, code
}

func TestHandshake(t *testing.T) {
	t.Parallel()
	srv := NewServerWith(t, Options{BotID: "42", ApplicationID: "43", BotName: "bot", HeartbeatInterval: 50 * time.Millisecond})
	s := open(t, srv, nil)

	if got, want := s.State.User.ID, "42"; got != want {
		t.Errorf("state user: got %q, want %q", got, want)
	}
	if !s.State.User.Bot {
		t.Errorf("state user: got bot false, want true")
	}
	if s.State.Application == nil || s.State.Application.ID != "43" {
		t.Errorf("state application: got %+v, want ID 43", s.State.Application)
	}
	id := srv.WaitReady(t)
	if id.Token != "Bot test-token" || id.SessionID == "" {
		t.Errorf("identify: got %+v, want token \"Bot test-token\" and a session", id)
	}
	// discordgo beats at once, then every 50ms; each beat is acknowledged.
	srv.waitTB(t, func() string { return "3 heartbeats" }, func() bool { return srv.heartbeats >= 3 })
	s.RLock()
	ack, sent := s.LastHeartbeatAck, s.LastHeartbeatSent
	s.RUnlock()
	if ack.Before(sent.Add(-time.Second)) {
		t.Errorf("heartbeat: last ack %v long before last sent %v", ack, sent)
	}
	u, err := s.User("@me")
	if err != nil || u.ID != "42" {
		t.Errorf("GET /users/@me: got %+v, %v; want user 42", u, err)
	}
	if got := srv.WaitCall(t, RouteGateway).Status; got != http.StatusOK {
		t.Errorf("GET /gateway: got status %d, want 200", got)
	}
}

func TestWrongToken(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	s, _ := discordgo.New("Bot wrong")
	s.Client = &http.Client{Transport: toServer{srv}}
	s.ShouldReconnectOnError = false
	if err := s.Open(); err == nil {
		s.Close()
		t.Fatal("open with a wrong token: got no error")
	}
	_, err := s.User("@me")
	if status, _ := restStatus(err); status != http.StatusUnauthorized {
		t.Errorf("GET /users/@me with a wrong token: got %v, want 401", err)
	}
}

func TestSlashAndClick(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	alice, bob := srv.NewUser("alice"), srv.NewUser("bob")
	ch := srv.NewChannel()
	got := make(chan *discordgo.Interaction, 2)
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		got <- ic.Interaction
		resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource}
		data := &discordgo.InteractionResponseData{
			Content: "challenge",
			Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Accept", CustomID: "accept:1"},
				discordgo.Button{Label: "Decline", CustomID: "decline:1", Style: discordgo.DangerButton},
			}}},
		}
		if ic.Type == discordgo.InteractionMessageComponent {
			resp.Type = discordgo.InteractionResponseUpdateMessage
			data = &discordgo.InteractionResponseData{Content: "accepted by " + ic.Member.User.Username, Components: []discordgo.MessageComponent{}}
		}
		resp.Data = data
		if err := s.InteractionRespond(ic.Interaction, resp); err != nil {
			t.Errorf("respond: %v", err)
		}
	})

	resp := srv.Slash(t, alice, ch, "ttt challenge", UserOption("opponent", bob), IntOption("size", 4)).Wait(t)
	in := <-got
	cmd := in.ApplicationCommandData()
	sub := cmd.Options[0]
	if cmd.Name != "ttt" || sub.Name != "challenge" || sub.Type != discordgo.ApplicationCommandOptionSubCommand {
		t.Fatalf("command: got /%s %s (type %d), want /ttt challenge", cmd.Name, sub.Name, sub.Type)
	}
	if u := sub.GetOption("opponent").UserValue(nil); u.ID != bob.ID {
		t.Errorf("opponent: got %q, want %q", u.ID, bob.ID)
	}
	if u := cmd.Resolved.Users[bob.ID]; u == nil || u.Username != "bob" {
		t.Errorf("resolved users: got %+v, want bob", cmd.Resolved.Users)
	}
	if size := sub.GetOption("size").IntValue(); size != 4 {
		t.Errorf("size: got %d, want 4", size)
	}
	if in.Member.User.ID != alice.ID || in.GuildID != srv.GuildID() || in.ChannelID != ch {
		t.Errorf("interaction: got member %s in %s/%s, want %s in %s/%s", in.Member.User.ID, in.GuildID, in.ChannelID, alice.ID, srv.GuildID(), ch)
	}

	msg := resp.Message
	if resp.Type != discordgo.InteractionResponseChannelMessageWithSource || msg.Content != "challenge" || resp.Ephemeral() {
		t.Fatalf("response: got type %d, %v", resp.Type, msg)
	}
	if got := srv.Messages(ch); len(got) != 1 || got[0].ID != msg.ID {
		t.Fatalf("channel messages: got %v, want the challenge", got)
	}

	after := srv.Click(t, bob, msg, msg.Button(t, "Accept").CustomID).Result(t)
	click := <-got
	if click.Message == nil || click.Message.ID != msg.ID || len(click.Message.Components) != 1 {
		t.Errorf("click: got message %+v, want the challenge with its buttons", click.Message)
	}
	if d := click.MessageComponentData(); d.CustomID != "accept:1" {
		t.Errorf("click: got custom_id %q, want accept:1", d.CustomID)
	}
	if after.ID != msg.ID || after.Content != "accepted by bob" || len(after.Buttons()) != 0 || after.Edits != 1 {
		t.Errorf("after click: got %v (edits %d), want the same message, accepted, no buttons", after, after.Edits)
	}
	if now := srv.Message(ch, msg.ID); now.Content != after.Content {
		t.Errorf("stored message: got %q, want %q", now.Content, after.Content)
	}
	if msg.Content != "challenge" {
		t.Errorf("snapshot changed by a later edit: got %q", msg.Content)
	}

	dm := srv.NewDMChannel()
	if r := srv.Slash(t, alice, dm, "ttt help").Wait(t); r.Message.GuildID != "" {
		t.Errorf("DM answer: got guild %q, want none", r.Message.GuildID)
	}
	in = <-got
	if in.GuildID != "" || in.Member != nil || in.User == nil || in.User.ID != alice.ID {
		t.Errorf("DM interaction: got guild %q, member %v, user %v; want alice as a user", in.GuildID, in.Member, in.User)
	}
}

func TestClickChecksTheButton(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	alice := srv.NewUser("alice")
	ch := srv.NewChannel()
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "board", Components: []discordgo.MessageComponent{
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "X", CustomID: "cell:0", Disabled: true},
					discordgo.Button{Label: "\u200b", CustomID: "cell:1"},
				}},
			}},
		})
	})
	msg := srv.Slash(t, alice, ch, "ttt play").Result(t)
	if got := fails(t, func(tb testing.TB) { srv.Click(tb, alice, msg, "cell:0") }); len(got) != 1 || !strings.Contains(got[0], "no enabled button") {
		t.Errorf("click on a disabled button: got failures %q, want one about the button", got)
	}
	if got := fails(t, func(tb testing.TB) { srv.Click(tb, alice, msg, "cell:9") }); len(got) != 1 {
		t.Errorf("click on a missing button: got failures %q, want one", got)
	}
	if b := msg.Grid()[0][1]; b.CustomID != "cell:1" || b.Row != 0 || b.Col != 1 {
		t.Errorf("grid: got %+v, want cell:1 at 0,1", b)
	}
}

func TestEphemeralDeferredAndFollowups(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	alice := srv.NewUser("alice")
	ch := srv.NewChannel()
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		switch ic.ApplicationCommandData().Options[0].Name {
		case "help":
			s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
				Type: discordgo.InteractionResponseChannelMessageWithSource,
				Data: &discordgo.InteractionResponseData{Content: "help text", Flags: discordgo.MessageFlagsEphemeral},
			})
		case "slow":
			s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
			content := "done"
			if _, err := s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{Content: &content}); err != nil {
				t.Errorf("edit original: %v", err)
			}
			if _, err := s.FollowupMessageCreate(ic.Interaction, true, &discordgo.WebhookParams{Content: "more"}); err != nil {
				t.Errorf("follow-up: %v", err)
			}
		}
	})

	help := srv.Slash(t, alice, ch, "ttt help").Wait(t)
	if !help.Ephemeral() || help.Message.Content != "help text" {
		t.Errorf("help: got %v, want an ephemeral help text", help.Message)
	}
	if got := srv.Messages(ch); len(got) != 0 {
		t.Errorf("channel after an ephemeral reply: got %v, want nothing public", got)
	}

	in := srv.Slash(t, alice, ch, "ttt slow")
	if r := in.Wait(t); r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource || r.Message.Flags&FlagLoading == 0 {
		t.Errorf("deferral: got type %d, flags %d; want 5, loading", r.Type, r.Message.Flags)
	}
	if m := in.Result(t); m.Content != "done" || m.Flags&FlagLoading != 0 {
		t.Errorf("result: got %v, want done", m)
	}
	srv.WaitCall(t, RouteFollowup)
	if f := in.Followups(); len(f) != 1 || f[0].Content != "more" {
		t.Errorf("follow-ups: got %v, want one saying more", f)
	}
	if got := srv.Messages(ch); len(got) != 2 {
		t.Errorf("channel: got %d messages, want the answer and the follow-up", len(got))
	}
}

func TestRESTRecording(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	ch := srv.NewChannel()
	s := open(t, srv, nil)

	m, err := s.ChannelMessageSend(ch, "hello")
	if err != nil {
		t.Fatal(err)
	}
	content := "edited"
	if _, err := s.ChannelMessageEditComplex(&discordgo.MessageEdit{Channel: ch, ID: m.ID, Content: &content}); err != nil {
		t.Fatal(err)
	}
	got, err := s.ChannelMessage(ch, m.ID)
	if err != nil || got.Content != "edited" || got.Author.ID != srv.Bot().ID {
		t.Errorf("GET message: got %+v, %v; want edited, by the bot", got, err)
	}
	if _, err := s.ChannelMessageSend("404", "nowhere"); err == nil {
		t.Errorf("post to an unknown channel: got no error")
	}
	if _, err := s.Guild(srv.GuildID()); err == nil {
		t.Errorf("GET /guilds/{id}: got no error, want 404")
	}

	want := []string{RouteCreateMessage, RouteEditChannelMessage, RouteChannelMessage, RouteCreateMessage, ""}
	var routes []string
	for _, c := range srv.Calls() {
		if c.Route != RouteGateway {
			routes = append(routes, c.Route)
		}
	}
	if fmt.Sprint(routes) != fmt.Sprint(want) {
		t.Errorf("routes: got %q, want %q", routes, want)
	}
	if c := srv.CallsTo("PATCH /channels/" + ch + "/messages/" + m.ID); len(c) != 1 || !strings.Contains(string(c[0].Body), `"edited"`) {
		t.Errorf("edit call: got %v, want one with the new content", c)
	}
	if u := srv.Unrouted(); len(u) != 1 || u[0].Path != "/guilds/"+srv.GuildID() || u[0].Status != http.StatusNotFound {
		t.Errorf("unrouted: got %v, want GET /guilds/%s → 404", u, srv.GuildID())
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	ch := srv.NewChannel()
	s := open(t, srv, nil)

	srv.FailNext(t, RouteCreateMessage, 2, http.StatusTooManyRequests)
	if _, err := s.ChannelMessageSend(ch, "after 429s"); err != nil {
		t.Fatalf("send after two 429s: %v", err)
	}
	var statuses []int
	for _, c := range srv.CallsTo(RouteCreateMessage) {
		statuses = append(statuses, c.Status)
	}
	if fmt.Sprint(statuses) != "[429 429 200]" {
		t.Errorf("statuses: got %v, want [429 429 200]", statuses)
	}

	srv.FailNext(t, RouteCreateMessage, 1, http.StatusInternalServerError)
	_, err := s.ChannelMessageSend(ch, "into a 500")
	if status, _ := restStatus(err); status != http.StatusInternalServerError {
		t.Errorf("send into a 500: got %v, want a 500 error", err)
	}
	srv.FailNext(t, RouteCreateMessage, 1, http.StatusBadGateway)
	if _, err := s.ChannelMessageSend(ch, "after a 502"); err != nil {
		t.Errorf("send after a 502 (discordgo retries): %v", err)
	}
	if got := len(srv.Messages(ch)); got != 2 {
		t.Errorf("messages: got %d, want 2: failed calls post nothing", got)
	}
	if got := fails(t, func(tb testing.TB) { srv.FailNext(tb, "POST /channels/{chanel}/messages", 1, 500) }); len(got) != 1 {
		t.Errorf("a misspelt route: got failures %q, want one", got)
	}
}

func TestLimitViolationFailsAndAnswers400(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := NewServerWith(rec, Options{})
	ch := srv.NewChannel()
	s := open(t, srv, nil)

	rows := make([]discordgo.MessageComponent, 6)
	for i := range rows {
		rows[i] = discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "b", CustomID: fmt.Sprint(i)}}}
	}
	_, err := s.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "too tall", Components: rows})
	if status, code := restStatus(err); status != http.StatusBadRequest || code != 50035 {
		t.Errorf("six rows: got %v, want 400 with code 50035", err)
	}
	if got := rec.failures(); len(got) != 1 || !strings.Contains(got[0], "at most 5 action rows") {
		t.Errorf("test failures: got %q, want one about the rows", got)
	}
	if got := srv.Messages(ch); len(got) != 0 {
		t.Errorf("messages: got %v, want none", got)
	}
}

func TestCallbackRules(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := NewServerWith(rec, Options{CallbackDeadline: time.Second})
	alice := srv.NewUser("alice")
	ch := srv.NewChannel()
	errs := make(chan error, 2)
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		resp := &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "ok"},
		}
		if ic.ApplicationCommandData().Options[0].Name == "late" {
			time.Sleep(1200 * time.Millisecond)
			errs <- s.InteractionRespond(ic.Interaction, resp)
			return
		}
		s.InteractionRespond(ic.Interaction, resp)
		errs <- s.InteractionRespond(ic.Interaction, resp)
	})

	srv.Slash(t, alice, ch, "ttt twice").Wait(t)
	if _, code := restStatus(<-errs); code != 40060 {
		t.Errorf("second callback: got code %d, want 40060", code)
	}
	srv.Slash(t, alice, ch, "ttt late")
	if _, code := restStatus(<-errs); code != 10062 {
		t.Errorf("late callback: got code %d, want 10062", code)
	}
	if got := rec.failures(); len(got) != 1 || !strings.Contains(got[0], "interaction failed") {
		t.Errorf("test failures: got %q, want one about the deadline", got)
	}
}

func TestCommandsRegistration(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	alice := srv.NewUser("alice")
	s := open(t, srv, nil)
	minSize := 3.0
	cmds := []*discordgo.ApplicationCommand{{
		Name: "ttt", Description: "Tic-tac-toe",
		Options: []*discordgo.ApplicationCommandOption{{
			Type: discordgo.ApplicationCommandOptionSubCommand, Name: "challenge", Description: "Challenge someone",
			Options: []*discordgo.ApplicationCommandOption{
				{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "Who", Required: true},
				{Type: discordgo.ApplicationCommandOptionInteger, Name: "size", Description: "Board size", MinValue: &minSize, MaxValue: 5},
				{Type: discordgo.ApplicationCommandOptionString, Name: "first", Description: "Who starts", Choices: []*discordgo.ApplicationCommandOptionChoice{
					{Name: "me", Value: "me"}, {Name: "them", Value: "them"},
				}},
			},
		}},
	}}
	got, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), srv.GuildID(), cmds)
	if err != nil || len(got) != 1 || got[0].ID == "" || got[0].GuildID != srv.GuildID() {
		t.Fatalf("overwrite: got %+v, %v; want one command with an ID", got, err)
	}
	again, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), srv.GuildID(), cmds)
	if err != nil || again[0].ID != got[0].ID {
		t.Errorf("second overwrite: got %+v, %v; want ID %s kept", again, err, got[0].ID)
	}
	if _, err := s.ApplicationCommandBulkOverwrite(srv.ApplicationID(), "999", cmds); err == nil {
		t.Errorf("overwrite in a guild the bot is not in: got no error")
	}
	if got := srv.Commands(srv.GuildID()); len(got) != 1 || got[0].Name != "ttt" {
		t.Errorf("registered: got %v, want /ttt", got)
	}

	ch := srv.NewChannel()
	for _, tc := range []struct {
		name    string
		command string
		opts    []Option
		want    string
	}{
		{"unknown command", "chess challenge", nil, "no command"},
		{"unknown subcommand", "ttt rematch", nil, "no subcommand"},
		{"no subcommand", "ttt", nil, "subcommand is needed"},
		{"missing required", "ttt challenge", nil, "required option"},
		{"wrong type", "ttt challenge", []Option{StringOption("opponent", "x")}, "is a User"},
		{"out of range", "ttt challenge", []Option{UserOption("opponent", alice), IntOption("size", 7)}, "out of its range"},
		{"not a choice", "ttt challenge", []Option{UserOption("opponent", alice), StringOption("first", "random")}, "none of its choices"},
	} {
		got := fails(t, func(tb testing.TB) { srv.Slash(tb, alice, ch, tc.command, tc.opts...) })
		if len(got) != 1 || !strings.Contains(got[0], tc.want) {
			t.Errorf("%s: got failures %q, want one saying %q", tc.name, got, tc.want)
		}
	}
}

func TestResume(t *testing.T) {
	t.Parallel()
	srv := NewServer(t)
	alice := srv.NewUser("alice")
	ch := srv.NewChannel()
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "still here"},
		})
	})
	srv.WaitReady(t)
	// discordgo sends its first heartbeat as it connects; a heartbeat whose
	// write fails on the dropped connection closes the session (1000) and
	// reconnects beside the reader's reconnect, and the session would not
	// resume. Drop the connection once the heartbeat is through.
	srv.waitTB(t, func() string { return "the first heartbeat" }, func() bool { return srv.heartbeats >= 1 })
	srv.Disconnect()
	// The interaction waits for discordgo to reconnect and resume.
	if m := srv.Slash(t, alice, ch, "ttt ping").Result(t); m.Content != "still here" {
		t.Errorf("after a reconnect: got %v", m)
	}
	if got := len(srv.Identifies()); got != 1 {
		t.Errorf("identifies: got %d, want 1: the session resumed", got)
	}
}

func TestWaitTimesOut(t *testing.T) {
	t.Parallel()
	srv := NewServerWith(t, Options{Timeout: 50 * time.Millisecond})
	got := fails(t, func(tb testing.TB) { srv.WaitCall(tb, RouteCallback) })
	if len(got) != 1 || !strings.Contains(got[0], context.DeadlineExceeded.Error()) {
		t.Errorf("failures: got %q, want a timeout", got)
	}
}

// TestGuildEmojis: the bot lists its guild's emojis, and a button may
// carry one of them, but not an emoji of a guild the bot is not in.
func TestGuildEmojis(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := NewServerWith(rec, Options{})
	ch := srv.NewChannel()
	s := open(t, srv, nil)
	party := srv.NewEmoji(srv.GuildID(), "party", true, "77")
	foreign := srv.NewEmoji("9999", "elsewhere", false)

	got, err := s.GuildEmojis(srv.GuildID())
	if err != nil || len(got) != 1 || got[0].ID != party.ID || !got[0].Animated || !got[0].Available || len(got[0].Roles) != 1 {
		t.Errorf("the guild's emojis: got %+v, %v; want party, animated, available, for role 77", got, err)
	}
	if _, err := s.GuildEmojis("9999"); err == nil {
		t.Error("another guild's emojis: got no error")
	}
	button := func(e Emoji) discordgo.MessageComponent {
		return discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{
			Emoji: &discordgo.ComponentEmoji{ID: e.ID, Name: e.Name}, CustomID: "b"}}}
	}
	if _, err := s.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "ok", Components: []discordgo.MessageComponent{button(party)}}); err != nil {
		t.Errorf("a button with the guild's emoji: %v", err)
	}
	_, err = s.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "no", Components: []discordgo.MessageComponent{button(foreign)}})
	if status, _ := restStatus(err); status != http.StatusBadRequest {
		t.Errorf("a button with another guild's emoji: got %v, want 400", err)
	}
	if f := rec.failures(); len(f) != 1 || !strings.Contains(f[0], "Invalid emoji") {
		t.Errorf("test failures: got %q, want one about the emoji", f)
	}
}

// Discord refuses a deferral of the wrong kind, and an edit of @original
// before the interaction is answered.
func TestDeferralRules(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	srv := NewServerWith(rec, Options{})
	alice := srv.NewUser("alice")
	ch := srv.NewChannel()
	errs := make(chan error, 3)
	open(t, srv, func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		content := "early"
		_, err := s.InteractionResponseEdit(ic.Interaction, &discordgo.WebhookEdit{Content: &content})
		errs <- err
		errs <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate})
		errs <- s.InteractionRespond(ic.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
	})

	in := srv.Slash(t, alice, ch, "ttt slow")
	if status, code := restStatus(<-errs); status != http.StatusNotFound || code != 10015 {
		t.Errorf("edit of @original before the callback: got %d, code %d; want 404, 10015", status, code)
	}
	if status, _ := restStatus(<-errs); status != http.StatusBadRequest {
		t.Errorf("type 6 for a command: got %d, want 400", status)
	}
	if err := <-errs; err != nil {
		t.Errorf("type 5 after the refused 6: %v", err)
	}
	if r := in.Wait(t); r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		t.Errorf("callback: got type %d, want 5", r.Type)
	}
	if got := rec.failures(); len(got) != 1 || !strings.Contains(got[0], "does not answer") {
		t.Errorf("test failures: got %q, want one about the type 6", got)
	}
}
