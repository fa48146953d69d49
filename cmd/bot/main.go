// Command bot runs tttbot and its tools. Each subcommand lives in its own file;
// main only parses the subcommand name and wires signals.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/tttbot/tttbot/internal/cli"
	"github.com/tttbot/tttbot/internal/config"
	"github.com/tttbot/tttbot/internal/nearest"
)

// env is what a subcommand may touch of the process, so tests can run one.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	environ        func() []string // nil: no check of the variables' names
}

// loadConfig loads the configuration at path (see config.Load) with the
// environment's overrides, refusing a misspelt TTTBOT_ variable.
func loadConfig(path string, e env) (config.Config, error) {
	if e.environ != nil {
		if err := config.CheckEnviron(e.environ()); err != nil {
			return config.Config{}, err
		}
	}
	return config.Load(path, e.getenv)
}

type command struct {
	name, usage string
	run         func(ctx context.Context, e env, args []string) error
}

func subcommands() []command {
	return []command{
		{"run", "run the bot (the default)", runCmd},
		{"register", "register the slash commands and exit", registerCmd},
		{"migrate", "apply or inspect database migrations: up, status, down", migrateCmd},
		{"migrate-data", "copy a SQLite database into an empty PostgreSQL one", migrateDataCmd},
		{"backup", "write a consistent copy of the live database", backupCmd},
		{"forget", "erase a player who asked to be forgotten", forgetCmd},
		{"healthcheck", "ask the running bot's /healthz; exit 0 if healthy, else 1", healthcheckCmd},
		{"analyze", "analyze boards with the solver", analyzeCmd},
		{"arena", "play AI levels against each other", arenaCmd},
		{"puzzles", "generate puzzles from random and self-play games", puzzlesCmd},
		{"render", "write sample pictures: a rating chart, a replay, a judged position", renderCmd},
		{"version", "print the version, commit, Go and SQLite versions", versionCmd},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := dispatch(ctx, env{os.Stdin, os.Stdout, os.Stderr, os.Getenv, os.Environ}, os.Args[1:])
	stop()
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		var ex exitError
		if !errors.As(err, &ex) {
			fmt.Fprintln(os.Stderr, "bot:", err)
		}
		os.Exit(1)
	}
}

// exitError ends the process with status 1 once the subcommand has already
// reported its problems itself.
type exitError struct{}

func (exitError) Error() string { return "exit status 1" }

func dispatch(ctx context.Context, e env, args []string) error {
	name := "run"
	switch {
	case len(args) > 0 && isHelpFlag(args[0]):
		printCommands(e.stdout)
		return nil
	case len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-':
		name, args = args[0], args[1:]
	}
	if name == "help" {
		switch len(args) {
		case 0:
			printCommands(e.stdout)
			return nil
		case 1:
			name, args = args[0], []string{"-h"} // the command prints its own help
		default:
			return fmt.Errorf("help: want one command, got %q", args)
		}
	}
	for _, c := range subcommands() {
		if c.name == name {
			return c.run(ctx, e, args)
		}
	}
	fmt.Fprintf(e.stderr, "bot: unknown command %q%s\n\n", name, commandHint(name))
	printCommands(e.stderr)
	return exitError{}
}

// commandHint suggests -config for a name that looks like a config file,
// else the subcommand the name was probably meant to be.
func commandHint(name string) string {
	if hint := cli.ConfigHint(nil, name); hint != "" {
		return hint
	}
	names := []string{"help"}
	for _, c := range subcommands() {
		names = append(names, c.name)
	}
	if best := nearest.Word(name, names, 3); best != "" {
		return fmt.Sprintf(" (did you mean %s?)", best)
	}
	return ""
}

// isHelpFlag reports whether arg asks for help the way the flag package
// understands it.
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "-help", "--h", "--help":
		return true
	}
	return false
}

func printCommands(w io.Writer) {
	fmt.Fprintln(w, "usage: bot [command] [flags]\n\ncommands:")
	width := 0
	for _, c := range subcommands() {
		width = max(width, len(c.name))
	}
	for _, c := range subcommands() {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.usage)
	}
	fmt.Fprintln(w, "\nRun 'bot help COMMAND' or 'bot COMMAND -h' for a command's flags.")
}
