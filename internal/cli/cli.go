// Package cli parses the flags of tttbot's programs alike: flags may follow
// arguments, help goes to stdout, and a stray argument is an error rather
// than silently ignored.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// NewFlagSet returns the flag set of command, e.g. "bot migrate". Its usage
// reads "usage: COMMAND SYNOPSIS", then about (if any), then the flags, and
// goes to the flag set's output, which Parse points at stdout or stderr.
func NewFlagSet(command, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: %s %s\n\n", command, synopsis)
		if about != "" {
			fmt.Fprintf(w, "%s\n\n", about)
		}
		fmt.Fprintln(w, "flags:")
		fs.PrintDefaults()
	}
	return fs
}

// Parse parses args into fs and returns the positional arguments. Flags may
// follow positional arguments (`bot migrate up -config c.toml`), which the
// flag package alone would take as more positional arguments; "--" ends the
// flags. Asked for with -h, the usage goes to stdout and the error is
// flag.ErrHelp; after a bad flag it goes to stderr with the error.
func Parse(fs *flag.FlagSet, stdout, stderr io.Writer, args []string) ([]string, error) {
	usage := fs.Usage
	fs.Usage = func() {} // printed below, on the stream that fits
	defer func() { fs.Usage = usage }()
	fs.SetOutput(stderr)
	var positional []string
	for {
		err := fs.Parse(args)
		switch {
		case errors.Is(err, flag.ErrHelp):
			fs.SetOutput(stdout)
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

// NoArgs rejects the positional arguments of a command that takes none,
// which would otherwise be ignored: `bot run my.toml` would run on the
// defaults. It prints the usage, as a bad flag does, and the error names
// the argument, with a hint when it looks like a config file.
func NoArgs(fs *flag.FlagSet, args []string) error {
	if len(args) == 0 {
		return nil
	}
	fs.Usage()
	return fmt.Errorf("unexpected argument %q%s", args[0], ConfigHint(fs, args[0]))
}

// ConfigHint suggests -config for an argument that names a config file, when
// fs has a -config flag; fs is nil for a program's default command.
func ConfigHint(fs *flag.FlagSet, arg string) string {
	if fs != nil && fs.Lookup("config") == nil {
		return ""
	}
	if fi, err := os.Stat(arg); strings.HasSuffix(arg, ".toml") || err == nil && fi.Mode().IsRegular() {
		return fmt.Sprintf(" (did you mean -config %s?)", arg)
	}
	return ""
}
