package config

import (
	"fmt"
	"log/slog"
)

// Secret is a setting that must never be shown, such as the bot's token. It
// prints, logs and marshals as "[redacted]" whatever the verb or encoder, and
// as "" when empty, so that a missing one still shows. string(s) is the
// value itself, for the one call that needs it.
type Secret string

const redacted = "[redacted]"

// String returns "[redacted]", or "" for an empty secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// Format prints s as String does, so that no verb (%x, %d, %#v) can leak it.
func (s Secret) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), s.String())
}

// LogValue logs s as String does.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText encodes s as String does, for encoding/json and the like.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }
