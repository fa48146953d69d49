package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/settingsrow"
)

var _ tttbot.SettingsStore = (*DB)(nil)

const (
	querySettings = "SELECT " + settingsrow.Columns + " FROM guilds WHERE id = $1"
	// lockStarts serializes the games one player starts in one guild, so
	// that two at once cannot both find the cooldown over.
	lockStarts = "SELECT pg_advisory_xact_lock(hashtextextended('start ' || $1 || ' ' || $2, 0))"
)

// settingsRead is a read of a guild's settings queued on a batch.
type settingsRead struct {
	row   settingsrow.Row
	found bool
}

func (r *settingsRead) scan(row pgx.Row) error {
	err := row.Scan(r.row.Dest()...)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	r.found = err == nil
	return err
}

// queue reads the settings of guildID.
func (r *settingsRead) queue(b *pgx.Batch, guildID string) {
	b.Queue(querySettings, guildID).QueryRow(r.scan)
}

// settings are the settings read, of guildID: zero Settings when it has
// none, or in a DM.
func (r *settingsRead) settings(guildID string) (*tttbot.Settings, error) {
	if !r.found {
		return &tttbot.Settings{GuildID: guildID}, nil
	}
	return r.row.Settings(guildID)
}

// admissionRead is what a guild's rules decide a new game on, queued.
type admissionRead struct {
	settingsRead
	guildID   string
	last      *int64
	rematched *tttbot.Game
}

// queue returns the batch that locks g's challenger's starts in its
// guild and reads the guild's settings, the challenger's last game there,
// and the game g.Rematch names.
func (r *admissionRead) queue(g *tttbot.Game) *pgx.Batch {
	b := &pgx.Batch{}
	r.guildID = g.GuildID
	if g.Rematch != 0 {
		b.Queue(gamerow.QueryGame, g.Rematch).QueryRow(func(row pgx.Row) (err error) {
			r.rematched, err = gamerow.Game(row)
			return err
		})
	}
	if g.GuildID == "" {
		return b
	}
	b.Queue(lockStarts, g.GuildID, g.Challenger)
	r.settingsRead.queue(b, g.GuildID)
	b.Queue(gamerow.QueryLastStart, g.Challenger, g.GuildID).QueryRow(func(row pgx.Row) error { return row.Scan(&r.last) })
	return b
}

func (r *admissionRead) admission() (tttbot.Admission, error) {
	s, err := r.settings(r.guildID)
	if err != nil {
		return tttbot.Admission{}, err
	}
	a := tttbot.Admission{Settings: *s, Rematched: r.rematched}
	if s.Cooldown > 0 && r.last != nil {
		a.LastStart = gamerow.FromMS(*r.last)
	}
	return a, nil
}

// Settings returns a guild's settings. See tttbot.SettingsStore.
func (db *DB) Settings(ctx context.Context, guildID string) (*tttbot.Settings, error) {
	if guildID == "" {
		return &tttbot.Settings{}, nil
	}
	var r settingsRead
	if err := db.read(ctx, func() error { return r.scan(db.pool.QueryRow(ctx, querySettings, guildID)) }); err != nil {
		return nil, fmt.Errorf("read guild settings: %w", err)
	}
	return r.settings(guildID)
}

// UpdateSettings changes a guild's settings in one transaction, the
// guild's row locked. See tttbot.SettingsStore.
func (db *DB) UpdateSettings(ctx context.Context, guildID string, change func(*tttbot.Settings) error) (*tttbot.Settings, error) {
	if err := tttbot.CheckGuild(guildID); err != nil {
		return nil, err
	}
	at := db.opts.At(time.Time{})
	var s *tttbot.Settings
	err := db.write(ctx, func(ctx context.Context, t *tx) error {
		var r settingsRead
		b := &pgx.Batch{}
		b.Queue(querySaveGuild, guildID, at.UnixMilli())
		b.Queue(querySettings+" FOR UPDATE", guildID).QueryRow(r.scan)
		if err := t.begin(ctx, b); err != nil {
			return fmt.Errorf("read guild settings: %w", err)
		}
		var err error
		if s, err = r.settings(guildID); err != nil {
			return err
		}
		if err := s.Apply(change, at); err != nil {
			return err
		}
		w := &pgx.Batch{}
		w.Queue("UPDATE guilds SET ("+settingsrow.Names+") = ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) WHERE id = $1",
			append([]any{guildID}, settingsrow.From(s).Args()...)...)
		if err := t.commit(ctx, w); err != nil {
			return fmt.Errorf("save guild settings: %w", err)
		}
		return nil
	})
	if errors.Is(err, errCommitted) {
		return db.Settings(ctx, guildID)
	}
	if err != nil {
		return nil, err
	}
	db.turnTimeouts.Put(guildID, s.TurnTimeout) // for the next move as seen
	return s, nil
}

