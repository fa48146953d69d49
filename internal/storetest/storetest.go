// Package storetest is the contract of tttbot.Store, written once and run
// against every backend: internal/sqlite's tests run it on a database in
// t.TempDir(), internal/postgres's on a schema of its own on the server
// that TTTBOT_TEST_POSTGRES names. It covers every store method, the races
// that several players (or several bot instances) can start — clicks on
// one board, an accept against a decline, two challenges at once —,
// ratings that change exactly once per game, the timers' claims, and the
// consistency check.
package storetest

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/dbcheck"
)

// Store is what the suite tests: tttbot.Store and the health and metrics
// methods that cmd/bot wires.
type Store interface {
	tttbot.Store
	Ping(ctx context.Context) error
	ActiveGames(ctx context.Context) (int, error)
}

// Options are the store options the suite sets.
type Options struct {
	SimultaneousGames bool
	Now               func() time.Time // nil: a clock stopped at t0
}

// DB is a store under test on a database of its own, with what the suite
// needs besides.
type DB struct {
	Store

	// SQL is the same database through database/sql, for the suite's own
	// reads and for damage. Queries are written in the SQL both engines
	// speak, with placeholders $1, $2… in order of appearance.
	SQL *sql.DB

	// Check runs the backend's consistency check (sqlite.Check,
	// postgres.Check) on the database.
	Check func(ctx context.Context, acked []tttbot.Move) ([]dbcheck.Problem, error)

	// Reopen closes Store and opens the database again with the same
	// options: a restart.
	Reopen func(t testing.TB) Store

	// Lock are the statements that, run on a connection of SQL, hold the
	// store's writes of the games until ROLLBACK (and its reads, where
	// the engine's lock does), as an operator's session or a backup tool
	// does.
	Lock []string
	// LockWaiters, unless "", counts the connections waiting for a lock,
	// where the engine tells.
	LockWaiters string
}

// Opener opens a store on a new, empty database for t, closed and removed
// when t ends.
type Opener func(t testing.TB, opts Options) *DB

// Run runs the contract against the stores open makes, one subtest each.
func Run(t *testing.T, open Opener) {
	newDB := func(t testing.TB, opts Options) *DB {
		t.Helper()
		if opts.Now == nil {
			opts.Now = (&clock{t0}).Now
		}
		return open(t, opts)
	}
	for _, tt := range []struct {
		name string
		test func(t *testing.T, newDB Opener)
	}{
		{"CreateGame", testCreateGame},
		{"StartOpened", testStartOpened},
		{"StartRematch", testStartRematch},
		{"CreateGameInvalid", testCreateGameInvalid},
		{"Conflicts", testConflicts},
		{"ClosedGamesFreeTheChannel", testClosedGamesFreeTheChannel},
		{"AcceptConflict", testAcceptConflict},
		{"Accept", testAccept},
		{"Decline", testDecline},
		{"PlayErrors", testPlayErrors},
		{"PlayToTheEnd", testPlayToTheEnd},
		{"PlayWithAnswer", testPlayWithAnswer},
		{"PlayPrepared", testPlayPrepared},
		{"AnswerChecked", testAnswerChecked},
		{"PlaySeen", testPlaySeen},
		{"Resign", testResign},
		{"Assist", testAssist},
		{"DueAndExpire", testDueAndExpire},
		{"DueClaims", testDueClaims},
		{"MoveHeldPastDeadline", testMoveHeldPastDeadline},
		{"MoveHeldKeepsNextTurn", testMoveHeldKeepsNextTurn},
		{"OpenGame", testOpenGame},
		{"SetMessageAndPlayers", testSetMessageAndPlayers},
		{"WebhookGameRoundTrip", testWebhookGameRoundTrip},
		{"SetToken", testSetToken},
		{"GuestGamesRateGlobally", testGuestGamesRateGlobally},
		{"InternalErrors", testInternalErrors},
		{"Ping", testPing},
		{"ActiveGames", testActiveGames},
		{"RatedGame", testRatedGame},
		{"RatingsAccumulate", testRatingsAccumulate},
		{"RatingsAfterBreak", testRatingsAfterBreak},
		{"RatedEndings", testRatedEndings},
		{"UnratedGames", testUnratedGames},
		{"RatingExactlyOnce", testRatingExactlyOnce},
		{"LeaderboardPaging", testLeaderboardPaging},
		{"LeaderboardFromGames", testLeaderboardFromGames},
		{"History", testHistory},
		{"ReplayRefused", testReplayRefused},
		{"RefusedWriteRecordsNothing", testRefusedWriteRecordsNothing},
		{"ReplayAfterReopen", testReplayAfterReopen},
		{"PruneInteractions", testPruneInteractions},
		{"InteractionIDNotASnowflake", testInteractionIDNotASnowflake},
		{"ConcurrentMoves", testConcurrentMoves},
		{"RacingClicks", testRacingClicks},
		{"AcceptAgainstDecline", testAcceptAgainstDecline},
		{"ChallengesAtOnce", testChallengesAtOnce},
		{"ReplayAtOnce", testReplayAtOnce},
		{"ClickTwice", testClickTwice},
		{"MessageAgainRecorded", testMessageAgainRecorded},
		{"SchemaConstraints", testSchemaConstraints},
		{"Settings", testSettings},
		{"DueDaily", testDueDaily},
		{"DailySolves", testDailySolves},
		{"StartGame", testStartGame},
		{"CooldownAtOnce", testCooldownAtOnce},
		{"ResetRatings", testResetRatings},
		{"ResetWhileRating", testResetWhileRating},
		{"ForgetPlayer", testForgetPlayer},
		{"WebProfiles", testWebProfiles},
		{"WebGuild", testWebGuild},
		{"Trends", testTrends},
		{"ForgetWeb", testForgetWeb},
		{"Puzzles", testPuzzles},
		{"NextPuzzle", testNextPuzzle},
		{"PuzzleAttempts", testPuzzleAttempts},
		{"PuzzleAttemptsAtOnce", testPuzzleAttemptsAtOnce},
		{"Tournament", testTournament},
		{"WebTournament", testWebTournament},
		{"TournamentStartsOnce", testTournamentStartsOnce},
		{"DueTournaments", testDueTournaments},
		{"ForgetInTournaments", testForgetInTournaments},
		{"UnratedGame", testUnratedGame},
		{"RoundOver", testRoundOver},
		{"RoundOverUnplayed", testRoundOverUnplayed},
		{"Check", testCheck},
		{"CheckFindsDamage", testCheckFindsDamage},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.test(t, newDB) })
	}
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// clock is a settable test clock.
type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

// ratingPeriod is the contract's: a player's deviation grows for each week
// without a rated game.
const ratingPeriod = 7 * 24 * time.Hour

// wantCode fails unless err carries code.
func WantCode(t testing.TB, err error, code string) {
	t.Helper()
	if got := tttbot.ErrorCode(err); got != code {
		t.Fatalf("got error %v (code %q), want code %q", err, got, code)
	}
}

// OK fails t on an error.
func OK(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Must returns v, failing t on an error: Must[T](t)(f()).
func Must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
