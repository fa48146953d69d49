package gamerow

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/tttbot/tttbot"
)

// TournamentColumns are a tournament's columns, as Tournament scans them.
const TournamentColumns = `id, guild_id, channel_id, organiser_id, coalesce(message_id, ''), name, format,
	board_rows, board_cols, k, rounds, round_seconds, move_seconds, unrated, status, round,
	coalesce(deadline, 0), version, created_at, updated_at, coalesce(web_id, '')`

// The tournament queries both engines run.
const (
	QueryCreateTournament = `INSERT INTO tournaments (guild_id, channel_id, organiser_id, message_id, name, format,
		board_rows, board_cols, k, rounds, round_seconds, move_seconds, unrated, status, round, deadline,
		version, created_at, updated_at, web_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, 1, $17, $17, $18) RETURNING id`
	QueryTournament        = `SELECT ` + TournamentColumns + ` FROM tournaments WHERE id = $1`
	QueryEntrants          = `SELECT player_id, rating, joined_at, withdrawn FROM tournament_entrants WHERE tournament_id = $1 ORDER BY joined_at, player_id`
	QueryTournamentGames   = `SELECT round, board, white_id, coalesce(black_id, ''), result, coalesce(game_id, 0) FROM tournament_games WHERE tournament_id = $1 ORDER BY round, board`
	QueryTournamentStatus  = `SELECT status FROM tournaments WHERE id = $1`
	QueryEntrantWithdrawn  = `SELECT withdrawn FROM tournament_entrants WHERE tournament_id = $1 AND player_id = $2`
	QueryPlayerTournaments = `SELECT t.id FROM tournaments t JOIN tournament_entrants e ON e.tournament_id = t.id
		WHERE t.guild_id = $1 AND e.player_id = $2 AND t.status = 'finished' ORDER BY t.id DESC LIMIT $3`
	QueryWebTournament    = `SELECT id FROM tournaments WHERE web_id = $1`
	QueryTournamentOfGame = `SELECT coalesce(max(tournament_id), 0) FROM tournament_games WHERE game_id = $1`
	QueryEnter            = `INSERT INTO tournament_entrants (tournament_id, player_id, rating, joined_at, withdrawn)
		SELECT $1, $2, $3, $4, false FROM tournaments WHERE id = $1 AND status = 'signup'
		ON CONFLICT (tournament_id, player_id) DO NOTHING`
	QueryLeaveSignup = `DELETE FROM tournament_entrants WHERE tournament_id = $1 AND player_id = $2
		AND EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND status = 'signup')`
	QueryWithdraw = `UPDATE tournament_entrants SET withdrawn = true WHERE tournament_id = $1 AND player_id = $2
		AND NOT withdrawn AND EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND status = 'running')`
	// QueryAdvance saves tournament $8 read at version $9, claimed until $7
	// by the instance that advances it, which then starts the round's
	// games: another that found its boards without games meanwhile would
	// start them twice.
	QueryAdvance = `UPDATE tournaments SET status = $1, round = $2, rounds = $3, deadline = $4, message_id = $5,
		updated_at = $6, version = version + 1, claimed_until = $7 WHERE id = $8 AND version = $9`
	QueryAddTournamentGame = `INSERT INTO tournament_games (tournament_id, round, board, white_id, black_id, result, game_id)
		VALUES ($1, $2, $3, $4, $5, $6, NULL)`
	// QueryLinkGame and QueryDecide set board ($2, $3, $4): tournament,
	// round, board.
	QueryLinkGame = `UPDATE tournament_games SET game_id = $1
		WHERE tournament_id = $2 AND round = $3 AND board = $4 AND game_id IS NULL AND result = 'pending'`
	QueryDecide = `UPDATE tournament_games SET result = $1
		WHERE tournament_id = $2 AND round = $3 AND board = $4 AND result = 'pending'`
	// QueryDueTournaments claims, until $1, up to $3 tournaments due at
	// $2 and not claimed: past their deadline, or running with a board of
	// the round whose game has not started (a crash between the round's
	// start and its games, or a player busy elsewhere in the channel).
	// PostgreSQL runs QueryDueTournamentsSkipLocked:
	// under READ COMMITTED two callers would read the same rows and both
	// claim them; it passes by the rows another caller holds.
	QueryDueTournaments           = dueTournaments + ") RETURNING " + TournamentColumns
	QueryDueTournamentsSkipLocked = dueTournaments + " FOR UPDATE SKIP LOCKED) RETURNING " + TournamentColumns
	dueTournaments                = `UPDATE tournaments SET claimed_until = $1 WHERE id IN (
		SELECT id FROM tournaments WHERE status IN ('signup', 'running')
			AND (deadline <= $2 OR status = 'running' AND EXISTS (SELECT 1 FROM tournament_games b
				WHERE b.tournament_id = tournaments.id AND b.round = tournaments.round AND b.game_id IS NULL
				AND b.black_id IS NOT NULL AND b.result = 'pending'))
			AND (claimed_until IS NULL OR claimed_until <= $2) ORDER BY deadline, id LIMIT $3`
)

