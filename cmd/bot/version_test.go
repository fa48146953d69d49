package main

import (
	"bytes"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	e := env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	if err := dispatch(t.Context(), e, []string{"version"}); err != nil {
		t.Fatalf("bot version: %v (%s)", err, errb.String())
	}
	lines := map[string]string{}
	for line := range strings.Lines(out.String()) {
		k, v, _ := strings.Cut(strings.TrimSpace(line), " ")
		lines[k] = strings.TrimSpace(v)
	}
	tests := []struct {
		key  string
		want *regexp.Regexp
	}{
		{"version", regexp.MustCompile(`^\S+$`)},
		{"commit", regexp.MustCompile(`^\S+$`)},
		{"go", regexp.MustCompile("^" + regexp.QuoteMeta(runtime.Version()) + "$")},
		{"sqlite", regexp.MustCompile(`^3\.\d+\.\d+$`)},
		{"platform", regexp.MustCompile("^" + runtime.GOOS + "/" + runtime.GOARCH + "$")},
	}
	for _, tt := range tests {
		if got := lines[tt.key]; !tt.want.MatchString(got) {
			t.Errorf("%s: got %q, want a match of %s", tt.key, got, tt.want)
		}
	}
}

func TestBuildVersion(t *testing.T) {
	tests := []struct{ version, commit, wantVersion, wantCommit string }{
		// Test binaries have no main module version nor VCS stamp.
		{"", "", "devel", "unknown"},
		{"v1.2.0", "0123abcd", "v1.2.0", "0123abcd"},
	}
	for _, tt := range tests {
		v, c := buildVersion(tt.version, tt.commit)
		if v != tt.wantVersion || c != tt.wantCommit {
			t.Errorf("buildVersion(%q, %q): got %q %q, want %q %q", tt.version, tt.commit, v, c, tt.wantVersion, tt.wantCommit)
		}
	}
}

func TestVersionStrayArgument(t *testing.T) {
	var out bytes.Buffer
	e := env{stdout: &out, stderr: &out, getenv: func(string) string { return "" }}
	if err := dispatch(t.Context(), e, []string{"version", "extra"}); err == nil {
		t.Errorf("bot version extra: got no error, want one (output %q)", out.String())
	}
}
