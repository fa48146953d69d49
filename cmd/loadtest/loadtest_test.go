package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/commands"
	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/migratedata"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// buildDir holds the bot that raceBot builds, for the package's tests.
var buildDir string

func TestMain(m *testing.M) {
	if servedEmptyHandler() {
		os.Exit(0)
	}
	pgtest.Announce()
	var err error
	if buildDir, err = os.MkdirTemp("", "tttbot-loadtest-test-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(buildDir)
	os.Exit(code)
}

// builtBot is the bot raceBot builds, once for all the tests that run it.
var builtBot = sync.OnceValues(func() (string, error) {
	var stderr bytes.Buffer
	bin, err := buildBot(context.Background(), buildDir, &stderr, "-race")
	if err != nil {
		return "", fmt.Errorf("%w\n%s", err, stderr.Bytes())
	}
	return bin, nil
})

// raceBot returns the bot built under the race detector, as the tests run.
func raceBot(t *testing.T) string {
	t.Helper()
	bin, err := builtBot()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// TestLoadtestKill runs a short load test with a kill -9 halfway: every
// answer must be as expected, and the database must pass the check after
// the restart. (The throughput target is shown by running the command, not
// by a timed test.)
func TestLoadtestKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot twice")
	}
	bot := raceBot(t)
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), &stdout, &stderr, []string{"-bot", bot, "-duration", "3s", "-warmup", "500ms", "-rate", "300", "-concurrency", "8", "-players", "40",
		"-channels", "4", "-bad", "0.2", "-seed", "1", "-kill"})
	out := stdout.String()
	if err != nil {
		t.Fatalf("loadtest: %v\n%s\nbot and driver logs:\n%s", err, out, stderr.Bytes())
	}
	t.Log("\n" + out)
	for _, want := range []string{"warm-up (500ms, not counted below)", "on 3×3", "on 4×4, 5×5", "kill -9 halfway: bot back in", "database check: ok"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	m := regexp.MustCompile(`moves acknowledged: (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("report lacks the acknowledged moves:\n%s", out)
	}
	if n, _ := strconv.Atoi(m[1]); n < 100 {
		t.Errorf("got %d acknowledged moves, want at least 100:\n%s", n, out)
	}
	for _, kind := range []string{"move", "bot-move", "accept", "bad-signature", "stale", "stranger", "out-of-turn", "conflict"} {
		if !regexp.MustCompile(`(?m)^\s+` + kind + `\s+[1-9]`).MatchString(out) {
			t.Errorf("no %s request answered:\n%s", kind, out)
		}
	}
}

// On PostgreSQL, a database that a SQLite load test made is copied over
// and takes the load of two bots, the first killed halfway, with tables
// walking away from their games, half of them in a server that has not
// installed the bot: every answer must be as expected, the check must
// pass, and every deadline must have fired once.
func TestLoadtestPostgres(t *testing.T) {
	url := pgtest.URL(t)
	if testing.Short() {
		t.Skip("starts the bot four times")
	}
	bot := raceBot(t)
	file := filepath.Join(t.TempDir(), "load.db")
	common := []string{"-bot", bot, "-warmup", "500ms", "-rate", "300", "-concurrency", "8", "-players", "400", "-channels", "4", "-seed", "1"}
	var stdout, stderr bytes.Buffer
	// Tables walk away on SQLite too, so that the run ends once every
	// deadline has fired: the copy holds no open game of the players that
	// play on.
	if err := run(t.Context(), &stdout, &stderr, append(common, "-db", file, "-duration", "1s", "-abandon", "0.2", "-turn-timeout", "2s")); err != nil {
		t.Fatalf("loadtest on SQLite: %v\n%s\n%s", err, stdout.Bytes(), stderr.Bytes())
	}
	copied, err := migratedata.Copy(t.Context(), file, url, migratedata.Options{})
	if err != nil {
		t.Fatalf("copy the load test's database: %v", err)
	}
	t.Logf("copied %v", copied.Counts)

	stdout.Reset()
	stderr.Reset()
	err = run(t.Context(), &stdout, &stderr, append(common, "-database-url", url, "-instances", "2", "-kill",
		"-abandon", "0.2", "-turn-timeout", "2s", "-duration", "4s", "-channels", "32", "-guests", "0.5"))
	out := stdout.String()
	if err != nil {
		t.Fatalf("loadtest on PostgreSQL: %v\n%s\nbots' and driver's logs:\n%s", err, out, stderr.Bytes())
	}
	t.Log("\n" + out)
	for _, re := range []string{
		`PostgreSQL shared by 2 bots, guests 0\.50, abandon 0\.20 with 2s timeouts`,
		`answers by bot, warm-up included: 1: [1-9]\d*, 2: [1-9]\d*`,
		`bots' peak RSS: 1: [\d.]+ MB, 2: [\d.]+ MB`,
		`kill -9 halfway: bot 1 of 2 back in`,
		`walked away [1-9]`,
		`deadlines: [1-9]\d* fired, each once`,
		`database check: ok`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("report does not match %s:\n%s", re, out)
		}
	}
}

func TestLoadtestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-duration", "0s"},
		{"-warmup", "-1s"},
		{"-concurrency", "10", "-players", "20"},
		{"-bad", "2"},
		{"-guests", "1.5"},
		{"-abandon", "-0.5"},
		{"-instances", "0"},
		{"-instances", "2"},
		{"-db", "x.db", "-database-url", "postgres://localhost/x"},
		{"-postgres", "-db", "x.db"},
		{"-soak", "-1s"},
		{"-soak", "1m", "-fault-every", "0s"},
		{"-soak", "1m", "-stall", "0s"},
		{"-soak", "1m", "-kill"},
		{"-soak", "1m", "-database-url", "postgres://localhost/x"},
		{"extra"},
	} {
		var stderr bytes.Buffer
		err := run(t.Context(), &stderr, &stderr, args)
		if err == nil {
			t.Errorf("loadtest %q: got no error", args)
		}
	}
	// A stray argument is named even before flags, which the flag package
	// alone took for more arguments.
	if err := run(t.Context(), io.Discard, io.Discard, []string{"extra", "-duration", "1s"}); err == nil || err.Error() != `unexpected argument "extra"` {
		t.Errorf("got %v, want the stray argument named", err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), &stdout, &stderr, []string{"-h"}); !errors.Is(err, flag.ErrHelp) || !strings.HasPrefix(stdout.String(), "usage: loadtest [flags]") || stderr.Len() > 0 {
		t.Errorf("-h: got %v, stdout %q, stderr %q; want the usage on stdout", err, stdout.String(), stderr.String())
	}
}

// The check of deadlines wants each game ended by its deadline edited
// closed exactly once — the message it stored, else the one its token
// reaches —, others at most once (a resignation's edit), and no deadline
// long past unfired.
func TestCheckDeadlines(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	expired := &tttbot.Game{ID: 1, MessageID: "m1", Status: tttbot.StatusExpired}
	timedOut := &tttbot.Game{ID: 2, MessageID: "m2", Status: tttbot.StatusFinished, Reason: tttbot.ReasonTimeout}
	resigned := &tttbot.Game{ID: 3, MessageID: "m3", Status: tttbot.StatusFinished, Reason: tttbot.ReasonResign}
	unknown := &tttbot.Game{ID: 4, Status: tttbot.StatusExpired}
	byToken := &tttbot.Game{ID: 7, Status: tttbot.StatusExpired, Token: tttbot.Token{Value: tokenPrefix + "12.m7"}}
	overdue := &tttbot.Game{ID: 5, MessageID: "m5", Status: tttbot.StatusActive, Deadline: now.Add(-time.Minute)}
	due := &tttbot.Game{ID: 6, MessageID: "m6", Status: tttbot.StatusPending, Deadline: now.Add(-time.Second / 2)}
	tests := []struct {
		name         string
		games        []*tttbot.Game
		edits        map[string]int
		kill         bool
		wantFired    int
		wantUnedited int
		wantProblems int
	}{
		{"each fired once", []*tttbot.Game{expired, timedOut, resigned, byToken, due}, map[string]int{"m1": 1, "m2": 1, "m3": 1, "m7": 1}, false, 3, 0, 0},
		{"edit through the token missing", []*tttbot.Game{byToken}, map[string]int{"m1": 1}, false, 1, 0, 1},
		{"board out of reach", []*tttbot.Game{unknown}, map[string]int{}, false, 1, 0, 1},
		{"fired twice", []*tttbot.Game{expired, timedOut}, map[string]int{"m1": 2, "m2": 1}, false, 2, 0, 1},
		{"edit missing", []*tttbot.Game{expired}, map[string]int{}, false, 1, 0, 1},
		{"edit lost with a killed bot", []*tttbot.Game{expired}, map[string]int{}, true, 1, 1, 0},
		{"fired twice after a kill", []*tttbot.Game{expired}, map[string]int{"m1": 2}, true, 1, 0, 1},
		{"resigned game edited twice", []*tttbot.Game{resigned}, map[string]int{"m3": 2}, false, 0, 0, 1},
		{"deadline never fired", []*tttbot.Game{overdue}, map[string]int{}, false, 0, 0, 1},
		{"unseen message edited twice", nil, map[string]int{"m9": 2}, false, 0, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := newRESTStub(0, newRunIDs(now))
			fired, unedited, problems := checkDeadlines(tt.games, stub.board, tt.edits, now, tt.kill)
			if fired != tt.wantFired || unedited != tt.wantUnedited || len(problems) != tt.wantProblems {
				t.Errorf("got %d fired, %d unedited, problems %q; want %d, %d and %d problems",
					fired, unedited, problems, tt.wantFired, tt.wantUnedited, tt.wantProblems)
			}
		})
	}
}

