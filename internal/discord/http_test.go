package discord_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot/internal/discord"
	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/interaction"
)

var (
	testKey = ed25519.NewKeyFromSeed([]byte("tttbot-http-test-seed-0123456789"))
	testNow = time.Unix(1_700_000_000, 0)
)

// fakeHandler answers every interaction with reply and records what it saw.
type fakeHandler struct {
	reply interaction.Reply

	mu      sync.Mutex
	handled []*discordgo.Interaction
	tracked map[int64]string
}

func (f *fakeHandler) Handle(_ context.Context, i *discordgo.Interaction) interaction.Reply {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handled = append(f.handled, i)
	return f.reply
}

func (f *fakeHandler) TrackMessage(_ context.Context, gameID int64, messageID string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tracked == nil {
		f.tracked = map[int64]string{}
	}
	f.tracked[gameID] = messageID
}

func (f *fakeHandler) Private(*discordgo.Interaction) bool { return false }

func (f *fakeHandler) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.handled)
}

// fakeREST stands in for Discord's webhook endpoints: it answers GET
// @original with a message (after notFound 404s) and records follow-ups,
// each signalled on followed if it is set.
type fakeREST struct {
	mu        sync.Mutex
	notFound  int
	gets      int
	followups []string
	followed  chan struct{}
	edits     []string // "path body"
}

