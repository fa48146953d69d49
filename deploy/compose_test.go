package deploy_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.yaml.in/yaml/v3"

	"github.com/tttbot/tttbot/internal/discord/discordtest"
	"github.com/tttbot/tttbot/internal/postgres/pgtest"
)

// TestCompose starts the bot as compose.yaml does, for each of its
// profiles: with the image's environment (the Dockerfile's ENV) under the
// bot service's, rendered as Compose renders it, in a working directory
// standing in for the /data volume. No container runs: the images cannot be
// pulled here, and what this tests is the configuration the file hands the
// bot. The test's own stand-ins replace only what a container would hold
// itself: the Discord API (a local one), the listen port (a free one), and
// the postgres service's address, user and database (TTTBOT_TEST_POSTGRES's).
// The bot must start, connect to Discord and pass `bot healthcheck`.
func TestCompose(t *testing.T) {
	need(t, "go")
	image := readDockerfile(t, "../Dockerfile")
	compose := readCompose(t, "../compose.yaml")
	bot, ok := compose.Services["bot"]
	if !ok {
		t.Fatal("compose.yaml has no bot service")
	}
	// The default database path is relative: it must land on the volume.
	if !slices.ContainsFunc(bot.Volumes, func(v string) bool { return strings.HasSuffix(v, ":"+image.workdir) }) {
		t.Errorf("the bot's volumes %q do not mount the image's working directory %s, where its database is", bot.Volumes, image.workdir)
	}
	binary := filepath.Join(t.TempDir(), "bot")
	run(t, nil, "go", "build", "-o", binary, "../cmd/bot")

	for _, profile := range []string{"", "postgres"} {
		t.Run("profile "+profileName(profile), func(t *testing.T) {
			active := compose.active(profile)
			if got, want := slices.Contains(active, "postgres"), profile == "postgres"; got != want {
				t.Errorf("postgres service started: got %v, want %v (services %q)", got, want, active)
			}
			srv := discordtest.NewServerWith(t, discordtest.Options{Timeout: time.Minute})
			vars := map[string]string{"DISCORD_TOKEN": srv.Token(), "POSTGRES_PASSWORD": "s3cret", "COMPOSE_PROFILES": profile}
			env := maps.Clone(image.env)
			for name, value := range bot.Environment {
				v, err := interpolate(value, vars)
				if err != nil {
					t.Fatalf("compose.yaml: bot: %s: %v", name, err)
				}
				env[name] = v
			}
			if port, ok := strings.CutPrefix(env["TTTBOT_HTTP_LISTEN"], ":"); !ok || !slices.ContainsFunc(bot.Ports, func(p string) bool { return strings.HasSuffix(p, ":"+port) }) {
				t.Errorf("the bot listens on %q, which its ports %q do not publish", env["TTTBOT_HTTP_LISTEN"], bot.Ports)
			}

			// The stand-ins.
			env["TTTBOT_DISCORD_API_URL"] = srv.URL()
			env["TTTBOT_HTTP_LISTEN"] = freeAddr(t)
			schema := ""
			if profile == "postgres" {
				rendered := env["TTTBOT_DATABASE_URL"]
				if want := "postgres://tttbot:s3cret@postgres:5432/tttbot?sslmode=disable"; rendered != want {
					t.Errorf("TTTBOT_DATABASE_URL: got %q, want %q", rendered, want)
				}
				local := pgtest.URL(t)
				schema = pgtest.Schema(t, local)
				env["TTTBOT_DATABASE_URL"] = onServer(t, rendered, local)
			}
			data := t.TempDir() // the /data volume

			cmd := exec.Command(binary, "run")
			cmd.Dir, cmd.Env = data, environ(env)
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			t.Cleanup(func() {
				cmd.Process.Signal(syscall.SIGTERM)
				if err := <-done; err != nil {
					t.Errorf("bot run: %v", err)
				}
				if t.Failed() {
					t.Logf("bot run's output:\n%s", out.String())
				}
			})
			// In gateway mode the bot is healthy once connected to Discord.
			healthy(t, binary, data, environ(env), done)
			srv.WaitReady(t)

			if profile == "postgres" {
				if n := tables(t, schema); n == 0 {
					t.Errorf("no tables in the PostgreSQL schema %s: the bot kept its games elsewhere", schema)
				}
				if _, err := os.Stat(filepath.Join(data, "tttbot.db")); err == nil {
					t.Error("tttbot.db created on the volume with the postgres profile")
				}
			} else if _, err := os.Stat(filepath.Join(data, "tttbot.db")); err != nil {
				t.Errorf("the database on the volume: %v", err)
			}
		})
	}
}

