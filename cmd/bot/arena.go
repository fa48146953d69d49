package main

import (
	"context"
	"errors"
)

// PLACEHOLDER: replaced by the session building this subcommand.
func arenaCmd(ctx context.Context, e env, args []string) error {
	return errors.New("arena: not built yet")
}
