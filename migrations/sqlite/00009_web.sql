-- The web pages: who may be seen there, and under what name.
--
-- players.avatar: the Discord avatar hash at the player's last game (NULL:
-- Discord's default avatar), recorded with the name. players.web_id: the
-- opaque ID in the address of the player's profile, random, so that no
-- page shows a Discord ID; it goes with the row when the player is
-- forgotten. players.public: 1 once the player made the profile public.
-- guilds.web_id: the opaque ID of the server's leaderboard page while its
-- admins have it on, NULL while off. The same change as PostgreSQL's
-- 00009.

-- +goose Up
ALTER TABLE players ADD COLUMN avatar TEXT;
ALTER TABLE players ADD COLUMN web_id TEXT;
ALTER TABLE players ADD COLUMN public INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1));
UPDATE players SET web_id = lower(hex(randomblob(8)));
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
