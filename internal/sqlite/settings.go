package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/settingsrow"
)

var _ tttbot.SettingsStore = (*DB)(nil)

// querier runs a query for one row, in a transaction or on a pool.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

const querySettings = "SELECT " + settingsrow.Columns + " FROM guilds WHERE id = ?"

// readSettings reads a guild's settings through q: zero Settings with its
// ID when it has none, or in a DM (guildID "").
func readSettings(ctx context.Context, q querier, guildID string) (*tttbot.Settings, error) {
	if guildID == "" {
		return &tttbot.Settings{}, nil
	}
	var r settingsrow.Row
	err := q.QueryRowContext(ctx, querySettings, guildID).Scan(r.Dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return &tttbot.Settings{GuildID: guildID}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read guild settings: %w", err)
	}
	return r.Settings(guildID)
}

// Settings returns a guild's settings. See tttbot.SettingsStore.
func (db *DB) Settings(ctx context.Context, guildID string) (*tttbot.Settings, error) {
	return readSettings(uncancelled(ctx), db.r, guildID)
}

// UpdateSettings changes a guild's settings in one transaction. See
// tttbot.SettingsStore.
func (db *DB) UpdateSettings(ctx context.Context, guildID string, change func(*tttbot.Settings) error) (*tttbot.Settings, error) {
	if err := tttbot.CheckGuild(guildID); err != nil {
		return nil, err
	}
	var s *tttbot.Settings
	at := db.opts.At(time.Time{})
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		var err error
		if s, err = readSettings(ctx, tx, guildID); err != nil {
			return err
		}
		if err := s.Apply(change, at); err != nil {
			return err
		}
		return saveSettings(ctx, tx, s)
	})
	if err != nil {
		return nil, err
	}
	db.turnTimeouts.Put(guildID, s.TurnTimeout) // for the next move as seen
	return s, nil
}

// saveSettings writes every setting of s.
func saveSettings(ctx context.Context, tx *sql.Conn, s *tttbot.Settings) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO guilds (id, `+settingsrow.Names+`)
		VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
		ON CONFLICT (id) DO UPDATE SET (`+settingsrow.Names+`) =
			(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)`,
		append([]any{s.GuildID}, settingsrow.From(s).Args()...)...)
	if err != nil {
		return fmt.Errorf("save guild settings: %w", err)
	}
	return nil
}

// lastStart is when user last started a game in guildID, zero if never.
func lastStart(ctx context.Context, q querier, guildID, user string) (time.Time, error) {
	var at sql.NullInt64
	err := q.QueryRowContext(ctx, gamerow.QueryLastStart, user, guildID).Scan(&at)
	if err != nil {
		return time.Time{}, fmt.Errorf("find player's last game: %w", err)
	}
	if !at.Valid {
		return time.Time{}, nil
	}
	return gamerow.FromMS(at.Int64), nil
}

// ResetRatings deletes a guild's ratings. See tttbot.SettingsStore.
func (db *DB) ResetRatings(ctx context.Context, guildID string) (int, error) {
	if err := tttbot.CheckGuild(guildID); err != nil {
		return 0, err
	}
	var n int64
	err := db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM ratings WHERE scope = ?", guildID)
		if err != nil {
			return fmt.Errorf("delete ratings: %w", err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return fmt.Errorf("delete ratings: %w", err)
		}
		// The triggers left the guild's bands at 0 players.
		if _, err := tx.ExecContext(ctx, "DELETE FROM rating_counts WHERE scope = ?", guildID); err != nil {
			return fmt.Errorf("delete leaderboard bands: %w", err)
		}
		if _, err := tx.ExecContext(ctx, gamerow.QueryResetRatingHistory, guildID); err != nil {
			return fmt.Errorf("delete rating history: %w", err)
		}
		// The results stay, for history, replays and the global ratings,
		// but no longer count in the guild's.
		if _, err := tx.ExecContext(ctx, "UPDATE results SET guild_rated = 0 WHERE guild_id = ? AND guild_rated = 1", guildID); err != nil {
			return fmt.Errorf("mark results unrated: %w", err)
		}
		return nil
	})
	return int(n), err
}

// DueDaily claims the daily posts due at time at. See
// tttbot.SettingsStore.
func (db *DB) DueDaily(ctx context.Context, at time.Time) (ps []tttbot.DailyPost, err error) {
	var due bool
	if err := db.r.QueryRowContext(ctx, settingsrow.QueryAnyDaily, at.UnixMilli()).Scan(&due); err != nil || !due {
		if err != nil {
			err = fmt.Errorf("due daily posts: %w", err)
		}
		return nil, err
	}
	err = db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		rows, err := tx.QueryContext(ctx, settingsrow.QueryDueDaily, at.UnixMilli())
		if err != nil {
			return fmt.Errorf("due daily posts: %w", err)
		}
		defer rows.Close()
		ps, err = settingsrow.DailyPosts(rows, at)
		return err
	})
	return ps, err
}

// DailyPosted records a daily post's message. See tttbot.SettingsStore.
func (db *DB) DailyPosted(ctx context.Context, post tttbot.DailyPost, puzzleID, messageID string) error {
	return db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		if _, err := tx.ExecContext(ctx, settingsrow.QueryDailyPosted, post.GuildID, settingsrow.Day(post.Day), puzzleID, post.Channel, messageID); err != nil {
			return fmt.Errorf("record daily post: %w", err)
		}
		return nil
	})
}

// DailySolved records a member's solve of a daily puzzle. See
// tttbot.SettingsStore.
func (db *DB) DailySolved(ctx context.Context, guildID, puzzleID string, day time.Time, s tttbot.DailySolve) (b tttbot.DailyBoard, found bool, err error) {
	d := settingsrow.Day(day)
	err = db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		b = tttbot.DailyBoard{}
		if _, err := tx.ExecContext(ctx, settingsrow.QueryDailySolved, guildID, d, s.Player, s.Took.Milliseconds(), puzzleID); err != nil {
			return fmt.Errorf("record daily solve: %w", err)
		}
		err := tx.QueryRowContext(ctx, settingsrow.QueryDailyBoard, guildID, d, puzzleID).Scan(&b.Channel, &b.Message, &b.Solvers)
		if found = err == nil; errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return fmt.Errorf("read daily post: %w", err)
		}
		rows, err := tx.QueryContext(ctx, settingsrow.QueryDailyFastest, guildID, d, tttbot.DailyFastest)
		if err != nil {
			return fmt.Errorf("read daily solves: %w", err)
		}
		defer rows.Close()
		return settingsrow.DailyFastest(rows, &b)
	})
	return b, found, err
}
