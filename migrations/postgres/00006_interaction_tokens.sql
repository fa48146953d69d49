-- Games outside the channels the bot may use: where only a player installed
-- the app (a DM, a group DM, a server without the bot) or where the bot
-- cannot see the channel, it reaches a board only through the webhook of an
-- interaction on it, with that interaction's token, for 15 minutes. The
-- same change as SQLite's 00006.
--
-- webhook: every later edit of the game's board goes through token's
-- webhook, never a channel endpoint. guest: in a server that has not
-- installed the bot, whose leaderboards do not count the game. token,
-- token_expires: the latest interaction whose response was the board,
-- replaced on each click; a credential that expires within 15 minutes.

-- +goose Up
ALTER TABLE games ADD COLUMN webhook BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN guest BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN token TEXT;
ALTER TABLE games ADD COLUMN token_expires BIGINT;

-- +goose Down
ALTER TABLE games DROP COLUMN token_expires;
ALTER TABLE games DROP COLUMN token;
ALTER TABLE games DROP COLUMN guest;
ALTER TABLE games DROP COLUMN webhook;
