-- A tournament's web page (see internal/web): tournaments.web_id is the
-- opaque ID in its address, random, so that the address tells nothing of
-- the tournament's number or guild; the page shows only while the guild's
-- web pages are on. Existing tournaments get one too. The same change as
-- PostgreSQL's 00018.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN web_id TEXT;
UPDATE tournaments SET web_id = lower(hex(randomblob(8)));
CREATE UNIQUE INDEX tournaments_by_web_id ON tournaments (web_id);

-- +goose Down
DROP INDEX tournaments_by_web_id;
ALTER TABLE tournaments DROP COLUMN web_id;
