package main

import (
	"context"
	"errors"
)

// PLACEHOLDER: replaced by the session building this subcommand.
func registerCmd(ctx context.Context, e env, args []string) error {
	return errors.New("register: not built yet")
}
