package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tttbot/tttbot/internal/nearest"
)

// TokenVar is the variable of discord.token: the name every Discord bot
// host expects.
const TokenVar = "DISCORD_TOKEN"

// TestPrefix starts the variables of the project's tests, such as
// TTTBOT_TEST_POSTGRES: no key's variable starts with it.
const TestPrefix = "TTTBOT_TEST_"

// EnvVar is the environment variable that sets key: TTTBOT_ and the key in
// capitals with "_" for ".", as TTTBOT_GAME_TURN_TIMEOUT sets
// game.turn_timeout; discord.token's is TokenVar.
func EnvVar(key string) string {
	if key == "discord.token" {
		return TokenVar
	}
	return "TTTBOT_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// Keys lists every key, such as "game.turn_timeout", in the order of the
// file, read from Config's toml tags so that a new key is listed, and gets
// its variable, without more code.
func Keys() []string {
	var keys []string
	fields(reflect.ValueOf(&Config{}).Elem(), func(key string, _ reflect.Value) {
		keys = append(keys, key)
	})
	return keys
}

// fields calls f with every key of the config c and its field.
func fields(c reflect.Value, f func(key string, v reflect.Value)) {
	for i := range c.NumField() {
		table := c.Field(i)
		name := c.Type().Field(i).Tag.Get("toml")
		for j := range table.NumField() {
			f(name+"."+table.Type().Field(j).Tag.Get("toml"), table.Field(j))
		}
	}
}

// envSet records which keys were set from the environment.
type envSet map[string]bool

// applyEnv sets every key whose variable getenv returns with something
// other than spaces (nil reads none), and reports every bad value by its
// variable. An empty variable leaves the key as it was, as an unset one does.
func (c *Config) applyEnv(getenv func(string) string) (envSet, error) {
	set := envSet{}
	if getenv == nil {
		return set, nil
	}
	var errs []error
	fields(reflect.ValueOf(c).Elem(), func(key string, v reflect.Value) {
		name := EnvVar(key)
		// Values are trimmed: an environment file or a secret often ends
		// in a newline.
		s := strings.TrimSpace(getenv(name))
		if s == "" {
			return
		}
		if err := setEnv(v, s); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			return
		}
		set[key] = true
	})
	return set, errors.Join(errs...)
}

// setEnv parses s into the field v, as its type is written in a variable.
func setEnv(v reflect.Value, s string) error {
	switch {
	case v.Type() == reflect.TypeFor[Duration]():
		d, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("want a number and a unit, e.g. 90s or 2m, got %q", s)
		}
		v.Set(reflect.ValueOf(Duration{d}))
	case v.Kind() == reflect.String: // string and Secret
		v.SetString(s)
	case v.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", s)
		}
		v.SetBool(b)
	case v.Kind() == reflect.Int:
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("want a whole number, e.g. 512, got %q", s)
		}
		v.SetInt(int64(n))
	case v.Type() == reflect.TypeFor[[]string]():
		var list []string
		for item := range strings.SplitSeq(s, ",") {
			if item = strings.TrimSpace(item); item != "" {
				list = append(list, item)
			}
		}
		v.Set(reflect.ValueOf(list))
	default:
		// Keys are checked to have a case here by TestEnvSetsEveryKey.
		return fmt.Errorf("cannot be set from the environment (a %s)", v.Type())
	}
	return nil
}

// CheckEnviron refuses a variable in environ ("NAME=value" pairs, as
// os.Environ gives them) that starts with TTTBOT_ but sets no key, so that
// a misspelt variable does not go unnoticed, as a misspelt key in the file
// does not. Variables starting with TestPrefix are the project's tests',
// which run bots in the environment that sets them.
func CheckEnviron(environ []string) error {
	var known []string
	for _, key := range Keys() {
		known = append(known, EnvVar(key))
	}
	var errs []error
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, "TTTBOT_") || strings.HasPrefix(name, TestPrefix) || slices.Contains(known, name) {
			continue
		}
		hint := ""
		if best := nearest.Word(name, known, 4); best != "" {
			hint = fmt.Sprintf(" (did you mean %s?)", best)
		}
		errs = append(errs, fmt.Errorf("unknown variable %s%s", name, hint))
	}
	if len(errs) > 0 {
		return fmt.Errorf("environment: %w", errors.Join(errs...))
	}
	return nil
}
