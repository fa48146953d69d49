-- What several writers need: the one-open-game-per-channel rule kept by the
-- schema, and the timers' claims on due games.
--
-- A game is exclusive when it was created in a channel that allows one open
-- game at a time (the guild's setting, else the bot's default, at the time).
-- The unique index makes a second exclusive open game in a channel fail
-- whatever the code checked before; a guild that allows more creates its
-- games not exclusive. Open games from before this migration are not
-- exclusive: the setting they were created under is not known.
--
-- claimed_until is the end of the lease a timer took on a due game (Unix
-- milliseconds): other timers pass it by until then, and a timer that died
-- loses it when it runs out. Every change of the game clears it.

-- +goose Up
ALTER TABLE games ADD COLUMN exclusive INTEGER CHECK (exclusive = 1);
ALTER TABLE games ADD COLUMN claimed_until INTEGER;

CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id)
    WHERE status IN ('pending', 'active') AND exclusive = 1;

-- +goose Down
DROP INDEX games_one_open_per_channel;
ALTER TABLE games DROP COLUMN claimed_until;
ALTER TABLE games DROP COLUMN exclusive;
