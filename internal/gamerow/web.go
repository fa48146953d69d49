package gamerow

import (
	"context"
	"fmt"

	"github.com/tttbot/tttbot"
)

// The web pages' queries both engines run.
const (
	// A player is added, then renamed only when the name is known and
	// differs: ON CONFLICT DO UPDATE would lock the player's row to the
	// commit even when it changes nothing (on PostgreSQL), and the bot's
	// own row is in every game against it, on every instance.
	//
	// QuerySavePlayer adds player $1 named $2 with avatar $3 ('' for none)
	// and profile ID $4 at $5, and does nothing to one already there.
	QuerySavePlayer = `INSERT INTO players (id, name, avatar, web_id, updated_at)
		VALUES ($1, $2, nullif($3, ''), $4, $5) ON CONFLICT (id) DO NOTHING`

	// QueryRenamePlayer records player $4's name $1 and avatar $2 at $3,
	// when the name is known and either differs: an unchanged player
	// costs no write. (SQLite numbers parameters in the order they first
	// appear, whatever their names: every shared query's appear in order.)
	QueryRenamePlayer = `UPDATE players SET name = $1, avatar = nullif($2, ''), updated_at = $3
		WHERE id = $4 AND $1 <> '' AND (name <> $1 OR avatar IS DISTINCT FROM nullif($2, ''))`

	// QuerySetPublic sets player $1's profile public ($5) or not, adding
	// them with name $2, avatar $3 and profile ID $4 if new, else
	// recording the name and avatar when known.
	QuerySetPublic = `INSERT INTO players (id, name, avatar, web_id, public, updated_at)
		VALUES ($1, $2, nullif($3, ''), $4, $5, $6)
		ON CONFLICT (id) DO UPDATE SET public = excluded.public, updated_at = excluded.updated_at,
		name = CASE WHEN excluded.name <> '' THEN excluded.name ELSE players.name END,
		avatar = CASE WHEN excluded.name <> '' THEN excluded.avatar ELSE players.avatar END`

	// ProfileColumns are a Profile's columns, as ScanProfile reads them.
	ProfileColumns = `id, coalesce(web_id, ''), name, coalesce(avatar, ''), public`

	QueryProfile = `SELECT ` + ProfileColumns + ` FROM players WHERE web_id = $1`

	// A player's last games everywhere, newest first.
	QueryHistoryAll = historyColumns + ` WHERE r.player_id = $1 ORDER BY r.finished_at DESC, r.game_id DESC LIMIT $2`
)

// QueryProfiles lists the profiles of the players that in, a condition on
// the column id, names.
func QueryProfiles(in string) string {
	return `SELECT ` + ProfileColumns + ` FROM players WHERE ` + in
}

// QueryTrends lists the last $6 ratings, in scope $1 ("" for the
// global ones) and shape $2×$3, K $4, of the players that in, a condition
// on the column player_id with parameter $5, names: player, time, rating,
// deviation, oldest first.
func QueryTrends(in string) string {
	return `SELECT player_id, at, rating, rd FROM (
		SELECT player_id, game_id, at, rating, rd,
			row_number() OVER (PARTITION BY player_id ORDER BY game_id DESC) AS n
		FROM rating_history
		WHERE scope = $1 AND board_rows = $2 AND board_cols = $3 AND k = $4 AND ` + in + `) AS h
		WHERE n <= $6 ORDER BY player_id, game_id`
}

// ScanProfile reads the ProfileColumns of row.
func ScanProfile(row Scanner) (p tttbot.Profile, err error) {
	err = row.Scan(&p.ID, &p.WebID, &p.Name, &p.Avatar, &p.Public)
	return p, err
}

// Profiles reads the rows of QueryProfiles.
func Profiles(rows Rows) (map[string]tttbot.Profile, error) {
	ps, err := collect(rows, ScanProfile)
	if err != nil {
		return nil, err
	}
	out := make(map[string]tttbot.Profile, len(ps))
	for _, p := range ps {
		out[p.ID] = p
	}
	return out, nil
}

// Trends reads the rows of QueryTrends.
func Trends(rows Rows) (map[string][]tttbot.RatingPoint, error) {
	out := map[string][]tttbot.RatingPoint{}
	for rows.Next() {
		var player string
		var p tttbot.RatingPoint
		var at int64
		if err := rows.Scan(&player, &at, &p.R, &p.RD); err != nil {
			return nil, err
		}
		p.At = FromMS(at)
		out[player] = append(out[player], p)
	}
	return out, rows.Err()
}

// ReadRecentGames returns player's last finished games in guildID, or
// everywhere when guildID is "", newest first, through q.
func ReadRecentGames(ctx context.Context, q Query, player, guildID string, limit int) (out []tttbot.HistoryEntry, err error) {
	if err := tttbot.CheckHistory(limit); err != nil {
		return nil, err
	}
	query, args := QueryHistoryAll, []any{player, limit}
	if guildID != "" {
		query, args = QueryHistory, []any{player, guildID, limit}
	}
	err = q(ctx, func(rows Rows) (err error) {
		out, err = Entries(rows)
		return err
	}, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read recent games: %w", err)
	}
	return out, nil
}
