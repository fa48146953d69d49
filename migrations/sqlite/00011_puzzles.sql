-- Puzzles (see tttbot.Puzzle): positions with a forced win for the side to
-- move, mined from the games or shipped with the bot, each rated like a
-- player; the players' puzzle ratings, apart from their game ratings; and
-- their attempts, which say which puzzles a player has seen.
--
-- (Version 11: 8 to 10 were taken when this was written.)

-- +goose Up
CREATE TABLE puzzles (
    id         TEXT PRIMARY KEY,              -- shape and canonical cells: one per position up to symmetry
    board_rows INTEGER NOT NULL CHECK (board_rows BETWEEN 3 AND 5),
    board_cols INTEGER NOT NULL CHECK (board_cols BETWEEN 3 AND 5),
    k          INTEGER NOT NULL CHECK (k BETWEEN 3 AND max(board_rows, board_cols)),
    start      TEXT NOT NULL,                 -- game notation; the side to move solves
    line       TEXT NOT NULL,                 -- the main line, as tttbot.FormatLine writes it
    plies      INTEGER NOT NULL CHECK (plies % 2 = 1),
    kind       TEXT NOT NULL CHECK (kind IN ('missed', 'found')),
    game_id    INTEGER,                        -- the game it was mined from; NULL for the starter set's
    rating     REAL NOT NULL,               -- Glicko-2, on the Glicko scale
    rd         REAL NOT NULL CHECK (rd >= 0),
    sigma      REAL NOT NULL CHECK (sigma > 0),
    attempts   INTEGER NOT NULL CHECK (attempts >= 0), -- rated attempts: players' first
    solves     INTEGER NOT NULL CHECK (solves BETWEEN 0 AND attempts),
    created_at INTEGER NOT NULL
) STRICT;

-- Choosing a puzzle near a player's rating, of any shape or of one: a walk
-- up and down the index, which holds the IDs to skip the puzzles seen.
CREATE INDEX puzzles_by_rating ON puzzles (rating, id);
CREATE INDEX puzzles_by_shape ON puzzles (board_rows, board_cols, k, rating, id);

CREATE TABLE puzzle_ratings (
    player_id    TEXT PRIMARY KEY REFERENCES players (id),
    rating       REAL NOT NULL,
    rd           REAL NOT NULL CHECK (rd >= 0),
    sigma        REAL NOT NULL CHECK (sigma > 0),
    attempts     INTEGER NOT NULL CHECK (attempts >= 0), -- rated attempts
    solves       INTEGER NOT NULL CHECK (solves BETWEEN 0 AND attempts),
    streak       INTEGER NOT NULL CHECK (streak >= 0), -- rated solves in a row
    best_streak  INTEGER NOT NULL CHECK (best_streak >= streak),
    updated_at   INTEGER NOT NULL,
    conservative REAL GENERATED ALWAYS AS (rating - 2 * rd) STORED
) STRICT;

-- The puzzle leaderboard, read backwards: best first.
CREATE INDEX puzzle_ratings_ranked ON puzzle_ratings (conservative, player_id) WHERE attempts >= 5;

CREATE TABLE puzzle_attempts (
    player_id TEXT NOT NULL REFERENCES players (id),
    puzzle_id TEXT NOT NULL REFERENCES puzzles (id),
    at        INTEGER NOT NULL,
    solved    INTEGER NOT NULL CHECK (solved IN (0, 1)),
    rated     INTEGER NOT NULL CHECK (rated IN (0, 1)),               -- the player's first attempt at the puzzle
    plies     INTEGER NOT NULL CHECK (plies >= 0),
    took_ms   INTEGER NOT NULL CHECK (took_ms >= 0),
    PRIMARY KEY (player_id, puzzle_id, at)
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_ratings;
DROP TABLE puzzles;