// The REST stub counts the versions an edit showed a game closed at, so that
// a click's refresh of a board the timers closed is not taken for a second
// firing of its deadline, while two closed versions are.
func TestRESTStubEditCounts(t *testing.T) {
	board := func(version int, disabled bool) string {
		id := commands.CustomID{Action: commands.ActMove, GameID: 7, Version: version}.String()
		return fmt.Sprintf(`{"components":[{"type":1,"components":[{"type":2,"label":"X","custom_id":%q,"disabled":%t}]}]}`, id, disabled)
	}
	tests := []struct {
		name  string
		edits []string
		want  int
	}{
		{"the timers' edit", []string{board(5, true)}, 1},
		{"the timers' edit and a refresh of it", []string{board(5, true), board(5, true)}, 1},
		{"closed at two versions", []string{board(5, true), board(6, true)}, 2},
		{"a refresh of an open board", []string{board(4, false)}, 0},
	}
	// The timers edit a board through channel REST once a click told its
	// message, else through the token that posted it.
	token := tokenPrefix + "12.m1"
	ways := []struct {
		name, path string
		expired    *tttbot.Game
	}{
		{"channel REST", "/api/v9/channels/c1/messages/m1", &tttbot.Game{ID: 7, MessageID: "m1", Status: tttbot.StatusExpired}},
		{"token", "/api/v9/webhooks/" + appID + "/" + token + "/messages/@original", &tttbot.Game{ID: 7, Status: tttbot.StatusExpired, Token: tttbot.Token{Value: token}}},
	}
	for _, way := range ways {
		for _, tt := range tests {
			t.Run(way.name+"/"+tt.name, func(t *testing.T) {
				stub := newRESTStub(0, newRunIDs(time.Now()))
				for _, body := range tt.edits {
					r := httptest.NewRequest(http.MethodPatch, way.path, strings.NewReader(body))
					w := httptest.NewRecorder()
					stub.ServeHTTP(w, r)
					if w.Code != http.StatusOK {
						t.Fatalf("PATCH: got status %d: %s", w.Code, w.Body)
					}
				}
				edits := stub.editCounts()
				if got := edits["m1"]; got != tt.want {
					t.Errorf("got %d edits counted, want %d", got, tt.want)
				}
				_, _, problems := checkDeadlines([]*tttbot.Game{way.expired}, stub.board, edits, time.Now(), false)
				if (len(problems) == 0) != (tt.want == 1) {
					t.Errorf("got problems %q, want none exactly when the board was closed at one version", problems)
				}
			})
		}
	}
}

