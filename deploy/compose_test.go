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
	"regexp"
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

// TestCompose starts the bot as `docker compose up` does with compose.yaml,
// and with compose.postgres.yaml added: with the image's environment (the
// Dockerfile's ENV) under the bot service's, rendered as Compose renders
// it, in a working directory standing in for the /data volume. No container
// runs: the images cannot be pulled here, and what this tests is the
// configuration the files hand the bot. The test's own stand-ins replace
// only what a container would hold itself: the Discord API (a local one),
// the listen port (a free one), and the postgres service's address, user
// and database (TTTBOT_TEST_POSTGRES's). The bot must start, connect to
// Discord and pass `bot healthcheck`.
func TestCompose(t *testing.T) {
	need(t, "go")
	image := readDockerfile(t, "../Dockerfile")
	binary := filepath.Join(t.TempDir(), "bot")
	run(t, nil, "go", "build", "-o", binary, "../cmd/bot")

	for _, tt := range []struct {
		name     string
		files    []string
		services []string
	}{
		{"sqlite", []string{"../compose.yaml"}, []string{"bot"}},
		{"postgres", []string{"../compose.yaml", "../compose.postgres.yaml"}, []string{"bot", "postgres"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			compose := readCompose(t, tt.files...)
			if got := slices.Sorted(maps.Keys(compose.Services)); !slices.Equal(got, tt.services) {
				t.Errorf("got services %q, want %q", got, tt.services)
			}
			for name, s := range compose.Services {
				if len(s.Profiles) > 0 {
					t.Errorf("%s has profiles %q, which podman-compose 1.0 ignores, starting it anyway", name, s.Profiles)
				}
			}
			bot := compose.Services["bot"]
			// The default database path is relative: it must land on the volume.
			if !slices.ContainsFunc(bot.Volumes, func(v string) bool { return strings.HasSuffix(v, ":"+image.workdir) }) {
				t.Errorf("the bot's volumes %q do not mount the image's working directory %s, where its database is", bot.Volumes, image.workdir)
			}
			srv := discordtest.NewServerWith(t, discordtest.Options{Timeout: time.Minute})
			vars := map[string]string{"DISCORD_TOKEN": srv.Token(), "POSTGRES_PASSWORD": "s3cret"}
			env := maps.Clone(image.env)
			for name, value := range bot.Environment {
				// Debian's podman-compose (1.0) passes anything else on
				// as it is, such as ${VAR:+other}.
				if rest := portableVar.ReplaceAllString(value, ""); strings.Contains(rest, "${") {
					t.Errorf("bot: %s: %q holds a substitution podman-compose 1.0 does not make: use $VAR, ${VAR}, ${VAR:-default} or ${VAR:?error}", name, value)
				}
				v, err := interpolate(value, vars)
				if err != nil {
					t.Fatalf("bot: %s: %v", name, err)
				}
				env[name] = v
			}
			if port, ok := strings.CutPrefix(env["TTTBOT_HTTP_LISTEN"], ":"); !ok || !slices.ContainsFunc(bot.Ports, func(p string) bool { return strings.HasSuffix(p, ":"+port) }) {
				t.Errorf("the bot listens on %q, which its ports %q do not publish", env["TTTBOT_HTTP_LISTEN"], bot.Ports)
			}
			postgres := slices.Contains(tt.services, "postgres")
			if _, ok := bot.DependsOn["postgres"]; ok != postgres {
				t.Errorf("the bot depends on postgres: got %v, want %v", ok, postgres)
			}

			// The stand-ins.
			env["TTTBOT_DISCORD_API_URL"] = srv.URL()
			env["TTTBOT_HTTP_LISTEN"] = freeAddr(t)
			schema := ""
			if postgres {
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

			if postgres {
				if n := tables(t, schema); n == 0 {
					t.Errorf("no tables in the PostgreSQL schema %s: the bot kept its games elsewhere", schema)
				}
				if _, err := os.Stat(filepath.Join(data, "tttbot.db")); err == nil {
					t.Error("tttbot.db created on the volume with compose.postgres.yaml")
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

// environ is env as NAME=value pairs: the whole environment of the bot.
func environ(env map[string]string) []string {
	var list []string
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	slices.Sort(list)
	return list
}

// portableVar is a substitution every Compose makes, Debian's podman-compose
// 1.0 included, without nesting.
var portableVar = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*(?:(?::?-|:?\?)[^${}]+)?\}`)

// composeFile is what the test reads of compose files.
type composeFile struct {
	Services map[string]composeService `yaml:"services"`
}

type composeService struct {
	Profiles    []string          `yaml:"profiles"`
	Environment map[string]string `yaml:"environment"`
	Volumes     []string          `yaml:"volumes"`
	Ports       []string          `yaml:"ports"`
	DependsOn   map[string]any    `yaml:"depends_on"`
}

// readCompose reads compose files and merges them as Compose does with
// several -f: a later file's service adds to an earlier one's, its
// variables replacing those of the same name.
func readCompose(t *testing.T, paths ...string) composeFile {
	t.Helper()
	merged := composeFile{Services: map[string]composeService{}}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var c composeFile
		if err := yaml.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for name, s := range c.Services {
			m := merged.Services[name]
			if m.Environment == nil {
				m.Environment = map[string]string{}
			}
			if m.DependsOn == nil {
				m.DependsOn = map[string]any{}
			}
			maps.Copy(m.Environment, s.Environment)
			maps.Copy(m.DependsOn, s.DependsOn)
			m.Profiles = append(m.Profiles, s.Profiles...)
			m.Volumes = append(m.Volumes, s.Volumes...)
			m.Ports = append(m.Ports, s.Ports...)
			merged.Services[name] = m
		}
	}
	return merged
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
