-- rating_history: a player's rating and deviation in a scope and shape
-- just after each of their rated games, written in the transaction that
-- rates the game, for the chart of /ttt stats. A player's erasure deletes
-- their rows with their ratings, a guild's reset its scope's.

-- +goose Up
CREATE TABLE rating_history (
    scope      TEXT NOT NULL, -- guild ID, '' for global
    player_id  TEXT NOT NULL REFERENCES players (id),
    board_rows INTEGER NOT NULL,
    board_cols INTEGER NOT NULL,
    k          INTEGER NOT NULL,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    rating     REAL NOT NULL,
    rd         REAL NOT NULL CHECK (rd >= 0),
    at         INTEGER NOT NULL, -- the game's end
    PRIMARY KEY (scope, player_id, board_rows, board_cols, k, game_id)
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE rating_history;
