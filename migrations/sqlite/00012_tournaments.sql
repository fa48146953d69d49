-- Tournaments (see tttbot.Tournament): a guild's event from sign-up to
-- final table, its entrants and the games of its rounds.
--
-- deadline is the sign-up's end while signing up, then the current round's
-- end: a stored deadline, claimed like a game's (claimed_until, Unix
-- milliseconds) so that one timer among several instances acts on it.
-- version grows with every change of the tournament's row: a round starts
-- only from the version its pairing was read at, so it starts once.

-- +goose Up
CREATE TABLE tournaments (
    id            INTEGER PRIMARY KEY,
    guild_id      TEXT NOT NULL,
    channel_id    TEXT NOT NULL,
    organiser_id  TEXT NOT NULL,
    message_id    TEXT,                   -- the announcement, once sent
    name          TEXT NOT NULL,
    format        TEXT NOT NULL CHECK (format IN ('swiss', 'roundrobin', 'knockout')),
    board_rows    INTEGER NOT NULL CHECK (board_rows BETWEEN 3 AND 5),
    board_cols    INTEGER NOT NULL CHECK (board_cols BETWEEN 3 AND 5),
    k             INTEGER NOT NULL CHECK (k BETWEEN 3 AND max(board_rows, board_cols)),
    rounds        INTEGER NOT NULL CHECK (rounds >= 0), -- Swiss: the organiser's; else 0 until the start
    round_seconds INTEGER NOT NULL CHECK (round_seconds > 0),
    move_seconds  INTEGER NOT NULL CHECK (move_seconds > 0),
    unrated       INTEGER NOT NULL CHECK (unrated IN (0, 1)),
    status        TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round         INTEGER NOT NULL CHECK (round >= 0),
    deadline      INTEGER,                -- NULL once over
    claimed_until INTEGER,
    version       INTEGER NOT NULL CHECK (version >= 1),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL
) STRICT;

CREATE INDEX tournaments_due ON tournaments (deadline) WHERE status IN ('signup', 'running');

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    player_id     TEXT NOT NULL,
    rating        REAL NOT NULL,          -- at sign-up: the seeding's
    joined_at     INTEGER NOT NULL,
    withdrawn     INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
    PRIMARY KEY (tournament_id, player_id)
) STRICT, WITHOUT ROWID;

-- A round's pairings, one row a board; black_id NULL for a bye. result is
-- set from the game, or by the round's deadline, a bye or a forfeit.
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    board         INTEGER NOT NULL CHECK (board >= 1),
    white_id      TEXT NOT NULL,
    black_id      TEXT,
    result        TEXT NOT NULL CHECK (result IN ('pending', 'white', 'black', 'draw', 'both_lose')),
    game_id       INTEGER UNIQUE,
    PRIMARY KEY (tournament_id, round, board)
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE tournament_games;
DROP TABLE tournament_entrants;
DROP TABLE tournaments;
