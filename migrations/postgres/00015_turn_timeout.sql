-- A game's own turn timeout, in seconds (see tttbot.Game.TurnTimeout): a
-- tournament's move timeout, which its games keep over the guild's.
-- NULL: the guild's, else the bot's.

-- +goose Up
ALTER TABLE games ADD COLUMN turn_timeout BIGINT;

-- +goose Down
ALTER TABLE games DROP COLUMN turn_timeout;
