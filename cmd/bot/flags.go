package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

// newFlagSet returns the flag set of subcommand name. Its usage reads
// "usage: bot NAME SYNOPSIS", then about (if any), then the flags, and goes
// to the flag set's output, which parseArgs points at stdout or stderr.
func newFlagSet(name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: bot %s %s\n\n", name, synopsis)
		if about != "" {
			fmt.Fprintf(w, "%s\n\n", about)
		}
		fmt.Fprintln(w, "flags:")
		fs.PrintDefaults()
	}
	return fs
}

// parseArgs parses args into fs and returns the positional arguments. Flags
// may follow positional arguments (`bot migrate up -config c.toml`), which
// the flag package alone would take as more positional arguments; "--" ends
// the flags. Asked for with -h, the usage goes to stdout and the error is
// flag.ErrHelp; after a bad flag it goes to stderr with the error.
func parseArgs(fs *flag.FlagSet, e env, args []string) ([]string, error) {
	usage := fs.Usage
	fs.Usage = func() {} // printed below, on the stream that fits
	defer func() { fs.Usage = usage }()
	fs.SetOutput(e.stderr)
	var positional []string
	for {
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			fs.SetOutput(e.stdout)
			usage()
			return nil, err
		case err != nil:
			usage()
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		// Parse stopped at a positional argument, or just after "--".
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// noArgs rejects the positional arguments of a subcommand that takes none,
// which would otherwise be ignored: `bot run my.toml` would run on the
// defaults. An argument that looks like a config file gets a hint.
func noArgs(fs *flag.FlagSet, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return fmt.Errorf("unexpected argument %q%s", args[0], configHint(fs, args[0]))
}

// configHint suggests -config for an argument that names a config file, when
// fs (nil for the command name itself) has a -config flag.
func configHint(fs *flag.FlagSet, arg string) string {
	if fs != nil && fs.Lookup("config") == nil {
		return ""
	}
	if fi, err := os.Stat(arg); strings.HasSuffix(arg, ".toml") || err == nil && fi.Mode().IsRegular() {
		return fmt.Sprintf(" (did you mean -config %s?)", arg)
	}
	return ""
}
