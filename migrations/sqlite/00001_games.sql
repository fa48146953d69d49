-- The first schema: guilds, players, games with their challenge, moves and
-- per-player results.
--
-- Times are Unix milliseconds (UTC). Guild, channel, message and user IDs are
-- Discord snowflakes, kept as text. A column that may be unknown is NULL, never ''.

-- +goose Up
CREATE TABLE guilds (
    id                 TEXT PRIMARY KEY,
    -- NULL until an admin sets it: the bot's configured default applies.
    simultaneous_games INTEGER CHECK (simultaneous_games IN (0, 1)),
    updated_at         INTEGER NOT NULL
) STRICT;

CREATE TABLE players (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL DEFAULT '', -- last display name seen
    updated_at INTEGER NOT NULL
) STRICT;

-- A challenge and the match that follows it. The bot plays under its own user
-- ID, with bot_level set.
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    guild_id      TEXT REFERENCES guilds (id), -- NULL in a DM
    channel_id    TEXT NOT NULL,
    message_id    TEXT,                        -- the board message, once sent
    board_rows    INTEGER NOT NULL CHECK (board_rows BETWEEN 3 AND 5),
    board_cols    INTEGER NOT NULL CHECK (board_cols BETWEEN 3 AND 5),
    k             INTEGER NOT NULL CHECK (k BETWEEN 3 AND max(board_rows, board_cols)),
    challenger_id TEXT NOT NULL REFERENCES players (id),
    opponent_id   TEXT NOT NULL REFERENCES players (id),
    bot_level     TEXT,                        -- the bot's difficulty when it plays
    x_player_id   TEXT REFERENCES players (id),
    o_player_id   TEXT REFERENCES players (id),
    status        TEXT NOT NULL CHECK (status IN ('pending', 'active', 'finished', 'declined', 'expired', 'cancelled')),
    board         TEXT NOT NULL,               -- game notation, e.g. 'XO./.X./..O'
    turn_id       TEXT REFERENCES players (id),
    version       INTEGER NOT NULL CHECK (version >= 1),
    deadline      INTEGER,                     -- challenge expiry or turn timeout
    winner_id     TEXT REFERENCES players (id),
    reason        TEXT CHECK (reason IN ('line', 'draw', 'resign', 'timeout')),
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    finished_at   INTEGER,                     -- when the game or challenge closed
    CHECK (challenger_id <> opponent_id),
    CHECK ((status IN ('pending', 'active')) = (finished_at IS NULL)),
    CHECK ((status = 'active') = (turn_id IS NOT NULL)),
    CHECK ((status = 'finished') = (reason IS NOT NULL)),
    CHECK ((x_player_id IS NULL) = (o_player_id IS NULL)),
    CHECK (status NOT IN ('active', 'finished') OR x_player_id IS NOT NULL)
) STRICT;

-- Open games by channel and player: the one-game-per-channel and
-- one-game-per-player rules, and finding a player's game for a command.
CREATE INDEX games_open_by_challenger ON games (channel_id, challenger_id)
    WHERE status IN ('pending', 'active');
CREATE INDEX games_open_by_opponent ON games (channel_id, opponent_id)
    WHERE status IN ('pending', 'active');

-- Open games by deadline: the scheduler's work after a restart.
CREATE INDEX games_open_by_deadline ON games (deadline)
    WHERE status IN ('pending', 'active');

-- Every move in order, so that any game can be replayed and reviewed.
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    ply       INTEGER NOT NULL CHECK (ply >= 1),
    cell      INTEGER NOT NULL CHECK (cell BETWEEN 0 AND 24),
    player_id TEXT NOT NULL REFERENCES players (id),
    at        INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply),
    UNIQUE (game_id, cell)
) STRICT, WITHOUT ROWID;

-- One row per player of each finished game, written in the transaction that
-- ends it: the source of leaderboards, statistics, history and ratings.
CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    player_id   TEXT NOT NULL REFERENCES players (id),
    opponent_id TEXT NOT NULL REFERENCES players (id),
    guild_id    TEXT REFERENCES guilds (id), -- NULL in a DM
    outcome     TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    reason      TEXT NOT NULL CHECK (reason IN ('line', 'draw', 'resign', 'timeout')),
    bot_level   TEXT,                        -- set when the game was against the bot
    finished_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, player_id)
) STRICT, WITHOUT ROWID;

-- A server's leaderboard: covering, so counting a guild's wins reads no table row.
CREATE INDEX results_by_guild ON results (guild_id, player_id, outcome);
-- A player's history, newest first.
CREATE INDEX results_by_player ON results (player_id, finished_at);

-- +goose Down
DROP TABLE results;
DROP TABLE moves;
DROP TABLE games;
DROP TABLE players;
DROP TABLE guilds;
