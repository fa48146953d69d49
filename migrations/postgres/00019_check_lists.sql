-- SQLite's 00019 rewrites CHECK constraints of lists as comparisons, which
-- SQLite checks faster; PostgreSQL checks either as fast, and changes
-- nothing.

-- +goose Up

-- +goose Down
