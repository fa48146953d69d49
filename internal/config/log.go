package config

import (
	"context"
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
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if c.Log.Format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(lazyAttrs{h: h})
}

// lazyAttrs keeps a logger's With attributes until it writes a record:
// the bot makes a logger per interaction, with its ID, and most of them
// write nothing. Text and JSON handlers format attributes in WithAttrs,
// which cost every interaction a few microseconds; here each record
// formats them, and a value that changes after With is written as it is
// then.
type lazyAttrs struct {
	h     slog.Handler
	attrs []slog.Attr
}

func (l lazyAttrs) Enabled(ctx context.Context, level slog.Level) bool {
	return l.h.Enabled(ctx, level)
}

func (l lazyAttrs) Handle(ctx context.Context, r slog.Record) error {
	return l.handler().Handle(ctx, r)
}

// WithAttrs resolves a slog.LogValuer now, as the standard handlers do.
func (l lazyAttrs) WithAttrs(attrs []slog.Attr) slog.Handler {
	kept := append(l.attrs[:len(l.attrs):len(l.attrs)], attrs...)
	for i := len(l.attrs); i < len(kept); i++ {
		kept[i].Value = kept[i].Value.Resolve()
	}
	return lazyAttrs{h: l.h, attrs: kept}
}

// WithGroup applies the attributes kept so far, which stay outside the group.
func (l lazyAttrs) WithGroup(name string) slog.Handler {
	return lazyAttrs{h: l.handler().WithGroup(name)}
}

// handler is l's handler with its attributes applied.
func (l lazyAttrs) handler() slog.Handler {
	if len(l.attrs) == 0 {
		return l.h
	}
	return l.h.WithAttrs(l.attrs)
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
