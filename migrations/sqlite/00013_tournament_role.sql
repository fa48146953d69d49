-- The role whose members may organise tournaments besides those who can
-- manage the guild (see tttbot.Settings.TournamentRole); NULL: only they.

-- +goose Up
ALTER TABLE guilds ADD COLUMN tournament_role_id TEXT;

-- +goose Down
ALTER TABLE guilds DROP COLUMN tournament_role_id;
