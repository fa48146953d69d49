-- The daily puzzle (see tttbot.Daily): its channel, its hour (UTC) and
-- its next post in Unix milliseconds, which DueDaily claims; NULL: off.
-- The index finds the posts due without reading every guild.

-- +goose Up
ALTER TABLE guilds ADD COLUMN daily_channel_id TEXT;
ALTER TABLE guilds ADD COLUMN daily_hour INTEGER;
ALTER TABLE guilds ADD COLUMN daily_due INTEGER;
CREATE INDEX guilds_daily_due ON guilds (daily_due) WHERE daily_due IS NOT NULL;

-- +goose Down
DROP INDEX guilds_daily_due;
ALTER TABLE guilds DROP COLUMN daily_due;
ALTER TABLE guilds DROP COLUMN daily_hour;
ALTER TABLE guilds DROP COLUMN daily_channel_id;