// ForgetInTournaments are the statements that replace an erased player
// ($2) in every tournament by a placeholder, $1 followed by the
// tournament's ID (see ForgottenTournamentPrefix), withdrawn: the
// standings keep their games, and nothing ties the player's tournaments
// together.
var ForgetInTournaments = []string{
	`UPDATE tournament_entrants SET player_id = $1 || tournament_id, withdrawn = true WHERE player_id = $2`,
	`UPDATE tournament_games SET white_id = $1 || tournament_id WHERE white_id = $2`,
	`UPDATE tournament_games SET black_id = $1 || tournament_id WHERE black_id = $2`,
}

// ForgottenTournamentPrefix is the $1 of ForgetInTournaments for an erasure
// made at: one per erasure, so that two players forgotten from one
// tournament stay two. Stores pass the wall clock's time, not their own
// clock's, which a test may hold still across erasures.
func ForgottenTournamentPrefix(at time.Time) string {
	return tttbot.ForgottenPrefix + "t" + strconv.FormatInt(at.UnixNano(), 36) + ":"
}

// CheckTournament refuses a tournament no store should keep.
func CheckTournament(t *tttbot.Tournament) error {
	switch {
	case t.Name == "" || t.GuildID == "" || t.ChannelID == "" || t.Organiser == "":
		return tttbot.Errorf(tttbot.EINVALID, "a tournament needs a name, a guild, a channel and an organiser")
	case !slices.Contains([]tttbot.TournamentFormat{tttbot.Swiss, tttbot.RoundRobin, tttbot.Knockout}, t.Format):
		return tttbot.Errorf(tttbot.EINVALID, "no tournament format %q", t.Format)
	case t.Shape.Validate() != nil:
		return tttbot.ErrBadShape
	case t.RoundTime < time.Second || t.MoveTimeout < time.Second || t.Rounds < 0:
		return tttbot.Errorf(tttbot.EINVALID, "a tournament needs a round time, a move timeout and rounds ≥ 0")
	}
	return nil
}

// TournamentArgs are the values of QueryCreateTournament for t, created at.
// It gives t its web page's opaque ID (tttbot.NewWebID) when it has none.
func TournamentArgs(t *tttbot.Tournament, at time.Time) []any {
	if t.WebID == "" {
		t.WebID = tttbot.NewWebID()
	}
	return []any{t.GuildID, t.ChannelID, t.Organiser, NullString(t.MessageID), t.Name, string(t.Format),
		t.Shape.Rows, t.Shape.Cols, t.Shape.K, t.Rounds, int64(t.RoundTime / time.Second), int64(t.MoveTimeout / time.Second),
		t.Unrated, string(t.Status), t.Round, nullTime(t.Deadline), at.UnixMilli(), t.WebID}
}

// AdvanceArgs are the values of QueryAdvance for t, read at version, saved
// at.
func AdvanceArgs(t *tttbot.Tournament, version int, at time.Time) []any {
	return []any{string(t.Status), t.Round, t.Rounds, nullTime(t.Deadline), NullString(t.MessageID), at.UnixMilli(),
		at.Add(tttbot.ClaimLease).UnixMilli(), t.ID, version}
}

