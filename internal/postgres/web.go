package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/settingsrow"
)

var _ tttbot.WebStore = (*DB)(nil)

// A list of IDs goes to PostgreSQL as one array.
var (
	queryProfiles = gamerow.QueryProfiles("id = ANY($1)")
	queryTrends   = gamerow.QueryTrends("player_id = ANY($5)")
)

// WebGuild returns the guild whose page is webID. See tttbot.WebStore.
func (db *DB) WebGuild(ctx context.Context, webID string) (*tttbot.Settings, error) {
	if !tttbot.ValidWebID(webID) {
		return nil, tttbot.ErrNotFound
	}
	var id string
	var row settingsrow.Row
	err := db.read(ctx, func() error {
		return db.pool.QueryRow(ctx, settingsrow.QueryByWebID, webID).Scan(append([]any{&id}, row.Dest()...)...)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, tttbot.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read web guild: %w", err)
	}
	return row.Settings(id)
}

// Profile returns the player whose profile is webID. See tttbot.WebStore.
func (db *DB) Profile(ctx context.Context, webID string) (*tttbot.Profile, error) {
	if !tttbot.ValidWebID(webID) {
		return nil, tttbot.ErrNotFound
	}
	var p tttbot.Profile
	err := db.read(ctx, func() (err error) {
		p, err = gamerow.ScanProfile(db.pool.QueryRow(ctx, gamerow.QueryProfile, webID))
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, tttbot.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read profile: %w", err)
	}
	return &p, nil
}

// Profiles returns the players of ids. See tttbot.WebStore.
func (db *DB) Profiles(ctx context.Context, ids []string) (out map[string]tttbot.Profile, err error) {
	err = db.query(ctx, func(rows gamerow.Rows) (err error) {
		out, err = gamerow.Profiles(rows)
		return err
	}, queryProfiles, ids)
	if err != nil {
		return nil, fmt.Errorf("read profiles: %w", err)
	}
	return out, nil
}

// SetPublic makes p's profile public or not. See tttbot.WebStore.
func (db *DB) SetPublic(ctx context.Context, p tttbot.Player, public bool, at time.Time) error {
	at = db.opts.At(at)
	err := db.write(ctx, func(ctx context.Context, t *tx) error {
		w := &pgx.Batch{}
		w.Queue(gamerow.QuerySetPublic, p.ID, p.Name, p.Avatar, tttbot.NewWebID(), public, at.UnixMilli())
		return t.commit(ctx, w)
	})
	if err != nil && !errors.Is(err, errCommitted) {
		return fmt.Errorf("set profile public: %w", err)
	}
	return nil
}

// Trends returns players' last ratings. See tttbot.WebStore.
func (db *DB) Trends(ctx context.Context, scope string, shape tttbot.Shape, players []string, limit int) (out map[string][]tttbot.RatingPoint, err error) {
	err = db.query(ctx, func(rows gamerow.Rows) (err error) {
		out, err = gamerow.Trends(rows)
		return err
	}, queryTrends, scope, shape.Rows, shape.Cols, shape.K, players, limit)
	if err != nil {
		return nil, fmt.Errorf("read trends: %w", err)
	}
	return out, nil
}

// RecentGames returns player's last games. See tttbot.WebStore.
func (db *DB) RecentGames(ctx context.Context, player, guildID string, limit int) ([]tttbot.HistoryEntry, error) {
	return gamerow.ReadRecentGames(ctx, db.query, player, guildID, limit)
}
