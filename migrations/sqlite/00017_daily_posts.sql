-- The daily puzzle's posts, one per guild and day (YYYY-MM-DD, UTC), and
-- each member's first solve of one, whose count and fastest the post shows.

-- +goose Up
CREATE TABLE daily_posts (
	guild_id   TEXT NOT NULL,
	day        TEXT NOT NULL,
	puzzle_id  TEXT NOT NULL,
	channel_id TEXT NOT NULL,
	message_id TEXT NOT NULL,
	PRIMARY KEY (guild_id, day)
) STRICT, WITHOUT ROWID;
CREATE TABLE daily_solves (
	guild_id  TEXT NOT NULL,
	day       TEXT NOT NULL,
	player_id TEXT NOT NULL,
	took_ms   INTEGER NOT NULL,
	PRIMARY KEY (guild_id, day, player_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX daily_solves_fastest ON daily_solves (guild_id, day, took_ms, player_id);

-- +goose Down
DROP TABLE daily_solves;
DROP TABLE daily_posts;
