package config_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/tttbot/tttbot/internal/config"
)

func TestSecret(t *testing.T) {
	tests := []struct {
		s    config.Secret
		want string
	}{
		{secret, "[redacted]"},
		{"", ""},
	}
	for _, tt := range tests {
		var outputs []string
		for _, verb := range []string{"%v", "%+v", "%s", "%x", "%d"} {
			outputs = append(outputs, fmt.Sprintf(verb, tt.s), fmt.Sprintf(verb, &tt.s))
		}
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("m", "s", tt.s)
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("m", "s", tt.s)
		b, err := json.Marshal(struct{ S config.Secret }{tt.s})
		if err != nil {
			t.Fatal(err)
		}
		outputs = append(outputs, buf.String(), string(b))
		for _, out := range outputs {
			if strings.Contains(out, secret) || strings.Contains(out, fmt.Sprintf("%x", secret)) {
				t.Errorf("secret leaked: %s", out)
			}
		}
		if got := tt.s.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
		if got := fmt.Sprintf("%q", tt.s); got != fmt.Sprintf("%q", tt.want) {
			t.Errorf("got %s, want %q", got, tt.want)
		}
	}
}
