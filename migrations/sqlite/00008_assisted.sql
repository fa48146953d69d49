-- assisted: the human asked for a hint (/ttt hint) in a game against the
-- bot; such a game counts in no record against the bot.

-- +goose Up
ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE games DROP COLUMN assisted;