// ResetRatings deletes a guild's ratings. See tttbot.SettingsStore. It
// holds off the games finishing meanwhile, whose ratings would otherwise
// count results it marks unrated, or miss ones it does not.
func (db *DB) ResetRatings(ctx context.Context, guildID string) (int, error) {
	if err := tttbot.CheckGuild(guildID); err != nil {
		return 0, err
	}
	var n int
	err := db.write(ctx, func(ctx context.Context, t *tx) error {
		b := &pgx.Batch{}
		// A finishing game writes its ratings (ROW EXCLUSIVE) before it
		// commits its results: this waits for those under way and holds
		// back the next until the reset commits. Row locks alone would
		// let a game whose new ratings the DELETE cannot see yet commit
		// before the UPDATE, which would then mark its result unrated.
		b.Queue("LOCK TABLE ratings IN SHARE ROW EXCLUSIVE MODE")
		b.Queue("DELETE FROM ratings WHERE scope = $1", guildID).Exec(func(ct pgconn.CommandTag) error {
			n = int(ct.RowsAffected())
			return nil
		})
		// The triggers left the guild's bands at 0 players.
		b.Queue("DELETE FROM rating_counts WHERE scope = $1", guildID)
		b.Queue(gamerow.QueryResetRatingHistory, guildID)
		// The results stay, for history, replays and the global ratings,
		// but no longer count in the guild's.
		b.Queue("UPDATE results SET guild_rated = false WHERE guild_id = $1 AND guild_rated", guildID)
		return t.all(ctx, b)
	})
	return n, err
}

// DueDaily claims the daily posts due at time at. See
// tttbot.SettingsStore.
func (db *DB) DueDaily(ctx context.Context, at time.Time) (ps []tttbot.DailyPost, err error) {
	err = db.write(ctx, func(ctx context.Context, t *tx) error {
		b := &pgx.Batch{}
		b.Queue(settingsrow.QueryDueDaily, at.UnixMilli()).Query(func(rows pgx.Rows) (err error) {
			ps, err = settingsrow.DailyPosts(rows, at)
			return err
		})
		if err := t.all(ctx, b); err != nil {
			return fmt.Errorf("due daily posts: %w", err)
		}
		return nil
	})
	return ps, err
}

// DailyPosted records a daily post's message. See tttbot.SettingsStore.
func (db *DB) DailyPosted(ctx context.Context, post tttbot.DailyPost, puzzleID, messageID string) error {
	return db.write(ctx, func(ctx context.Context, t *tx) error {
		b := &pgx.Batch{}
		b.Queue(settingsrow.QueryDailyPosted, post.GuildID, settingsrow.Day(post.Day), puzzleID, post.Channel, messageID)
		if err := t.all(ctx, b); err != nil {
			return fmt.Errorf("record daily post: %w", err)
		}
		return nil
	})
}

// DailySolved records a member's solve of a daily puzzle. See
// tttbot.SettingsStore.
func (db *DB) DailySolved(ctx context.Context, guildID, puzzleID string, day time.Time, s tttbot.DailySolve) (b tttbot.DailyBoard, found bool, err error) {
	d := settingsrow.Day(day)
	err = db.write(ctx, func(ctx context.Context, t *tx) error {
		b = tttbot.DailyBoard{}
		w := &pgx.Batch{}
		w.Queue(settingsrow.QueryDailySolved, guildID, d, s.Player, s.Took.Milliseconds(), puzzleID)
		w.Queue(settingsrow.QueryDailyBoard, guildID, d, puzzleID).QueryRow(func(row pgx.Row) error {
			err := row.Scan(&b.Channel, &b.Message, &b.Solvers)
			if found = err == nil; errors.Is(err, pgx.ErrNoRows) {
				return nil
			}
			return err
		})
		w.Queue(settingsrow.QueryDailyFastest, guildID, d, tttbot.DailyFastest).Query(func(rows pgx.Rows) error {
			return settingsrow.DailyFastest(rows, &b)
		})
		if err := t.all(ctx, w); err != nil {
			return fmt.Errorf("record daily solve: %w", err)
		}
		return nil
	})
	return b, found, err
}
