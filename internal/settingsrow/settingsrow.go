// Package settingsrow is a guild's settings as both stores keep them: the
// columns of the guilds table that /ttt-admin sets, read and written with
// the same SQL in SQLite and PostgreSQL, so that internal/sqlite and
// internal/postgres decode and encode them in one place; and the turn
// timeouts both remember between reads (TurnTimeouts).
package settingsrow

import (
	"fmt"
	"strings"
	"time"

	"github.com/tttbot/tttbot"
)

// Columns are the settings' columns of guilds, in Row.Dest's order: what a
// store selects to read them.
const Columns = `simultaneous_games, coalesce(channels, ''), coalesce(role_id, ''), cooldown,
	coalesce(default_size, 0), coalesce(default_k, 0), coalesce(default_level, ''), coalesce(default_first, ''),
	coalesce(challenge_timeout, 0), coalesce(turn_timeout, 0), coalesce(mark_x, ''), coalesce(mark_o, ''),
	coalesce(locale, ''), coalesce(web_id, ''), coalesce(tournament_role_id, ''),
	coalesce(daily_channel_id, ''), coalesce(daily_hour, 0), coalesce(daily_due, 0), updated_at`

// QueryByWebID reads the guild whose web page has the opaque ID $1: its
// ID, then Columns.
const QueryByWebID = "SELECT id, " + Columns + " FROM guilds WHERE web_id = $1"

// Names are the columns a store writes, in Row.Args's order.
const Names = `simultaneous_games, channels, role_id, cooldown, default_size, default_k, default_level,
	default_first, challenge_timeout, turn_timeout, mark_x, mark_o, locale, web_id, tournament_role_id,
	daily_channel_id, daily_hour, daily_due, updated_at`

// Row is a guild's settings as stored: NULL or 0 for a setting left unset,
// durations in seconds, times in Unix milliseconds, channels
// space-separated, marks as messages write them.
type Row struct {
	Simultaneous         *bool
	Channels, Role       string
	Cooldown             int64
	Size, K              int64
	Level, First         string
	Challenge, Turn      int64
	MarkX, MarkO, Locale string
	Web                  string
	TournamentRole       string
	DailyChannel         string
	DailyHour, DailyDue  int64
	UpdatedAt            int64
}

// Dest is where a scan of Columns puts each column.
func (r *Row) Dest() []any {
	return []any{&r.Simultaneous, &r.Channels, &r.Role, &r.Cooldown, &r.Size, &r.K, &r.Level, &r.First,
		&r.Challenge, &r.Turn, &r.MarkX, &r.MarkO, &r.Locale, &r.Web, &r.TournamentRole,
		&r.DailyChannel, &r.DailyHour, &r.DailyDue, &r.UpdatedAt}
}

// Args are the values to write, in the order of Names: nil for NULL.
func (r Row) Args() []any {
	str := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	num := func(n int64) any {
		if n == 0 {
			return nil
		}
		return n
	}
	var simultaneous any
	if r.Simultaneous != nil {
		simultaneous = *r.Simultaneous
	}
	var hour any // 0 is midnight, NULL no daily post
	if r.DailyChannel != "" {
		hour = r.DailyHour
	}
	return []any{simultaneous, str(r.Channels), str(r.Role), r.Cooldown, num(r.Size), num(r.K), str(r.Level),
		str(r.First), num(r.Challenge), num(r.Turn), str(r.MarkX), str(r.MarkO), str(r.Locale), str(r.Web), str(r.TournamentRole),
		str(r.DailyChannel), hour, num(r.DailyDue), r.UpdatedAt}
}

// Settings decodes r as guildID's settings.
func (r Row) Settings(guildID string) (*tttbot.Settings, error) {
	s := &tttbot.Settings{
		GuildID:      guildID,
		Role:         r.Role,
		Cooldown:     time.Duration(r.Cooldown) * time.Second,
		Simultaneous: r.Simultaneous,
		Defaults: tttbot.Defaults{Size: int(r.Size), K: int(r.K), Level: r.Level,
			First: tttbot.First(r.First)},
		ChallengeTimeout: time.Duration(r.Challenge) * time.Second,
		TurnTimeout:      time.Duration(r.Turn) * time.Second,
		Locale:           r.Locale,
		Web:              r.Web,
		TournamentRole:   r.TournamentRole,
	}
	if r.DailyChannel != "" {
		s.Daily = tttbot.Daily{Channel: r.DailyChannel, Hour: int(r.DailyHour), Due: time.UnixMilli(r.DailyDue).UTC()}
	}
	if r.Channels != "" {
		s.Channels = strings.Fields(r.Channels)
	}
	if r.UpdatedAt != 0 {
		s.UpdatedAt = time.UnixMilli(r.UpdatedAt).UTC()
	}
	for _, m := range []struct {
		text string
		mark *tttbot.Mark
	}{{r.MarkX, &s.X}, {r.MarkO, &s.O}} {
		if m.text == "" {
			continue
		}
		var err error
		if *m.mark, err = tttbot.ParseMark(m.text); err != nil {
			return nil, fmt.Errorf("read guild settings: mark %q: %w", m.text, err)
		}
	}
	return s, nil
}

