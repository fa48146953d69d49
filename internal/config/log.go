package config

import (
	"io"
	"log/slog"
	"reflect"
)

// NewLogger returns a logger writing to w at the configured level and format.
func (c Config) NewLogger(w io.Writer) *slog.Logger {
	var level slog.Level
	// Validate has checked the name; anything else stays at info.
	_ = level.UnmarshalText([]byte(c.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// LogValue logs every setting as a group per table, read from Config's
// toml tags as the environment variables are, so that a new key is logged
// without more code. Secrets log redacted: Secret and DatabaseURL are
// slog.LogValuers.
func (c Config) LogValue() slog.Value {
	var tables []slog.Attr
	v := reflect.ValueOf(c)
	for i := range v.NumField() {
		table := v.Field(i)
		var attrs []slog.Attr
		for j := range table.NumField() {
			attrs = append(attrs, slog.Any(table.Type().Field(j).Tag.Get("toml"), table.Field(j).Interface()))
		}
		tables = append(tables, slog.Attr{Key: v.Type().Field(i).Tag.Get("toml"), Value: slog.GroupValue(attrs...)})
	}
	return slog.GroupValue(tables...)
}
