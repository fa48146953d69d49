package main

import (
	"context"
	"errors"
)

// PLACEHOLDER: replaced by the session building this subcommand.
func migrateCmd(ctx context.Context, e env, args []string) error {
	return errors.New("migrate: not built yet")
}
