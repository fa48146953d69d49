-- The interactions that changed something, so that a replay changes nothing.
--
-- A signed request verifies for as long as its timestamp is fresh, so a
-- recorded one sent again would run again. The store inserts an
-- interaction's ID in the transaction of its first change; a second insert
-- of the ID is a replay, refused, and its transaction rolled back. Rows
-- outlive the freshness window with a margin for clock skew and are then
-- pruned.
--
-- The ID, a Discord snowflake, is the rowid: the table is one B-tree and
-- no index, so recording costs a click's commit one page more. Snowflakes
-- grow with time, so inserts append at the tree's right edge and pruning
-- takes the oldest from its left edge.

-- +goose Up
CREATE TABLE interactions (
    id      INTEGER PRIMARY KEY, -- Discord's interaction ID
    seen_at INTEGER NOT NULL     -- when it was recorded
) STRICT;

-- +goose Down
DROP TABLE interactions;
