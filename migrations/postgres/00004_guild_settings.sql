-- Server settings set by admins with /ttt-admin, a guild's leaderboard
-- reset, and the index of the games a player started. The same columns as
-- SQLite's, in PostgreSQL's types.
--
-- A setting left NULL (or 0 for the cooldown) is unset: the bot's
-- configuration or its built-in default applies. Durations are seconds.
-- The bounds are those of tttbot.Settings.Validate, which the store checks
-- first; the CHECKs keep a hand edit within them.

-- +goose Up
ALTER TABLE guilds ADD COLUMN channels TEXT;          -- channel IDs games may start in, space-separated
ALTER TABLE guilds ADD COLUMN role_id TEXT;           -- the role needed to start or accept a game
ALTER TABLE guilds ADD COLUMN cooldown INTEGER NOT NULL DEFAULT 0 CHECK (cooldown BETWEEN 0 AND 3600);
ALTER TABLE guilds ADD COLUMN default_size INTEGER CHECK (default_size BETWEEN 3 AND 5);
ALTER TABLE guilds ADD COLUMN default_k INTEGER CHECK (default_k BETWEEN 3 AND 5);
ALTER TABLE guilds ADD COLUMN default_level TEXT;
ALTER TABLE guilds ADD COLUMN default_first TEXT CHECK (default_first IN ('me', 'them', 'random'));
ALTER TABLE guilds ADD COLUMN challenge_timeout INTEGER CHECK (challenge_timeout BETWEEN 30 AND 86400);
ALTER TABLE guilds ADD COLUMN turn_timeout INTEGER CHECK (turn_timeout BETWEEN 15 AND 86400);
ALTER TABLE guilds ADD COLUMN mark_x TEXT;            -- an emoji, or a custom one as <:name:id>
ALTER TABLE guilds ADD COLUMN mark_o TEXT;
ALTER TABLE guilds ADD COLUMN locale TEXT;            -- the language of public messages

-- false once the guild's leaderboard was reset after the game: the result
-- no longer counts in the guild's ratings (the global ones keep it).
ALTER TABLE results ADD COLUMN guild_rated BOOLEAN NOT NULL DEFAULT true;

-- The last game a player started in a guild, for the cooldown.
CREATE INDEX games_by_challenger ON games (challenger_id, guild_id, created_at);

-- +goose Down
DROP INDEX games_by_challenger;
ALTER TABLE results DROP COLUMN guild_rated;
ALTER TABLE guilds DROP COLUMN locale;
ALTER TABLE guilds DROP COLUMN mark_o;
ALTER TABLE guilds DROP COLUMN mark_x;
ALTER TABLE guilds DROP COLUMN turn_timeout;
ALTER TABLE guilds DROP COLUMN challenge_timeout;
ALTER TABLE guilds DROP COLUMN default_first;
ALTER TABLE guilds DROP COLUMN default_level;
ALTER TABLE guilds DROP COLUMN default_k;
ALTER TABLE guilds DROP COLUMN default_size;
ALTER TABLE guilds DROP COLUMN cooldown;
ALTER TABLE guilds DROP COLUMN role_id;
ALTER TABLE guilds DROP COLUMN channels;
