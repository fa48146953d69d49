-- assisted: the human asked for a hint (/ttt hint) in a game against the
-- bot; such a game counts in no record against the bot. The same change as
-- SQLite's 00008.

-- +goose Up
ALTER TABLE games ADD COLUMN assisted BOOLEAN NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE games DROP COLUMN assisted;
