package deploy_test

import (
	"crypto/rand"
	"database/sql"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
)

// botUID is the user the image runs the bot as: distroless's nonroot.
const botUID = 65532

// podman runs podman commands for a test, with settings that work on
// machines without systemd or cgroup limits: runc, cgroupfs, no ulimits.
type podman struct {
	t   *testing.T
	env []string
}

func newPodman(t *testing.T) *podman {
	conf := filepath.Join(t.TempDir(), "containers.conf")
	err := os.WriteFile(conf, []byte("[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = \"cgroupfs\"\n"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	return &podman{t: t, env: []string{"CONTAINERS_CONF=" + conf}}
}

func (p *podman) run(args ...string) string {
	p.t.Helper()
	return strings.TrimSpace(run(p.t, p.env, "podman", append([]string{"--runtime", "runc"}, args...)...))
}

// try runs podman and returns its output and error, for commands that may
// fail.
func (p *podman) try(args ...string) (string, error) {
	out, err := command(p.env, "podman", append([]string{"--runtime", "runc"}, args...)...)
	return strings.TrimSpace(string(out)), err
}

// TestImage builds the image from the Dockerfile around a binary of
// scripts/build.sh, runs it against a local Discord, plays games through it
// across a restart, and breaks its database under its health check.
func TestImage(t *testing.T) {
	need(t, "podman", "runc", "prlimit", "setpriv")
	if os.Geteuid() != 0 {
		t.Skip("runs podman as root, to read the volume from the host")
	}
	p := newPodman(t)
	name := "tttbot-test-" + rand.Text()[:8]
	name = strings.ToLower(name)

	// The build stage replaced by a directory laid out as its /out: podman
	// cannot pull golang:1.26-bookworm here. The runtime stage is the one
	// users build.
	out := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(filepath.Join(out, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(buildBinary(t, runtime.GOARCH), filepath.Join(out, "bot")); err != nil {
		t.Fatal(err)
	}
	p.run("build", "--format", "docker", "--build-context", "build="+filepath.Dir(out), "-t", name, "-f", "../Dockerfile", "..")
	t.Cleanup(func() { p.try("rmi", "-f", name) })
	size := p.run("image", "inspect", "--format", "{{.Size}}", name)
	t.Logf("image size: %s bytes", size)

	p.run("volume", "create", name)
	t.Cleanup(func() { p.try("volume", "rm", "-f", name) })
	volume := p.run("volume", "inspect", "--format", "{{.Mountpoint}}", name)

	// Containers start slowly on a busy machine: wait for them longer than
	// for a bot in the test's own process.
	srv := discordtest.NewServerWith(t, discordtest.Options{Timeout: time.Minute})
	listen := freeAddr(t)
	p.run("run", "-d", "--name", name, "--network", "host", "-v", name+":/data",
		"--health-interval", "disable", // no systemd timers here: the test runs the check
		"-e", "DISCORD_TOKEN="+srv.Token(),
		"-e", "TTTBOT_DISCORD_API_URL="+srv.URL(),
		"-e", "TTTBOT_HTTP_LISTEN="+listen,
		"-e", "TTTBOT_GAME_AI_TIME_BUDGET=2s",
		name)
	t.Cleanup(func() {
		if t.Failed() {
			logs, _ := p.try("logs", name)
			t.Logf("container logs:\n%s", logs)
		}
		p.try("rm", "-f", "-t", "0", name)
	})
	srv.WaitReady(t)

	pid := p.run("inspect", "--format", "{{.State.Pid}}", name)
	if uid := processUID(t, pid); uid != fmt.Sprint(botUID) {
		t.Errorf("bot runs as uid %s, want %d", uid, botUID)
	}
	if out := p.run("healthcheck", "run", name); out != "" && out != "healthy" {
		t.Errorf("healthcheck of a running bot: got %q, want healthy", out)
	}

	alice := srv.NewUser("alice")
	playBot(t, srv, alice)
	p.run("restart", "-t", "10", name)
	// WaitReady returns at once while the old session lingers: wait for
	// the new one's IDENTIFY.
	for deadline := time.Now().Add(time.Minute); len(srv.Identifies()) < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the restarted bot did not connect to the gateway")
		}
	}
	srv.WaitReady(t)
	playBot(t, srv, alice)

	db := filepath.Join(volume, "tttbot.db")
	info, err := os.Stat(db)
	if err != nil {
		t.Fatalf("database on the volume: %v", err)
	}
	if uid := fileUID(info); uid != botUID {
		t.Errorf("database owned by uid %d, want %d", uid, botUID)
	}
	if got := finishedGames(t, db); got != 2 {
		t.Errorf("got %d finished games on the volume after a restart, want 2", got)
	}

	// The bot may write no more, as on a full disk or a read-only volume:
	// its file size limit drops to nothing. The bot's own user sets it, who
	// needs no CAP_SYS_RESOURCE, which sandboxes deny root.
	id := fmt.Sprint(botUID)
	pid = p.run("inspect", "--format", "{{.State.Pid}}", name)
	run(t, nil, "setpriv", "--reuid", id, "--regid", id, "--clear-groups", "prlimit", "--pid", pid, "--fsize=0")
	var check string
	for deadline := time.Now().Add(time.Minute); ; {
		check, err = p.try("healthcheck", "run", name)
		if err != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second) // the bot keeps a probe's result for 1s
	}
	if err == nil || !strings.Contains(check, "unhealthy") {
		t.Errorf("healthcheck without the database: got %q, %v; want unhealthy", check, err)
	}
}

// playBot plays a game against the bot as user and fails unless it ends.
func playBot(t *testing.T, srv *discordtest.Server, user discordtest.User) {
	t.Helper()
	board := srv.Slash(t, user, srv.NewChannel(), "ttt challenge").Result(t)
	for range 10 {
		var free []discordtest.Button
		for _, b := range board.Buttons() {
			if strings.HasPrefix(b.CustomID, "ttt:m:") && !b.Disabled {
				free = append(free, b)
			}
		}
		if len(free) == 0 {
			return
		}
		board = srv.Click(t, user, board, free[0].CustomID).Result(t)
	}
	t.Fatalf("game did not end:\n%s", board)
}

// finishedGames counts the finished games in the database at path.
func finishedGames(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM games WHERE status = 'finished'").Scan(&n); err != nil {
		t.Fatalf("count games: %v", err)
	}
	return n
}

// processUID is the real uid of process pid.
func processUID(t *testing.T, pid string) string {
	t.Helper()
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "Uid:"); ok {
			return strings.Fields(rest)[0]
		}
	}
	t.Fatalf("no Uid in /proc/%s/status", pid)
	return ""
}

// fileUID is the owner of a file.
func fileUID(info os.FileInfo) uint32 { return info.Sys().(*syscall.Stat_t).Uid }

// freeAddr is a loopback address with a port free for the bot's HTTP server.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
