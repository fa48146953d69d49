-- A tournament's web page. The same change as SQLite's 00018, which says
-- what the column holds.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN web_id TEXT;
UPDATE tournaments SET web_id = substr(replace(gen_random_uuid()::text, '-', ''), 1, 16);
CREATE UNIQUE INDEX tournaments_by_web_id ON tournaments (web_id);

-- +goose Down
DROP INDEX tournaments_by_web_id;
ALTER TABLE tournaments DROP COLUMN web_id;
