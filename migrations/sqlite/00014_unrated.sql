-- Games that change no rating: those of a tournament its organiser made
-- unrated (see tttbot.Game.Unrated). They count in the history, on no
-- leaderboard.

-- +goose Up
ALTER TABLE games ADD COLUMN unrated INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE games DROP COLUMN unrated;
