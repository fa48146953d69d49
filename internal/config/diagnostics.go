package config

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/tttbot/tttbot/internal/nearest"
)

// parse decodes a file's contents over the defaults, strictly. Errors start
// with name and the line, one line per problem.
func parse(name string, data []byte) (Config, error) {
	cfg := Default()
	err := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().Decode(&cfg)
	var strict *toml.StrictMissingError
	var decode *toml.DecodeError
	switch {
	case err == nil:
		cfg.Discord.Token = Secret(strings.TrimSpace(string(cfg.Discord.Token)))
		return cfg, nil
	case errors.As(err, &strict):
		errs := make([]error, len(strict.Errors))
		for i, e := range strict.Errors {
			row, _ := e.Position()
			key := strings.Join(e.Key(), ".")
			errs[i] = fmt.Errorf("%s:%d: unknown key %q%s", name, row, key, suggest(key))
		}
		return Config{}, errors.Join(errs...)
	case errors.As(err, &decode):
		row, col := decode.Position()
		msg := strings.TrimPrefix(decode.Error(), "toml: ")
		key := strings.Join(decode.Key(), ".")
		// A bad value of a known key: say what the key takes rather than
		// go-toml's message, which names Go types. Other errors (syntax, a
		// duplicate key) carry no full key, and their column helps.
		t, ok := keyTypes()[key]
		switch {
		case ok && strings.HasPrefix(msg, "cannot decode"):
			return Config{}, fmt.Errorf("%s:%d: %s: want %s", name, row, key, describe(t))
		case ok:
			return Config{}, fmt.Errorf("%s:%d: %s: %s", name, row, key, msg)
		}
		return Config{}, fmt.Errorf("%s:%d:%d: %s", name, row, col, msg)
	}
	// go-toml hands a number, boolean or date given to a duration key to
	// Duration.UnmarshalText, and returns its error without the key or line.
	if key, row := nonString(data, reflect.TypeFor[Duration]()); key != "" {
		return Config{}, fmt.Errorf("%s:%d: %s: %w", name, row, key, err)
	}
	return Config{}, fmt.Errorf("%s: %w", name, err)
}

// nonString finds the first key of type t in data whose value is not a
// string, and its line; the key is empty if there is none.
func nonString(data []byte, t reflect.Type) (key string, line int) {
	types := keyTypes()
	walk(data, func(k string, l int, v *unstable.Node) bool {
		if v != nil && types[k] == t && v.Kind != unstable.String {
			key, line = k, l
			return false
		}
		return true
	})
	return key, line
}

// lines maps each key and table that data sets to the line it starts on: a
// table's is its header's, or its first key's when it has none, as with
// dotted keys and inline tables.
func lines(data []byte) map[string]int {
	m := make(map[string]int)
	walk(data, func(key string, line int, _ *unstable.Node) bool {
		for k := key; ; k = k[:strings.LastIndex(k, ".")] {
			if _, ok := m[k]; !ok {
				m[k] = line
			}
			if !strings.Contains(k, ".") {
				return true
			}
		}
	})
	return m
}

// walk calls f with each table header of the TOML document data, its value
// nil, and each key-value, those of inline tables too: the full key, such
// as "game.turn_timeout", the line it starts on, and the value. It stops
// when f returns false, or at a syntax error.
func walk(data []byte, f func(key string, line int, v *unstable.Node) bool) {
	var p unstable.Parser
	p.Reset(data)
	// key appends the parts of a key to prefix, and gives its line.
	key := func(prefix []string, it unstable.Iterator) ([]string, int) {
		k, line := slices.Clone(prefix), 0
		for it.Next() {
			if line == 0 {
				line = p.Shape(it.Node().Raw).Start.Line
			}
			k = append(k, string(it.Node().Data))
		}
		return k, line
	}
	var visit func(prefix []string, kv *unstable.Node) bool
	visit = func(prefix []string, kv *unstable.Node) bool {
		k, line := key(prefix, kv.Key())
		v := kv.Value()
		if !f(strings.Join(k, "."), line, v) {
			return false
		}
		if v.Kind == unstable.InlineTable {
			for it := v.Children(); it.Next(); {
				if !visit(k, it.Node()) {
					return false
				}
			}
		}
		return true
	}
	var table []string
	for p.NextExpression() {
		switch e := p.Expression(); e.Kind {
		case unstable.Table, unstable.ArrayTable:
			var line int
			table, line = key(nil, e.Key())
			if !f(strings.Join(table, "."), line, nil) {
				return
			}
		case unstable.KeyValue:
			if !visit(table, e) {
				return
			}
		}
	}
}

// type, read from Config's toml tags.
func keyTypes() map[string]reflect.Type {
	keys := make(map[string]reflect.Type)
	ct := reflect.TypeFor[Config]()
	for i := range ct.NumField() {
		table := ct.Field(i)
		name := table.Tag.Get("toml")
		keys[name] = table.Type
		for j := range table.Type.NumField() {
			f := table.Type.Field(j)
			keys[name+"."+f.Tag.Get("toml")] = f.Type
		}
	}
	return keys
}

// describe says what a value of type t looks like in TOML.
func describe(t reflect.Type) string {
	switch {
	case t == reflect.TypeFor[Duration]():
		return `a duration in quotes, e.g. "90s" or "2m"`
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Int:
		return "a whole number, e.g. 512"
	case t.Kind() == reflect.String:
		return "a string in quotes"
	case t.Kind() == reflect.Slice:
		return `an array of IDs in quotes, e.g. ["123456789012345678"]`
	case t.Kind() == reflect.Struct:
		return "a table"
	}
	return t.String()
}

// suggest names the known key an unknown one was probably meant to be: one
// with the same last part (a key in the wrong table) or a near spelling.
func suggest(unknown string) string {
	last := unknown[strings.LastIndex(unknown, ".")+1:]
	best, bestDist := "", 3
	for key := range keyTypes() {
		d := nearest.Distance(unknown, key)
		if key[strings.LastIndex(key, ".")+1:] == last {
			d = 0
		}
		if d < bestDist || d == bestDist && key < best {
			best, bestDist = key, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