// Through a token, the stub counts the timers' edits and not a deferred
// interaction's answer, and takes @original for the message the token's
// response made when a click was answered with a new one (a rematch).
func TestRESTStubTokenEdits(t *testing.T) {
	closedBoard := func(version int) string {
		id := commands.CustomID{Action: commands.ActMove, GameID: 7, Version: version}.String()
		return fmt.Sprintf(`{"components":[{"type":1,"components":[{"type":2,"label":"X","custom_id":%q,"disabled":true}]}]}`, id)
	}
	ids := newRunIDs(time.Now())
	token := tokenPrefix + "12.m1" // a click on m1
	made := strconv.FormatInt(ids.message(12), 10)
	tests := []struct {
		name  string
		how   answerKind
		edits []string
		want  map[string]int
	}{
		{"the timers' edit", 0, []string{closedBoard(5)}, map[string]int{"m1": 1}},
		{"a deferred answer", answeredLate, []string{closedBoard(5)}, map[string]int{}},
		{"a deferred answer, then the timers' edit", answeredLate, []string{closedBoard(5), closedBoard(6)}, map[string]int{"m1": 1}},
		{"the timers' edit of a rematch's board", answeredNew, []string{closedBoard(5)}, map[string]int{made: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := newRESTStub(0, ids)
			if tt.how != 0 {
				stub.answers.note(token, tt.how)
			}
			for _, body := range tt.edits {
				r := httptest.NewRequest(http.MethodPatch, "/api/v9/webhooks/"+appID+"/"+token+"/messages/@original", strings.NewReader(body))
				w := httptest.NewRecorder()
				stub.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					t.Fatalf("PATCH: got status %d: %s", w.Code, w.Body)
				}
			}
			if got := stub.editCounts(); !maps.Equal(got, tt.want) {
				t.Errorf("got %v counted, want %v", got, tt.want)
			}
		})
	}
}

// The seconds after the load, when the report checks the database, are not
// seconds in which the bots answered nothing.
func TestPerSecondStopsWithTheLoad(t *testing.T) {
	d := newDriver(loadOptions{duration: 3 * time.Second}, 0, nil, nil, nil)
	d.from = time.Now().Add(-10 * time.Second)
	for i := range 3 {
		d.secs[i].Store(int64(100 + i))
	}
	got := d.perSecond(3 * time.Second)
	if want := []int64{100, 101, 102}; !slices.Equal(got, want) {
		t.Errorf("perSecond(3s) = %v, want %v", got, want)
	}
}

// An answer counts in the second it came in, also when its request was
// sent in the warm-up: under overload the first measured seconds answer
// the warm-up's queue, and are not seconds without answers.
func TestCountAnswerBySecondReceived(t *testing.T) {
	d := newDriver(loadOptions{duration: 3 * time.Second}, 0, nil, nil, nil)
	tests := []struct {
		name  string
		after time.Duration // from d.from
		want  []int64       // perSecond(3s) once counted
	}{
		{"in the warm-up", -time.Millisecond, []int64{0, 0, 0}},
		{"first second", 0, []int64{1, 0, 0}},
		{"third second", 2500 * time.Millisecond, []int64{1, 0, 1}},
	}
	for _, tt := range tests {
		d.countAnswer(d.from.Add(tt.after))
		if got := d.perSecond(3 * time.Second); !slices.Equal(got, tt.want) {
			t.Errorf("after an answer %s: perSecond = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// Of several bots only the first registers the commands, as one instance of
// a deployment does; each bot's configuration is one the bot accepts.
func TestBotConfigRegistersOnce(t *testing.T) {
	o := loadOptions{databaseURL: "postgres://postgres@127.0.0.1:5432/test", abandon: 0.01, turnTimeout: 5 * time.Second}
	for _, register := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(path, []byte(botConfig(o, strings.Repeat("ab", 32), "http://127.0.0.1:1/api/v9", "127.0.0.1:0", "", register)), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(path, func(string) string { return "" })
		if err != nil {
			t.Fatalf("load the config of a bot that registers %t: %v", register, err)
		}
		if got := cfg.Discord.RegisterCommands; got != register {
			t.Errorf("register_commands = %t, want %t", got, register)
		}
	}
	// With -cpuprofile, the first bot serves its profiles on an admin listener.
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(botConfig(o, strings.Repeat("ab", 32), "http://127.0.0.1:1/api/v9", "127.0.0.1:7001", "127.0.0.1:7002", true)), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path, func(string) string { return "" })
	if err != nil {
		t.Fatalf("load the config of a profiled bot: %v", err)
	}
	if !cfg.HTTP.Pprof || cfg.HTTP.AdminListen != "127.0.0.1:7002" {
		t.Errorf("profiled bot: pprof %t on %q, want true on 127.0.0.1:7002", cfg.HTTP.Pprof, cfg.HTTP.AdminListen)
	}
}
