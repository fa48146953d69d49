package main

import (
	"context"
	"errors"
)

// PLACEHOLDER: replaced by the session building this subcommand.
func backupCmd(ctx context.Context, e env, args []string) error {
	return errors.New("backup: not built yet")
}
