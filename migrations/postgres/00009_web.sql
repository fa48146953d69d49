-- The web pages: who may be seen there, and under what name. The same change as SQLite's 00009, which says what each column
-- holds.

-- +goose Up
ALTER TABLE players ADD COLUMN avatar TEXT;
ALTER TABLE players ADD COLUMN web_id TEXT;
ALTER TABLE players ADD COLUMN public BOOLEAN NOT NULL DEFAULT false;
UPDATE players SET web_id = substr(replace(gen_random_uuid()::text, '-', ''), 1, 16);
CREATE UNIQUE INDEX players_by_web_id ON players (web_id);

ALTER TABLE guilds ADD COLUMN web_id TEXT;
CREATE UNIQUE INDEX guilds_by_web_id ON guilds (web_id);

-- +goose Down
DROP INDEX guilds_by_web_id;
ALTER TABLE guilds DROP COLUMN web_id;
DROP INDEX players_by_web_id;
ALTER TABLE players DROP COLUMN public;
ALTER TABLE players DROP COLUMN web_id;
ALTER TABLE players DROP COLUMN avatar;
