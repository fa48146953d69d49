package main

import (
	"context"
	"errors"
)

func openPostgres(ctx context.Context, url string) (database, error) {
	return nil, errors.New("-database-url: this build has no PostgreSQL store yet")
}
