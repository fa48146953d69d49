package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tttbot/tttbot/internal/config"
)

// The examples of README.md and config.example.toml run here, so that a
// reader who copies one gets what the text promises. A failure names the
// example's line. (internal/config's tests load config.example.toml
// itself and hold it to the defaults.)

const readmePath = "../../README.md"

// skippedExamples are README.md's shell blocks that this test does not run,
// each with the reason.
var skippedExamples = []struct{ block, why string }{
	{"DISCORD_TOKEN=your-bot-token go run ./cmd/bot", "runs the bot, which needs Discord"},
	{"docker build -t tttbot .\ndocker run -d --name tttbot -e DISCORD_TOKEN=your-bot-token -v tttbot:/data tttbot",
		"needs a container runtime and Discord; deploy/image_test.go builds and runs the image with podman against a local Discord"},
	{"go test -race ./...", "the test suite that runs this test"},
	{"go test ./internal/commands/ -run 'Catalog|Plural|Pseudo|Limits|LanguageFor'",
		"tests that go test ./... runs anyway; TestReadmeGoTestPatterns checks that its pattern names tests"},
}

// codeBlock is a fenced block of a Markdown file.
type codeBlock struct {
	lang string
	line int // the line of its first line of code
	text string
}

func codeBlocks(md string) []codeBlock {
	var blocks []codeBlock
	var cur *codeBlock
	var lines []string
	for i, l := range strings.Split(md, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &codeBlock{lang: strings.TrimPrefix(l, "```"), line: i + 2}
			lines = nil
		case cur != nil && l == "```":
			cur.text = strings.Join(lines, "\n")
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			lines = append(lines, l)
		}
	}
	return blocks
}

func readReadme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadmeTOML loads each TOML block with the bot's config loader. The
// block is written at its own line of an otherwise empty file, so that the
// loader's errors name README.md's lines.
func TestReadmeTOML(t *testing.T) {
	n := 0
	for _, b := range codeBlocks(readReadme(t)) {
		if b.lang != "toml" {
			continue
		}
		n++
		path := filepath.Join(t.TempDir(), "README.md")
		if err := os.WriteFile(path, []byte(strings.Repeat("\n", b.line-1)+b.text+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := config.Load(path, func(string) string { return "" }); err != nil {
			t.Errorf("README.md:%d: the TOML example does not load: %v", b.line, err)
		}
	}
	if n == 0 {
		t.Error("README.md has no TOML block; this test expects the configuration example")
	}
}

// urlPattern finds a PostgreSQL URL in text, up to a space or the quote,
// backtick or bracket that ends it.
var urlPattern = regexp.MustCompile("postgres(?:ql)?://[^\\s`\"')]+")

// urlParameter is a URL query parameter the README shows on its own, as
// `sslmode=disable`: checked as the query of a URL.
var urlParameter = regexp.MustCompile(`^(?:options|pool_max_conns|sslmode|sslrootcert|statement_timeout)=`)

// codeSpan finds Markdown's inline code.
var codeSpan = regexp.MustCompile("`([^`\n]+)`")

// TestExampleURLs parses every PostgreSQL URL of README.md and
// config.example.toml, and each URL parameter README.md shows alone, as the
// bot's PostgreSQL store does.
func TestExampleURLs(t *testing.T) {
	for _, file := range []string{readmePath, "../../config.example.toml"} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i, line := range strings.Split(string(b), "\n") {
			var urls []string
			for _, u := range urlPattern.FindAllString(line, -1) {
				urls = append(urls, strings.TrimRight(u, ".,;:"))
			}
			for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
				if urlParameter.MatchString(m[1]) {
					urls = append(urls, "postgres://db.example/tttbot?"+m[1])
				}
			}
			for _, u := range urls {
				n++
				if _, err := pgxpool.ParseConfig(u); err != nil {
					t.Errorf("%s:%d: %s does not parse: %v", filepath.Base(file), i+1, u, err)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s shows no PostgreSQL URL; this test expects some", filepath.Base(file))
		}
	}
}

// TestReadmeShell runs README.md's shell blocks that need no Discord, line
// by line, in a directory of their own: `go build` from the module's root,
// with its -o in that directory, and ./bot as the binary it built (or, when
// -short skips the build, as this test binary running main).
func TestReadmeShell(t *testing.T) {
	work := t.TempDir()
	skipped := map[string]bool{}
	for _, b := range codeBlocks(readReadme(t)) {
		if b.lang == "toml" { // TestReadmeTOML's
			continue
		}
		if b.lang != "sh" {
			t.Errorf("README.md:%d: a block in %q, which no test runs: write sh or toml, or teach this test the language", b.line, b.lang)
			continue
		}
		if i := slices.IndexFunc(skippedExamples, func(s struct{ block, why string }) bool { return s.block == b.text }); i >= 0 {
			t.Logf("README.md:%d: not run: %s", b.line, skippedExamples[i].why)
			skipped[b.text] = true
			continue
		}
		for i, line := range strings.Split(b.text, "\n") {
			if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if out, err := runExample(t, work, line); err != nil {
				t.Errorf("README.md:%d: %s: %v\n%s", b.line+i, line, err, out)
			}
		}
	}
	for _, s := range skippedExamples {
		if !skipped[s.block] {
			t.Errorf("skippedExamples lists a block README.md no longer has:\n%s", s.block)
		}
	}
}

// runExample runs one command line of a README shell block in dir.
func runExample(t *testing.T, dir, line string) ([]byte, error) {
	words, err := shellWords(line)
	if err != nil {
		return nil, err
	}
	// The bot reads nothing of this process's settings; its own variables
	// come from the line.
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "TTTBOT_") || strings.HasPrefix(kv, config.TokenVar+"=")
	})
	for len(words) > 0 && strings.Contains(words[0], "=") {
		env, words = append(env, words[0]), words[1:]
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("no command")
	}
	var cmd *exec.Cmd
	switch name, args := words[0], words[1:]; {
	case name == "go" && len(args) > 0 && args[0] == "build":
		if testing.Short() {
			t.Logf("-short: not run: %s", line)
			return nil, nil
		}
		if i := slices.Index(args, "-o"); i >= 0 && i+1 < len(args) {
			args[i+1] = filepath.Join(dir, args[i+1])
		}
		if raceBuild() {
			// The same build flags as this test binary's, so that the
			// build cache serves the packages.
			args = slices.Insert(args, 1, "-race")
		}
		cmd = exec.CommandContext(t.Context(), "go", args...)
		cmd.Dir = "../.."
	case name == "./bot":
		bin := filepath.Join(dir, "bot")
		if _, err := os.Stat(bin); err != nil {
			if !testing.Short() {
				return nil, fmt.Errorf("no ./bot: the README builds it before it runs it")
			}
			if bin, err = os.Executable(); err != nil {
				return nil, err
			}
			env = append(env, childVar+"=1")
		}
		cmd = exec.CommandContext(t.Context(), bin, args...)
		cmd.Dir = dir
	default:
		return nil, fmt.Errorf("the test runs go build and ./bot; list another command in skippedExamples with the reason")
	}
	cmd.Env = env
	return cmd.CombinedOutput()
}

