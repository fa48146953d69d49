package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/gamerow"
	"github.com/tttbot/tttbot/internal/settingsrow"
)

var _ tttbot.WebStore = (*DB)(nil)

// A list of IDs goes to SQLite as one JSON array, which json_each opens.
var (
	queryProfiles = gamerow.QueryProfiles("id IN (SELECT value FROM json_each($1))")
	queryTrends   = gamerow.QueryTrends("player_id IN (SELECT value FROM json_each($5))")
)

// WebGuild returns the guild whose page is webID. See tttbot.WebStore.
func (db *DB) WebGuild(ctx context.Context, webID string) (*tttbot.Settings, error) {
	if !tttbot.ValidWebID(webID) {
		return nil, tttbot.ErrNotFound
	}
	var id string
	var row settingsrow.Row
	err := db.r.QueryRowContext(uncancelled(ctx), settingsrow.QueryByWebID, webID).Scan(append([]any{&id}, row.Dest()...)...)
	if errors.Is(err, sql.ErrNoRows) {
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
	p, err := gamerow.ScanProfile(db.r.QueryRowContext(uncancelled(ctx), gamerow.QueryProfile, webID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, tttbot.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read profile: %w", err)
	}
	return &p, nil
}

// Profiles returns the players of ids. See tttbot.WebStore.
func (db *DB) Profiles(ctx context.Context, ids []string) (out map[string]tttbot.Profile, err error) {
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("read profiles: %w", err)
	}
	err = db.query(ctx, func(rows gamerow.Rows) (err error) {
		out, err = gamerow.Profiles(rows)
		return err
	}, queryProfiles, string(list))
	if err != nil {
		return nil, fmt.Errorf("read profiles: %w", err)
	}
	return out, nil
}

// SetPublic makes p's profile public or not. See tttbot.WebStore.
func (db *DB) SetPublic(ctx context.Context, p tttbot.Player, public bool, at time.Time) error {
	at = db.opts.At(at)
	return db.write(ctx, func(ctx context.Context, tx *sql.Conn) error {
		_, err := tx.ExecContext(ctx, gamerow.QuerySetPublic, p.ID, p.Name, p.Avatar, tttbot.NewWebID(), public, at.UnixMilli())
		if err != nil {
			return fmt.Errorf("set profile public: %w", err)
		}
		return nil
	})
}

// Trends returns players' last ratings. See tttbot.WebStore.
func (db *DB) Trends(ctx context.Context, scope string, shape tttbot.Shape, players []string, limit int) (out map[string][]tttbot.RatingPoint, err error) {
	list, err := json.Marshal(players)
	if err != nil {
		return nil, fmt.Errorf("read trends: %w", err)
	}
	err = db.query(ctx, func(rows gamerow.Rows) (err error) {
		out, err = gamerow.Trends(rows)
		return err
	}, queryTrends, scope, shape.Rows, shape.Cols, shape.K, string(list), limit)
	if err != nil {
		return nil, fmt.Errorf("read trends: %w", err)
	}
	return out, nil
}

// RecentGames returns player's last games. See tttbot.WebStore.
func (db *DB) RecentGames(ctx context.Context, player, guildID string, limit int) ([]tttbot.HistoryEntry, error) {
	return gamerow.ReadRecentGames(ctx, db.query, player, guildID, limit)
}
