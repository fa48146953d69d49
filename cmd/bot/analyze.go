package main

import (
	"context"
	"errors"
)

// PLACEHOLDER: replaced by the session building this subcommand.
func analyzeCmd(ctx context.Context, e env, args []string) error {
	return errors.New("analyze: not built yet")
}
