-- Ratings, records against the bot, and the history index.
--
-- A rating is kept per scope (a guild's ID, or '' for the global board),
-- player and board shape (rows, cols, K), and changes only in the
-- transaction that finishes a game between two people. Leaderboards rank
-- by the conservative rating, rating − 2·deviation, ties to the higher
-- player ID, and list a player once they have played 5 rated games in the
-- scope and shape.
--
-- As on SQLite, counting the players ahead of one is a walk over an index,
-- too long for 100,000 players. rating_counts keeps, per leaderboard, how
-- many ranked players have their conservative rating in each band of 16
-- points; the trigger below maintains it. A rank, or the start of a page,
-- is then a sum over a few hundred bands plus a walk within one band.

-- +goose Up
CREATE TABLE ratings (
    scope        TEXT NOT NULL,                    -- guild ID, '' for global
    player_id    TEXT NOT NULL REFERENCES players (id),
    board_rows   INTEGER NOT NULL CHECK (board_rows BETWEEN 3 AND 5),
    board_cols   INTEGER NOT NULL CHECK (board_cols BETWEEN 3 AND 5),
    k            INTEGER NOT NULL CHECK (k BETWEEN 3 AND greatest(board_rows, board_cols)),
    rating       DOUBLE PRECISION NOT NULL,        -- Glicko-2, on the Glicko scale
    rd           DOUBLE PRECISION NOT NULL CHECK (rd >= 0),
    sigma        DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    games        INTEGER NOT NULL CHECK (games = wins + losses + draws),
    wins         INTEGER NOT NULL CHECK (wins >= 0),
    losses       INTEGER NOT NULL CHECK (losses >= 0),
    draws        INTEGER NOT NULL CHECK (draws >= 0),
    streak       INTEGER NOT NULL,                 -- > 0: wins in a row, < 0: losses; 0 after a draw
    best_streak  INTEGER NOT NULL CHECK (best_streak >= 0), -- the longest run of wins
    updated_at   BIGINT NOT NULL,
    -- The rating the player is at least, with about 95% confidence.
    conservative DOUBLE PRECISION GENERATED ALWAYS AS (rating - 2 * rd) STORED,
    -- floor(conservative / 16), exactly: dividing by a power of two rounds nothing.
    band         INTEGER GENERATED ALWAYS AS (floor((rating - 2 * rd) / 16)::integer) STORED,
    PRIMARY KEY (scope, player_id, board_rows, board_cols, k)
);

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
);

-- +goose StatementBegin
CREATE FUNCTION ratings_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.games >= 5 THEN
        UPDATE rating_counts SET players = players - 1
            WHERE (scope, board_rows, board_cols, k, band) = (OLD.scope, OLD.board_rows, OLD.board_cols, OLD.k, OLD.band);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.games >= 5 THEN
        INSERT INTO rating_counts VALUES (NEW.scope, NEW.board_rows, NEW.board_cols, NEW.k, NEW.band, 1)
            ON CONFLICT (scope, board_rows, board_cols, k, band) DO UPDATE SET players = rating_counts.players + 1;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER ratings_count AFTER INSERT OR UPDATE OR DELETE ON ratings
    FOR EACH ROW EXECUTE FUNCTION ratings_count();

-- Games against the bot are not rated but counted, per difficulty.
CREATE TABLE bot_records (
    player_id  TEXT NOT NULL REFERENCES players (id),
    bot_level  TEXT NOT NULL,
    wins       INTEGER NOT NULL CHECK (wins >= 0),
    losses     INTEGER NOT NULL CHECK (losses >= 0),
    draws      INTEGER NOT NULL CHECK (draws >= 0),
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, bot_level)
);

-- A player's games in one guild (NULL: in DMs), newest first.
CREATE INDEX results_history ON results (player_id, guild_id, finished_at);

-- +goose Down
DROP INDEX results_history;
DROP TABLE bot_records;
DROP TRIGGER ratings_count ON ratings;
DROP FUNCTION ratings_count();
DROP TABLE rating_counts;
DROP TABLE ratings;
