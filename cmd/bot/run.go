package main

import (
	"context"
	"errors"
)

// PLACEHOLDER: replaced by the session building this subcommand.
func runCmd(ctx context.Context, e env, args []string) error {
	return errors.New("run: not built yet")
}