// TournamentGameArgs are the values of QueryAddTournamentGame for g of
// tournament id.
func TournamentGameArgs(id int64, g tttbot.TournamentGame) []any {
	if g.Result == "" {
		g.Result = tttbot.ResultPending
	}
	return []any{id, g.Round, g.Board, g.White, NullString(g.Black), string(g.Result)}
}

// CheckTournamentGames refuses games no round can hold.
func CheckTournamentGames(games []tttbot.TournamentGame) error {
	for _, g := range games {
		if g.Round < 1 || g.Board < 1 || g.White == "" || g.White == g.Black {
			return tttbot.Errorf(tttbot.EINVALID, "no tournament game %+v", g)
		}
	}
	return nil
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// Tournament reads the TournamentColumns of row; tttbot.ErrNoTournament when
// there is none.
func Tournament(row Scanner) (*tttbot.Tournament, error) {
	var t tttbot.Tournament
	var format, status string
	var roundS, moveS, deadline, created, updated int64
	err := row.Scan(&t.ID, &t.GuildID, &t.ChannelID, &t.Organiser, &t.MessageID, &t.Name, &format,
		&t.Shape.Rows, &t.Shape.Cols, &t.Shape.K, &t.Rounds, &roundS, &moveS, &t.Unrated, &status, &t.Round,
		&deadline, &t.Version, &created, &updated, &t.WebID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, tttbot.ErrNoTournament
	}
	if err != nil {
		return nil, fmt.Errorf("read tournament: %w", err)
	}
	t.Format, t.Status = tttbot.TournamentFormat(format), tttbot.TournamentStatus(status)
	t.RoundTime, t.MoveTimeout = time.Duration(roundS)*time.Second, time.Duration(moveS)*time.Second
	if deadline != 0 {
		t.Deadline = time.UnixMilli(deadline).UTC()
	}
	t.CreatedAt, t.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	return &t, nil
}

// Tournaments reads the TournamentColumns of every row, by deadline then ID.
func Tournaments(rows Rows) ([]*tttbot.Tournament, error) {
	var out []*tttbot.Tournament
	for rows.Next() {
		t, err := Tournament(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read tournaments: %w", err)
	}
	slices.SortFunc(out, func(a, b *tttbot.Tournament) int {
		return cmp.Or(a.Deadline.Compare(b.Deadline), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// Entrants reads QueryEntrants' rows.
func Entrants(rows Rows) ([]tttbot.Entrant, error) {
	var out []tttbot.Entrant
	for rows.Next() {
		var e tttbot.Entrant
		var joined int64
		if err := rows.Scan(&e.Player, &e.Rating, &joined, &e.Withdrawn); err != nil {
			return nil, fmt.Errorf("read entrants: %w", err)
		}
		e.JoinedAt = time.UnixMilli(joined).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}

// TournamentGames reads QueryTournamentGames' rows.
func TournamentGames(rows Rows) ([]tttbot.TournamentGame, error) {
	var out []tttbot.TournamentGame
	for rows.Next() {
		var g tttbot.TournamentGame
		var result string
		if err := rows.Scan(&g.Round, &g.Board, &g.White, &g.Black, &result, &g.GameID); err != nil {
			return nil, fmt.Errorf("read tournament games: %w", err)
		}
		g.Result = tttbot.TournamentResult(result)
		out = append(out, g)
	}
	return out, rows.Err()
}

// IDs reads a column of IDs.
func IDs(rows Rows) ([]int64, error) {
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read IDs: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// LeaveRefusal is why Leave changed nothing, given the tournament's status
// ("" when there is no such tournament) and whether the player is an
// entrant not yet withdrawn.
func LeaveRefusal(status string, entered bool) error {
	switch {
	case status == "":
		return tttbot.ErrNoTournament
	case status != string(tttbot.TournamentSignup) && status != string(tttbot.TournamentRunning):
		return tttbot.ErrSignupClosed
	case !entered:
		return tttbot.ErrNotEntered
	}
	return nil
}

// EnterRefusal is why Enter changed nothing, given the same.
func EnterRefusal(status string, entered bool) error {
	switch {
	case status == "":
		return tttbot.ErrNoTournament
	case status != string(tttbot.TournamentSignup):
		return tttbot.ErrSignupClosed
	}
	return tttbot.ErrAlreadyEntered
}