func (f *fakeREST) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/messages/@original"):
		f.gets++
		if f.notFound > 0 {
			f.notFound--
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"message":"Unknown Message","code":10008}`)
			return
		}
		io.WriteString(w, `{"id":"900","channel_id":"20"}`)
	case r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/webhooks/"):
		b, _ := io.ReadAll(r.Body)
		f.followups = append(f.followups, string(b))
		w.WriteHeader(http.StatusNoContent)
		if f.followed != nil {
			f.followed <- struct{}{}
		}
	case r.Method == http.MethodPatch && strings.Contains(r.URL.Path, "/channels/"):
		b, _ := io.ReadAll(r.Body)
		f.edits = append(f.edits, r.URL.Path+" "+string(b))
		io.WriteString(w, `{"id":"800","channel_id":"20"}`)
	default:
		http.NotFound(w, r)
	}
}

// rewrite sends every request to the test server.
type rewrite struct{ u *url.URL }

func (rw rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = rw.u.Scheme, rw.u.Host
	return http.DefaultTransport.RoundTrip(r)
}

// newREST returns a session whose every request h answers.
func newREST(t *testing.T, h http.Handler) *discordgo.Session {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	s, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	s.Client = &http.Client{Transport: rewrite{u}}
	return s
}

func newHandler(t testing.TB, h discord.Handler, rest *discordgo.Session) *discord.HTTPHandler {
	t.Helper()
	hh := discord.NewHTTPHandler(testKey.Public().(ed25519.PublicKey), discord.HTTPOptions{
		Now: func() time.Time { return testNow }, MaxBody: 4096,
	})
	t.Cleanup(func() { hh.Close(context.Background()) })
	hh.Serve(h, rest)
	return hh
}

// signed returns a POST of body signed at ts with key.
func signed(key ed25519.PrivateKey, ts time.Time, body string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(body))
	stamp := strconv.FormatInt(ts.Unix(), 10)
	r.Header.Set("X-Signature-Timestamp", stamp)
	r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, []byte(stamp+body))))
	return r
}

const (
	ping    = `{"id":"1","application_id":"5","type":1,"token":"tok","version":1}`
	command = `{"id":"2","application_id":"5","type":2,"token":"secret-interaction-token","guild_id":"10","channel_id":"20",` +
		`"member":{"user":{"id":"30","username":"ann"}},"data":{"id":"3","name":"ttt","type":1,"options":[{"name":"help","type":1}]}}`
	// challenge names a user and numbers, which Discord resolves.
	challenge = `{"id":"6","application_id":"5","type":2,"token":"tok","version":1,"guild_id":"10","channel_id":"20",` +
		`"member":{"user":{"id":"30","username":"ann","global_name":"Ann"},"roles":[],"joined_at":"2024-01-02T03:04:05.000000+00:00",` +
		`"permissions":"2248473465835073","premium_since":null,"nick":"Annie"},"locale":"fr","entitlements":[],` +
		`"data":{"id":"3","name":"ttt","type":1,"options":[{"name":"challenge","type":1,"options":[` +
		`{"name":"opponent","type":6,"value":"40"},{"name":"size","type":4,"value":5},{"name":"first","type":3,"value":"them"}]}],` +
		`"resolved":{"users":{"40":{"id":"40","username":"bob","global_name":"Bob \u00e9","avatar":"abc","bot":false}},` +
		`"members":{"40":{"roles":["11","12"],"joined_at":"2023-05-06T07:08:09.123000+00:00","permissions":"8","communication_disabled_until":null}}}}}`
	// click is a click on a board message, with the fields Discord sends.
	click = `{"id":"4","application_id":"5","type":3,"token":"tok","version":1,"guild_id":"10","channel_id":"20",` +
		`"channel":{"id":"20","type":0,"guild_id":"10"},"app_permissions":"2248473465835073","locale":"en-US","guild_locale":"en-US",` +
		`"entitlements":[],"authorizing_integration_owners":{"0":"10"},"context":0,` +
		`"member":{"user":{"id":"30","username":"ann","global_name":"Ann","discriminator":"0","avatar":null},` +
		`"roles":["11"],"joined_at":"2024-01-02T03:04:05.000000+00:00","permissions":"2248473465835073","nick":null,"deaf":false,"mute":false},` +
		`"data":{"custom_id":"ttt:m:1:2:4","component_type":2},` +
		`"message":{"id":"900","channel_id":"20","type":20,"content":"<@30> (X) vs <@5> (O)","tts":false,"pinned":false,"flags":0,` +
		`"author":{"id":"5","username":"tttbot","discriminator":"0","avatar":null,"bot":true},"mentions":[],"mention_roles":[],` +
		`"attachments":[],"embeds":[{"title":"Tic-tac-toe","description":"Ann to move","color":5793266}],` +
		`"timestamp":"2025-01-02T03:04:05.000000+00:00","edited_timestamp":null,"application_id":"5",` +
		`"interaction_metadata":{"id":"3","type":2,"user":{"id":"30","username":"ann"}},"components":[` +
		`{"type":1,"id":1,"components":[{"type":2,"id":2,"style":2,"label":"X","custom_id":"ttt:m:1:2:0","disabled":true},` +
		`{"type":2,"id":3,"style":2,"label":"\u200b","custom_id":"ttt:m:1:2:1"},{"type":2,"id":4,"style":2,"label":"\u200b","custom_id":"ttt:m:1:2:2"}]},` +
		`{"type":1,"id":5,"components":[{"type":2,"id":6,"style":2,"label":"\u200b","custom_id":"ttt:m:1:2:3"},` +
		`{"type":2,"id":7,"style":2,"label":"\u200b","custom_id":"ttt:m:1:2:4"},{"type":2,"id":8,"style":2,"label":"O","custom_id":"ttt:m:1:2:5","disabled":true}]},` +
		`{"type":1,"id":9,"components":[{"type":2,"id":10,"style":2,"label":"\u200b","custom_id":"ttt:m:1:2:6"},` +
		`{"type":2,"id":11,"style":2,"label":"\u200b","custom_id":"ttt:m:1:2:7"},{"type":2,"id":12,"style":2,"label":"\u200b","custom_id":"ttt:m:1:2:8"}]},` +
		`{"type":1,"id":13,"components":[{"type":2,"id":14,"style":5,"label":"Rules","url":"https://example.com/rules","emoji":{"name":"📖"}}]}]}}`
)

// The endpoint decodes an interaction in one pass of its own, and its
// handler must see exactly what discordgo's decoder would give it.
func TestHTTPHandlerDecodes(t *testing.T) {
	for name, body := range map[string]string{"ping": ping, "command": command, "challenge": challenge, "click": click} {
		t.Run(name, func(t *testing.T) {
			var want discordgo.Interaction
			if err := json.Unmarshal([]byte(body), &want); err != nil {
				t.Fatal(err)
			}
			if name == "click" && len(want.Message.Components) != 4 {
				t.Fatalf("discordgo decoded %d rows, want 4", len(want.Message.Components))
			}
			f := &fakeHandler{reply: interaction.Reply{Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong}}}
			w := httptest.NewRecorder()
			newHandler(t, f, nil).ServeHTTP(w, signed(testKey, testNow, body))
			if w.Code != http.StatusOK {
				t.Fatalf("got status %d, want 200", w.Code)
			}
			if want.Type == discordgo.InteractionPing {
				if f.count() != 0 {
					t.Errorf("got %d pings handled, want 0: the endpoint answers them", f.count())
				}
				return
			}
			if f.count() != 1 {
				t.Fatalf("got %d interactions handled, want 1", f.count())
			}
			if diff := cmp.Diff(&want, f.handled[0]); diff != "" {
				t.Errorf("decoded interaction differs from discordgo's (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTTPHandlerRefuses(t *testing.T) {
	otherKey := ed25519.NewKeyFromSeed([]byte("someone-else-entirely-0123456789"))
	tests := []struct {
		name string
		req  func() *http.Request
		want int
	}{
		{"get", func() *http.Request { return httptest.NewRequest(http.MethodGet, "/interactions", nil) }, http.StatusMethodNotAllowed},
		{"put signed", func() *http.Request {
			r := signed(testKey, testNow, ping)
			r.Method = http.MethodPut
			return r
		}, http.StatusMethodNotAllowed},
		{"no headers", func() *http.Request {
			return httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(command))
		}, http.StatusUnauthorized},
		{"no timestamp", func() *http.Request {
			r := signed(testKey, testNow, command)
			r.Header.Del("X-Signature-Timestamp")
			return r
		}, http.StatusUnauthorized},
		{"no signature", func() *http.Request {
			r := signed(testKey, testNow, command)
			r.Header.Del("X-Signature-Ed25519")
			return r
		}, http.StatusUnauthorized},
		{"signature not hex", func() *http.Request {
			r := signed(testKey, testNow, command)
			r.Header.Set("X-Signature-Ed25519", "zz")
			return r
		}, http.StatusUnauthorized},
		{"other key", func() *http.Request { return signed(otherKey, testNow, command) }, http.StatusUnauthorized},
		{"body changed", func() *http.Request {
			r := signed(testKey, testNow, command)
			r.Body = io.NopCloser(strings.NewReader(strings.Replace(command, `"30"`, `"31"`, 1)))
			return r
		}, http.StatusUnauthorized},
		{"timestamp changed", func() *http.Request {
			r := signed(testKey, testNow, command)
			r.Header.Set("X-Signature-Timestamp", strconv.FormatInt(testNow.Unix()+1, 10))
			return r
		}, http.StatusUnauthorized},
		{"stale", func() *http.Request { return signed(testKey, testNow.Add(-5*time.Minute-time.Second), command) }, http.StatusUnauthorized},
		{"future", func() *http.Request { return signed(testKey, testNow.Add(5*time.Minute+time.Second), command) }, http.StatusUnauthorized},
		{"too large", func() *http.Request {
			return signed(testKey, testNow, `{"type":2,"id":"`+strings.Repeat("9", 5000)+`"}`)
		}, http.StatusRequestEntityTooLarge},
		{"signed garbage", func() *http.Request { return signed(testKey, testNow, `{"type":`) }, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeHandler{reply: interaction.Reply{Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource}}}
			w := httptest.NewRecorder()
			newHandler(t, f, nil).ServeHTTP(w, tt.req())
			if w.Code != tt.want {
				t.Errorf("got status %d, want %d", w.Code, tt.want)
			}
			if n := f.count(); n != 0 {
				t.Errorf("got %d interactions handled, want 0", n)
			}
			// A starting bot checks as much before it says so.
			w = httptest.NewRecorder()
			discord.NewHTTPHandler(testKey.Public().(ed25519.PublicKey), discord.HTTPOptions{
				Now: func() time.Time { return testNow }, MaxBody: 4096,
			}).ServeHTTP(w, tt.req())
			if w.Code != tt.want {
				t.Errorf("while starting: got status %d, want %d", w.Code, tt.want)
			}
		})
	}
}

// Before Serve, the endpoint answers a ping, and a signed interaction 503,
// "starting".
func TestHTTPHandlerStarting(t *testing.T) {
	h := discord.NewHTTPHandler(testKey.Public().(ed25519.PublicKey), discord.HTTPOptions{Now: func() time.Time { return testNow }})
	tests := []struct {
		body     string
		wantCode int
		wantBody string
	}{
		{ping, http.StatusOK, `{"type":1}`},
		{command, http.StatusServiceUnavailable, "starting"},
		{click, http.StatusServiceUnavailable, "starting"},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, signed(testKey, testNow, tt.body))
		if got := strings.TrimSpace(w.Body.String()); w.Code != tt.wantCode || got != tt.wantBody {
			t.Errorf("got %d %q, want %d %q", w.Code, got, tt.wantCode, tt.wantBody)
		}
	}
	if err := h.Close(t.Context()); err != nil {
		t.Errorf("close: %v", err)
	}
}

func TestHTTPHandlerPing(t *testing.T) {
	for _, at := range []time.Time{testNow, testNow.Add(-5 * time.Minute), testNow.Add(5 * time.Minute)} {
		f := &fakeHandler{}
		w := httptest.NewRecorder()
		newHandler(t, f, nil).ServeHTTP(w, signed(testKey, at, ping))
		if w.Code != http.StatusOK {
			t.Fatalf("got status %d, want 200", w.Code)
		}
		if got, want := strings.TrimSpace(w.Body.String()), `{"type":1}`; got != want {
			t.Errorf("got body %s, want %s", got, want)
		}
		if got := w.Header().Get("Content-Type"); got != "application/json" {
			t.Errorf("got Content-Type %q, want application/json", got)
		}
		if n := f.count(); n != 0 {
			t.Errorf("got %d interactions handled, want 0: a PING is answered by the endpoint", n)
		}
	}
}

func TestHTTPHandlerCommand(t *testing.T) {
	rest := &fakeREST{notFound: 2, followed: make(chan struct{}, 1)}
	f := &fakeHandler{reply: interaction.Reply{
		Response: &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "board"},
		},
		TrackGame: 7, FetchBoard: true,
		Followup: &discordgo.InteractionResponseData{Content: "rematch?"},
		Edit:     &interaction.Edit{GameID: 6, ChannelID: "20", MessageID: "800", Data: &discordgo.InteractionResponseData{Content: "resigned"}},
	}}
	h := newHandler(t, f, newREST(t, rest))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, signed(testKey, testNow, command))
	if w.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", w.Code)
	}
	var got discordgo.InteractionResponse
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Type != discordgo.InteractionResponseChannelMessageWithSource || got.Data == nil || got.Data.Content != "board" {
		t.Errorf("got response %+v, want type 4 with the board", got)
	}
	if f.count() != 1 || f.handled[0].ID != "2" || f.handled[0].ApplicationCommandData().Name != "ttt" {
		t.Fatalf("got %d interactions handled, want the command", f.count())
	}

	// The follow-up comes last, after the fetches retried: Close would
	// stop the retries.
	<-rest.followed
	if err := h.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.tracked[7]; got != "900" {
		t.Errorf("got game 7 tracked at message %q, want 900", got)
	}
	if rest.gets != 3 {
		t.Errorf("got %d GETs of @original, want 3 (two 404s, then the message)", rest.gets)
	}
	if len(rest.followups) != 1 || !strings.Contains(rest.followups[0], "rematch?") {
		t.Errorf("got follow-ups %q, want the rematch", rest.followups)
	}
	if len(rest.edits) != 1 || !strings.HasPrefix(rest.edits[0], "/api/v9/channels/20/messages/800 ") || !strings.Contains(rest.edits[0], "resigned") {
		t.Errorf("got edits %q, want message 800 resigned", rest.edits)
	}

	// Closed: nothing more is handled.
	w = httptest.NewRecorder()
	h.ServeHTTP(w, signed(testKey, testNow, command))
	if w.Code != http.StatusServiceUnavailable || f.count() != 1 {
		t.Errorf("after Close: got status %d and %d handled, want 503 and 1", w.Code, f.count())
	}
}

// A refusal can still bring a board up to date: a stale click's board is
// edited after the answer.
func TestHTTPHandlerEditsAfterRefusal(t *testing.T) {
	rest := &fakeREST{}
	f := &fakeHandler{reply: interaction.Reply{
		Response: &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "out of date", Flags: discordgo.MessageFlagsEphemeral},
		},
		Code: "stale",
		Edit: &interaction.Edit{GameID: 1, ChannelID: "20", MessageID: "800", Data: &discordgo.InteractionResponseData{Content: "current"}},
	}}
	h := newHandler(t, f, newREST(t, rest))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, signed(testKey, testNow, click))
	if w.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", w.Code)
	}
	if err := h.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(rest.edits) != 1 || !strings.Contains(rest.edits[0], "current") || rest.gets != 0 {
		t.Errorf("got edits %q and %d GETs, want the board edited and nothing fetched", rest.edits, rest.gets)
	}
}

// The endpoint encodes a response without discordgo's MarshalJSON methods;
// Discord must get the same JSON from it.
func TestHTTPHandlerEncodes(t *testing.T) {
	row := func(cs ...discordgo.MessageComponent) discordgo.MessageComponent {
		return &discordgo.ActionsRow{Components: cs}
	}
	tests := map[string]*discordgo.InteractionResponse{
		"pong": {Type: discordgo.InteractionResponsePong},
		"ephemeral": {Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{
			Content: "That cell is already taken.", Flags: discordgo.MessageFlagsEphemeral,
		}},
		"board": {Type: discordgo.InteractionResponseUpdateMessage, Data: &discordgo.InteractionResponseData{
			Content: "<@1> (X) vs <@2> (O) & friends",
			Components: []discordgo.MessageComponent{
				row(&discordgo.Button{Label: "X", Style: discordgo.SuccessButton, Disabled: true, CustomID: "ttt:m:1:2:0"},
					discordgo.Button{Label: "\u200b", CustomID: "ttt:m:1:2:1"}),
				discordgo.ActionsRow{ID: 7, Components: []discordgo.MessageComponent{
					&discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.com", Emoji: &discordgo.ComponentEmoji{Name: "📖"}},
				}},
				row(&discordgo.SelectMenu{CustomID: "pick", Options: []discordgo.SelectMenuOption{{Label: "a", Value: "a"}}}),
			},
			Embeds:          []*discordgo.MessageEmbed{{Title: "Review", Color: 5793266}},
			AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}},
		}},
	}
	for name, resp := range tests {
		t.Run(name, func(t *testing.T) {
			wantJSON, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			w := httptest.NewRecorder()
			newHandler(t, discordHandlerFunc(interaction.Reply{Response: resp}), nil).ServeHTTP(w, signed(testKey, testNow, command))
			if w.Code != http.StatusOK {
				t.Fatalf("got status %d, want 200", w.Code)
			}
			var got, want any
			if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
				t.Fatalf("decode %s: %v", w.Body.Bytes(), err)
			}
			if err := json.Unmarshal(wantJSON, &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("response differs from discordgo's encoding (-want +got):\n%s", diff)
			}
			if got, want := w.Header().Get("Content-Length"), strconv.Itoa(w.Body.Len()); got != want {
				t.Errorf("got Content-Length %q, want %q", got, want)
			}
		})
	}
}

// A new board that its token reaches until its first click is not
// fetched: no REST call follows the answer.
func TestHTTPHandlerBoardNotFetched(t *testing.T) {
	rest := &fakeREST{}
	f := &fakeHandler{reply: interaction.Reply{
		Response: &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "board"},
		},
		TrackGame: 7,
	}}
	h := newHandler(t, f, newREST(t, rest))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, signed(testKey, testNow, command))
	if err := h.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w.Code != http.StatusOK {
		t.Fatalf("got status %d, want 200", w.Code)
	}
	rest.mu.Lock()
	defer rest.mu.Unlock()
	if rest.gets != 0 || len(f.tracked) != 0 {
		t.Errorf("got %d GETs of @original and %v tracked, want none", rest.gets, f.tracked)
	}
}

// A REST failure after the response is logged without the interaction's
// token, which the webhook URL in a transport error carries.
func TestHTTPHandlerLogsNoToken(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	u, _ := url.Parse(srv.URL)
	srv.Close() // every REST call now fails to connect
	rest, err := discordgo.New("Bot test-token")
	if err != nil {
		t.Fatal(err)
	}
	rest.Client = &http.Client{Transport: rewrite{u}}
	var logs bytes.Buffer
	f := &fakeHandler{reply: interaction.Reply{
		Response:  &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource},
		TrackGame: 7, FetchBoard: true,
		Followup: &discordgo.InteractionResponseData{Content: "rematch?"},
	}}
	h := discord.NewHTTPHandler(testKey.Public().(ed25519.PublicKey), discord.HTTPOptions{
		Now: func() time.Time { return testNow }, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	h.Serve(f, rest)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, signed(testKey, testNow, command))
	if err := h.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w.Code != http.StatusOK {
		t.Errorf("got status %d, want 200", w.Code)
	}
	got := logs.String()
	for _, want := range []string{"fetch board message", "follow-up message", "[token]", "interaction=2"} {
		if !strings.Contains(got, want) {
			t.Errorf("logs lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "secret-interaction-token") {
		t.Errorf("logs leak the interaction token:\n%s", got)
	}
	if len(f.tracked) != 0 {
		t.Errorf("got %v tracked, want none", f.tracked)
	}
}

func TestHTTPHandlerNoResponse(t *testing.T) {
	w := httptest.NewRecorder()
	newHandler(t, &fakeHandler{}, nil).ServeHTTP(w, signed(testKey, testNow, command))
	if w.Code != http.StatusInternalServerError {
		t.Errorf("got status %d, want 500", w.Code)
	}
}

func TestSelf(t *testing.T) {
	srv := discordtest.NewServerWith(t, discordtest.Options{BotID: "1001", ApplicationID: "1002", BotName: "ttt"})
	s, err := discord.NewSession(srv.Token(), srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	u, appID, err := discord.Self(t.Context(), s)
	if err != nil {
		t.Fatal(err)
	}
	if u.ID != "1001" || u.Username != "ttt" || appID != "1002" {
		t.Errorf("got user %s (%s) of application %s, want ttt (1001) of 1002", u.ID, u.Username, appID)
	}
	srv.FailNext(t, discordtest.RouteApplication, 1, http.StatusInternalServerError)
	if _, _, err := discord.Self(t.Context(), s); err == nil || !strings.Contains(err.Error(), "get application") {
		t.Errorf("got %v, want an error getting the application", err)
	}
}

func TestParsePublicKey(t *testing.T) {
	good := hex.EncodeToString(testKey.Public().(ed25519.PublicKey))
	tests := []struct {
		in      string
		wantErr string
	}{
		{good, ""},
		{" " + strings.ToUpper(good) + "\n", ""},
		{"", "missing"},
		{good[:62], "want 64 hex characters"},
		{good + "00", "want 64 hex characters"},
		{"g" + good[1:], "want 64 hex characters"},
	}
	for _, tt := range tests {
		k, err := discord.ParsePublicKey(tt.in)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("ParsePublicKey(%q): got error %v, want nil", tt.in, err)
		case tt.wantErr == "" && !k.Equal(testKey.Public()):
			t.Errorf("ParsePublicKey(%q): got key %x, want %x", tt.in, k, testKey.Public())
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("ParsePublicKey(%q): got error %v, want one containing %q", tt.in, err, tt.wantErr)
		}
	}
}

// FuzzHTTPHandler throws arbitrary bodies and timestamps at the endpoint,
// signed or not: it must never panic, and must answer only with the
// statuses it documents.
func FuzzHTTPHandler(f *testing.F) {
	f.Add([]byte(ping), "1700000000", true)
	f.Add([]byte(command), "1700000000", true)
	f.Add([]byte(command), "1700000000", false)
	f.Add([]byte(`{"type":3,"data":{"custom_id":"x","component_type":2}}`), "1700000000", true)
	f.Add([]byte(`{"type":5,"data":null}`), "1700000100", true)
	f.Add([]byte(`{"type":2,"data":[]}`), "1700000000", true)
	f.Add([]byte(`null`), "-1", true)
	f.Add([]byte{}, "", true)
	f.Add([]byte(`{"type":1}`), "99999999999999999999", true)
	fh := &fakeHandler{reply: interaction.Reply{Response: &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource}}}
	h := newHandler(f, fh, nil)
	f.Fuzz(func(t *testing.T, body []byte, ts string, sign bool) {
		r := httptest.NewRequest(http.MethodPost, "/interactions", strings.NewReader(string(body)))
		r.Header.Set("X-Signature-Timestamp", ts)
		if sign {
			r.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(testKey, append([]byte(ts), body...))))
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusUnauthorized, http.StatusRequestEntityTooLarge:
		default:
			t.Errorf("got status %d", w.Code)
		}
		if !sign && w.Code != http.StatusUnauthorized && w.Code != http.StatusRequestEntityTooLarge {
			t.Errorf("unsigned request: got status %d, want 401", w.Code)
		}
	})
}

// BenchmarkHTTPHandler measures the endpoint's own cost per interaction —
// reading, verifying the signature, decoding, encoding the answer — for a
// click on a board answered with a board, by a handler that does nothing.
func BenchmarkHTTPHandler(b *testing.B) {
	var board []discordgo.MessageComponent
	for r := range 3 {
		row := &discordgo.ActionsRow{}
		for c := range 3 {
			row.Components = append(row.Components, &discordgo.Button{
				Label: "\u200b", Style: discordgo.SecondaryButton, CustomID: fmt.Sprintf("ttt:m:1:3:%d", 3*r+c)})
		}
		board = append(board, row)
	}
	h := newHandler(b, discordHandlerFunc(interaction.Reply{Response: &discordgo.InteractionResponse{
		Type: discordgo.InteractionResponseUpdateMessage,
		Data: &discordgo.InteractionResponseData{Content: "<@30> (X) vs <@5> (O)", Components: board},
	}}), nil)
	body := click
	proto := signed(testKey, testNow, body)
	b.ReportAllocs()
	for b.Loop() {
		r := proto.Clone(context.Background())
		r.Body = io.NopCloser(strings.NewReader(body))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			b.Fatalf("got status %d", w.Code)
		}
	}
}

// discordHandlerFunc answers every interaction with one reply, recording
// nothing, so a benchmark does not grow a slice.
type discordHandlerFunc interaction.Reply

func (r discordHandlerFunc) Handle(context.Context, *discordgo.Interaction) interaction.Reply {
	return interaction.Reply(r)
}

func (discordHandlerFunc) TrackMessage(context.Context, int64, string) {}

func (discordHandlerFunc) Private(*discordgo.Interaction) bool { return false }

// TestReadSigned checks that the signed message is the timestamp and the
// whole body, whatever the length the request announced.
func TestReadSigned(t *testing.T) {
	body := strings.Repeat("0123456789", 300)
	tests := []struct {
		name   string
		length int64
	}{
		{"length given", int64(len(body))},
		{"no length", -1},
		{"length too short", 10},
		{"length too long", int64(len(body)) + 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := discord.ReadSigned("1700000000", tt.length, iotest.OneByteReader(strings.NewReader(body)))
			if err != nil {
				t.Fatal(err)
			}
			if want := "1700000000" + body; string(got) != want {
				t.Errorf("got %d bytes, want %d: the timestamp and the body", len(got), len(want))
			}
		})
	}
}
