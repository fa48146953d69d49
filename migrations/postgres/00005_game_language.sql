-- The language of a game's messages in its channel.
--
-- A board is edited long after the interaction that posted it: a turn that
-- runs out, a challenge that expires. Those edits have no interaction to
-- tell the server's language, so the game keeps the locale code it was
-- created in. '' is the source language, for the games created before.

-- +goose Up
ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE games DROP COLUMN language;
