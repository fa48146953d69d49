-- Ratings, records against the bot, and the history index.
--
-- A rating is kept per scope (a guild's ID, or '' for the global board),
-- player and board shape (rows, cols, K), and changes only in the
-- transaction that finishes a game between two people. Leaderboards rank
-- by the conservative rating, rating − 2·deviation, ties to the higher
-- player ID, and list a player once they have played 5 rated games in the
-- scope and shape.
--
-- SQLite has no counted B-tree, so counting the players ahead of one is a
-- walk over them. rating_counts keeps, per leaderboard, how many ranked
-- players have their conservative rating in each band of 16 points; the
-- triggers below maintain it. A rank, or the start of a page, is then a sum
-- over a few hundred bands plus a walk within one band.

-- +goose Up
CREATE TABLE ratings (
    scope        TEXT NOT NULL,                    -- guild ID, '' for global
    player_id    TEXT NOT NULL REFERENCES players (id),
    board_rows   INTEGER NOT NULL CHECK (board_rows BETWEEN 3 AND 5),
    board_cols   INTEGER NOT NULL CHECK (board_cols BETWEEN 3 AND 5),
    k            INTEGER NOT NULL CHECK (k BETWEEN 3 AND max(board_rows, board_cols)),
    rating       REAL NOT NULL,                    -- Glicko-2, on the Glicko scale
    rd           REAL NOT NULL CHECK (rd >= 0),
    sigma        REAL NOT NULL CHECK (sigma > 0),
    games        INTEGER NOT NULL CHECK (games = wins + losses + draws),
    wins         INTEGER NOT NULL CHECK (wins >= 0),
    losses       INTEGER NOT NULL CHECK (losses >= 0),
    draws        INTEGER NOT NULL CHECK (draws >= 0),
    streak       INTEGER NOT NULL,                 -- > 0: wins in a row, < 0: losses; 0 after a draw
    best_streak  INTEGER NOT NULL CHECK (best_streak >= 0), -- the longest run of wins
    updated_at   INTEGER NOT NULL,
    -- The rating the player is at least, with about 95% confidence.
    conservative REAL GENERATED ALWAYS AS (rating - 2 * rd) STORED,
    -- floor(conservative / 16), exactly: dividing by a power of two rounds nothing.
    band         INTEGER GENERATED ALWAYS AS (CAST(conservative / 16 AS INTEGER)
                     - (conservative / 16 < CAST(conservative / 16 AS INTEGER))) VIRTUAL,
    PRIMARY KEY (scope, player_id, board_rows, board_cols, k)
) STRICT;
-- A rowid table on purpose: SQLite counts the entries of a rowid table's
-- index without visiting the table, but not those of a WITHOUT ROWID one.

-- Every leaderboard, read backwards: best first.
CREATE INDEX ratings_ranked ON ratings (scope, board_rows, board_cols, k, conservative, player_id)
    WHERE games >= 5;

CREATE TABLE rating_counts (
    scope      TEXT NOT NULL,
    board_rows INTEGER NOT NULL,
    board_cols INTEGER NOT NULL,
    k          INTEGER NOT NULL,
    band       INTEGER NOT NULL,
    players    INTEGER NOT NULL CHECK (players >= 0),
    PRIMARY KEY (scope, board_rows, board_cols, k, band)
) STRICT, WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER ratings_count_insert AFTER INSERT ON ratings WHEN NEW.games >= 5
BEGIN
    INSERT INTO rating_counts VALUES (NEW.scope, NEW.board_rows, NEW.board_cols, NEW.k, NEW.band, 1)
        ON CONFLICT DO UPDATE SET players = players + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER ratings_count_delete AFTER DELETE ON ratings WHEN OLD.games >= 5
BEGIN
    UPDATE rating_counts SET players = players - 1
        WHERE (scope, board_rows, board_cols, k, band) = (OLD.scope, OLD.board_rows, OLD.board_cols, OLD.k, OLD.band);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER ratings_count_update AFTER UPDATE ON ratings WHEN OLD.games >= 5 OR NEW.games >= 5
BEGIN
    UPDATE rating_counts SET players = players - 1
        WHERE OLD.games >= 5
          AND (scope, board_rows, board_cols, k, band) = (OLD.scope, OLD.board_rows, OLD.board_cols, OLD.k, OLD.band);
    INSERT INTO rating_counts SELECT NEW.scope, NEW.board_rows, NEW.board_cols, NEW.k, NEW.band, 1
        WHERE NEW.games >= 5
        ON CONFLICT DO UPDATE SET players = players + 1;
END;
-- +goose StatementEnd

-- Games against the bot are not rated but counted, per difficulty.
CREATE TABLE bot_records (
    player_id  TEXT NOT NULL REFERENCES players (id),
    bot_level  TEXT NOT NULL,
    wins       INTEGER NOT NULL CHECK (wins >= 0),
    losses     INTEGER NOT NULL CHECK (losses >= 0),
    draws      INTEGER NOT NULL CHECK (draws >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, bot_level)
) STRICT, WITHOUT ROWID;

-- A player's games in one guild (NULL: in DMs), newest first.
CREATE INDEX results_history ON results (player_id, guild_id, finished_at);

-- +goose Down
DROP INDEX results_history;
DROP TABLE bot_records;
DROP TABLE rating_counts;
DROP TABLE ratings;