// healthy runs `bot healthcheck` until it passes, for a minute at most,
// failing the test if the bot stops first (reported on done, which is
// refilled for the test's cleanup).
func healthy(t *testing.T, binary, dir string, env []string, done chan error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for {
		cmd := exec.CommandContext(ctx, binary, "healthcheck")
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err == nil {
			return
		}
		select {
		case err := <-done:
			done <- err
			t.Fatalf("bot run stopped before it was healthy: %v", err)
		case <-ctx.Done():
			t.Fatalf("bot healthcheck: %v\n%s", err, out)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// tables counts the tables in a PostgreSQL schema of TTTBOT_TEST_POSTGRES.
func tables(t *testing.T, schema string) int {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), os.Getenv(pgtest.Var))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	err = conn.QueryRow(t.Context(), "SELECT count(*) FROM information_schema.tables WHERE table_schema = $1", schema).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// onServer is the URL rendered from compose.yaml moved to the server of
// local: its address, user, password and database, its parameters added to
// the rendered URL's.
func onServer(t *testing.T, rendered, local string) string {
	t.Helper()
	r, err := url.Parse(rendered)
	if err != nil {
		t.Fatal(err)
	}
	l, err := url.Parse(local)
	if err != nil {
		t.Fatal(err)
	}
	r.User, r.Host, r.Path = l.User, l.Host, l.Path
	q := r.Query()
	for k, v := range l.Query() {
		q[k] = v
	}
	r.RawQuery = q.Encode()
	return r.String()
}

func profileName(profile string) string {
	if profile == "" {
		return "none"
	}
	return profile
}

// environ is env as NAME=value pairs: the whole environment of the bot.
func environ(env map[string]string) []string {
	var list []string
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	slices.Sort(list)
	return list
}

// composeFile is what the test reads of compose.yaml.
type composeFile struct {
	Services map[string]struct {
		Profiles    []string          `yaml:"profiles"`
		Environment map[string]string `yaml:"environment"`
		Volumes     []string          `yaml:"volumes"`
		Ports       []string          `yaml:"ports"`
	} `yaml:"services"`
}

func readCompose(t *testing.T, path string) composeFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

// active lists the services that `docker compose up` starts with
// COMPOSE_PROFILES=profile: those without profiles, and those of profile.
func (c composeFile) active(profile string) []string {
	var names []string
	for name, s := range c.Services {
		if len(s.Profiles) == 0 || slices.Contains(s.Profiles, profile) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// dockerImage is what the test reads of the Dockerfile's last stage.
type dockerImage struct {
	env     map[string]string
	workdir string
}

func readDockerfile(t *testing.T, path string) dockerImage {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var img dockerImage
	var line string
	for s := bufio.NewScanner(f); s.Scan(); {
		l := strings.TrimSpace(s.Text())
		if strings.HasPrefix(l, "#") {
			continue
		}
		if rest, ok := strings.CutSuffix(l, `\`); ok {
			line += rest + " "
			continue
		}
		line += l
		fields := strings.Fields(line)
		line = ""
		if len(fields) == 0 {
			continue
		}
		switch strings.ToUpper(fields[0]) {
		case "FROM":
			img = dockerImage{env: map[string]string{}}
		case "WORKDIR":
			img.workdir = fields[1]
		case "ENV":
			for _, kv := range fields[1:] {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					t.Fatalf("%s: ENV %s: want NAME=value", path, kv)
				}
				img.env[k] = v
			}
		}
	}
	return img
}

// interpolate expands the variables of a Compose value from vars, as
// Compose does: $$, $NAME, ${NAME}, and ${NAME:-default}, ${NAME-default},
// ${NAME:?error}, ${NAME?error}, ${NAME:+other}, ${NAME+other}, whose words
// are expanded in turn. A name missing from vars is unset.
func interpolate(s string, vars map[string]string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; {
		case c == '$':
			b.WriteByte('$')
			i++
		case c == '{':
			end, depth := i+2, 1
			for ; end < len(s) && depth > 0; end++ {
				switch s[end] {
				case '{':
					depth++
				case '}':
					depth--
				}
			}
			if depth > 0 {
				return "", fmt.Errorf("unclosed ${ in %q", s)
			}
			v, err := expand(s[i+2:end-1], vars)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i = end - 1
		default:
			end := i + 1
			for end < len(s) && (s[end] == '_' || 'A' <= s[end] && s[end] <= 'Z' || 'a' <= s[end] && s[end] <= 'z' || '0' <= s[end] && s[end] <= '9') {
				end++
			}
			b.WriteString(vars[s[i+1:end]])
			i = end - 1
		}
	}
	return b.String(), nil
}

// expand is the value of one ${...}, given what is inside the braces.
func expand(inner string, vars map[string]string) (string, error) {
	name, op, word := inner, "", ""
	if i := strings.IndexAny(inner, ":-?+"); i >= 0 {
		name, op = inner[:i], inner[i:i+1]
		if op == ":" && i+1 < len(inner) {
			op = inner[i : i+2]
		}
		word = inner[i+len(op):]
	}
	v, set := vars[name]
	nonEmpty := set && v != ""
	switch op {
	case "":
		return v, nil
	case ":-", "-":
		if nonEmpty || op == "-" && set {
			return v, nil
		}
		return interpolate(word, vars)
	case ":?", "?":
		if nonEmpty || op == "?" && set {
			return v, nil
		}
		msg, err := interpolate(word, vars)
		if err != nil {
			return "", err
		}
		return "", errors.New(msg)
	case ":+", "+":
		if nonEmpty || op == "+" && set {
			return interpolate(word, vars)
		}
		return "", nil
	}
	return "", fmt.Errorf("unknown operator %q in ${%s}", op, inner)
}

func TestInterpolate(t *testing.T) {
	vars := map[string]string{"A": "a", "EMPTY": ""}
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{"plain", "plain", false},
		{"$A ${A}", "a a", false},
		{"$$A", "$A", false},
		{"${UNSET:-d} ${EMPTY:-d} ${EMPTY-d} ${A:-d}", "d d  a", false},
		{"${A:+x${A}y} ${EMPTY:+x} ${EMPTY+x} ${UNSET+x}", "xay  x ", false},
		{"${A:?need A}", "a", false},
		{"${UNSET:?need UNSET}", "", true},
		{"${EMPTY:?need it}", "", true},
		{"${EMPTY?need it}", "", false},
		{"${A", "", true},
	}
	for _, tt := range tests {
		got, err := interpolate(tt.in, vars)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("interpolate(%q): got %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}