// From encodes s.
func From(s *tttbot.Settings) Row {
	r := Row{
		Simultaneous: s.Simultaneous,
		Channels:     strings.Join(s.Channels, " "),
		Role:         s.Role,
		Cooldown:     int64(s.Cooldown / time.Second),
		Size:         int64(s.Defaults.Size), K: int64(s.Defaults.K),
		Level: s.Defaults.Level, First: string(s.Defaults.First),
		Challenge: int64(s.ChallengeTimeout / time.Second), Turn: int64(s.TurnTimeout / time.Second),
		MarkX: s.X.String(), MarkO: s.O.String(), Locale: s.Locale, Web: s.Web, TournamentRole: s.TournamentRole,
		UpdatedAt: s.UpdatedAt.UnixMilli(),
	}
	if s.Daily.Channel != "" {
		r.DailyChannel, r.DailyHour, r.DailyDue = s.Daily.Channel, int64(s.Daily.Hour), s.Daily.Due.UnixMilli()
	}
	if s.UpdatedAt.IsZero() {
		r.UpdatedAt = 0
	}
	return r
}

// QueryDueDaily claims the daily posts due at $1 (Unix milliseconds),
// moving each guild's next post to the first of its hours after $1, and
// returns the guilds' IDs and channels (see tttbot.SettingsStore.DueDaily).
// The row's lock orders instances: the second finds it no longer due.
const QueryDueDaily = `UPDATE guilds SET daily_due = daily_due + 86400000 * (($1 - daily_due) / 86400000 + 1)
	WHERE daily_due <= $1 RETURNING id, daily_channel_id`

// QueryAnyDaily reports whether a daily post is due at $1: a read that
// spares SQLite's single writer the claim on the timers' every tick.
const QueryAnyDaily = "SELECT EXISTS (SELECT 1 FROM guilds WHERE daily_due <= $1)"

// Rows are query results, *sql.Rows or pgx.Rows.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// DailyPosts reads the posts QueryDueDaily claimed at time at: the day's
// is at's.
func DailyPosts(rows Rows, at time.Time) ([]tttbot.DailyPost, error) {
	at = at.UTC()
	day := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
	var out []tttbot.DailyPost
	for rows.Next() {
		p := tttbot.DailyPost{Day: day}
		if err := rows.Scan(&p.GuildID, &p.Channel); err != nil {
			return nil, fmt.Errorf("read daily post: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read daily posts: %w", err)
	}
	return out, nil
}

// The daily posts' statements (see tttbot.SettingsStore.DailyPosted and
// DailySolved); days are YYYY-MM-DD. SQLite numbers $N parameters in the
// order they first appear: each statement names them in order.
const (
	// QueryDailyPosted takes the guild, day, puzzle, channel and message.
	QueryDailyPosted = `INSERT INTO daily_posts (guild_id, day, puzzle_id, channel_id, message_id)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`
	// QueryDailySolved takes the guild, day, player, milliseconds taken
	// and puzzle: a solve of another puzzle than the day's is not one.
	QueryDailySolved = `INSERT INTO daily_solves (guild_id, day, player_id, took_ms)
		SELECT $1, $2, $3, $4 FROM daily_posts WHERE guild_id = $1 AND day = $2 AND puzzle_id = $5
		ON CONFLICT DO NOTHING`
	// QueryDailyBoard takes the guild, day and puzzle: the post's channel,
	// message and solvers.
	QueryDailyBoard = `SELECT channel_id, message_id,
		(SELECT count(*) FROM daily_solves s WHERE s.guild_id = p.guild_id AND s.day = p.day)
		FROM daily_posts p WHERE guild_id = $1 AND day = $2 AND puzzle_id = $3`
	// QueryDailyFastest takes the guild, day and how many.
	QueryDailyFastest = `SELECT player_id, took_ms FROM daily_solves WHERE guild_id = $1 AND day = $2
		ORDER BY took_ms, player_id LIMIT $3`
)

// Day is day's key in the daily tables.
func Day(day time.Time) string { return day.UTC().Format(time.DateOnly) }

// DailyFastest reads QueryDailyFastest's rows into b.
func DailyFastest(rows Rows, b *tttbot.DailyBoard) error {
	for rows.Next() {
		var s tttbot.DailySolve
		var ms int64
		if err := rows.Scan(&s.Player, &ms); err != nil {
			return fmt.Errorf("read daily solves: %w", err)
		}
		s.Took = time.Duration(ms) * time.Millisecond
		b.Fastest = append(b.Fastest, s)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read daily solves: %w", err)
	}
	return nil
}
