-- The interactions that changed something, so that a replay changes nothing.
--
-- A signed request verifies for as long as its timestamp is fresh, so a
-- recorded one sent again would run again. The store inserts an
-- interaction's ID in the transaction of its first change; a second insert
-- of the ID is a replay, refused, and its transaction rolled back. Rows
-- outlive the freshness window with a margin for clock skew and are then
-- pruned, oldest first, through seen_at's index.

-- +goose Up
CREATE TABLE interactions (
    id      TEXT PRIMARY KEY, -- Discord's interaction ID, a snowflake
    seen_at INTEGER NOT NULL  -- when it was recorded
) STRICT, WITHOUT ROWID;

CREATE INDEX interactions_by_seen ON interactions (seen_at);

-- +goose Down
DROP TABLE interactions;
