-- The interactions that changed something, so that a replay changes nothing,
-- whichever instance it reaches.
--
-- A signed request verifies for as long as its timestamp is fresh, so a
-- recorded one sent again would run again. The store inserts an
-- interaction's ID in the transaction of its first change; a second insert
-- of the ID is a replay, refused, and its transaction rolled back. An
-- insert racing one not yet committed waits for it. Rows outlive the
-- freshness window with a margin for clock skew and are then pruned, oldest
-- IDs first: snowflakes grow with time.

-- +goose Up
CREATE TABLE interactions (
    id      BIGINT PRIMARY KEY, -- Discord's interaction ID
    seen_at BIGINT NOT NULL     -- when it was recorded
);

-- +goose Down
DROP TABLE interactions;