// raceBuild reports whether this test binary was built with -race.
func raceBuild() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// shellWords splits a command line as a POSIX shell does for the simple
// commands of the README: words separated by blanks, quoted with ' or ".
func shellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case unicode.IsSpace(r):
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case strings.ContainsRune("|&;<>()$`\\*?", r):
			return nil, fmt.Errorf("%q: the test runs simple commands only", r)
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated %c", quote)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// TestReadmeGoTestPatterns checks that each alternative of a `go test -run`
// pattern of README.md's shell blocks names at least one test, so that a
// renamed test cannot leave the README running none.
func TestReadmeGoTestPatterns(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles test binaries")
	}
	for _, b := range codeBlocks(readReadme(t)) {
		if b.lang != "sh" {
			continue
		}
		for i, line := range strings.Split(b.text, "\n") {
			words, err := shellWords(line)
			if err != nil || len(words) < 2 || words[0] != "go" || words[1] != "test" {
				continue
			}
			run := slices.Index(words, "-run")
			if run < 0 || run+1 >= len(words) {
				continue
			}
			var pkgs []string
			for _, w := range words[2:] {
				if strings.HasPrefix(w, "./") {
					pkgs = append(pkgs, w)
				}
			}
			args := append([]string{"test", "-list", words[run+1]}, pkgs...)
			if raceBuild() {
				args = slices.Insert(args, 1, "-race")
			}
			cmd := exec.CommandContext(t.Context(), "go", args...)
			cmd.Dir = "../.."
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("README.md:%d: go %s: %v", b.line+i, strings.Join(args, " "), err)
				continue
			}
			for _, alt := range strings.Split(words[run+1], "|") {
				if !regexp.MustCompile(alt).Match(out) {
					t.Errorf("README.md:%d: -run %q: %q matches no test of %s", b.line+i, words[run+1], alt, pkgs)
				}
			}
		}
	}
}

// TestReadmeLinks checks that each link within README.md leads somewhere:
// #anchors to a heading, relative paths to a file of the repository, and
// path#anchor to a heading of that file.
func TestReadmeLinks(t *testing.T) {
	md := readReadme(t)
	anchors := headings(md)
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for i, l := range strings.Split(md, "\n") {
		for _, m := range link.FindAllStringSubmatch(l, -1) {
			target := m[1]
			path, frag, _ := strings.Cut(target, "#")
			switch {
			case strings.Contains(target, "://"):
			case path == "":
				if !anchors[frag] {
					t.Errorf("README.md:%d: no heading for %s", i+1, target)
				}
			default:
				file := filepath.Join("../..", path)
				if _, err := os.Stat(file); err != nil {
					t.Errorf("README.md:%d: link to %s: %v", i+1, target, err)
				} else if b, err := os.ReadFile(file); frag != "" && (err != nil || !headings(string(b))[frag]) {
					t.Errorf("README.md:%d: no heading in %s for #%s", i+1, path, frag)
				}
			}
		}
	}
}

// headings is the anchors of md's headings, outside code blocks.
func headings(md string) map[string]bool {
	anchors := map[string]bool{}
	inCode := false
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if h, ok := strings.CutPrefix(l, "#"); ok && !inCode {
			anchors[anchor(strings.TrimLeft(h, "#"))] = true
		}
	}
	return anchors
}

// anchor is the fragment GitHub gives a heading: lower case, spaces as
// hyphens, punctuation other than hyphens and underscores dropped.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestReadmeSubcommands checks that each `bot …` the README writes names a
// subcommand (or a placeholder in capitals).
func TestReadmeSubcommands(t *testing.T) {
	names := map[string]bool{"help": true}
	for _, c := range subcommands() {
		names[c.name] = true
	}
	for i, l := range strings.Split(readReadme(t), "\n") {
		for _, m := range codeSpan.FindAllStringSubmatch(l, -1) {
			words := strings.Fields(m[1])
			if len(words) < 2 || words[0] != "bot" && words[0] != "./bot" {
				continue
			}
			if w := words[1]; !names[w] && !strings.HasPrefix(w, "-") && strings.ToUpper(w) != w {
				t.Errorf("README.md:%d: `%s`: bot has no subcommand %q", i+1, m[1], w)
			}
		}
	}
}
