package gamerow

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// TestPlaceholders: every query both engines run writes $1, $2… first in
// that order, as SQLite numbers them by their first appearance.
func TestPlaceholders(t *testing.T) {
	for name, q := range map[string]string{
		"QueryGame": QueryGame, "QueryOpenGame": QueryOpenGame, "QueryPlayerBusy": QueryPlayerBusy,
		"QueryChannelBusy": QueryChannelBusy, "QueryLastStart": QueryLastStart, "QueryActiveGames": QueryActiveGames,
		"QueryInsertGame": QueryInsertGame, "QueryInsertMove": QueryInsertMove, "QueryInsertResults": QueryInsertResults,
		"QueryMoves": QueryMoves, "QueryGameMoves": QueryGameMoves, "QueryAnonymizeGame": QueryAnonymizeGame, "QueryAnonymizeMoves": QueryAnonymizeMoves,
		"QueryAnonymizeResults": QueryAnonymizeResults, "QueryPruneInteractions": QueryPruneInteractions,
		"QueryRatingPair": QueryRatingPair, "QueryBotRecord": QueryBotRecord, "QueryLeaderboardTotal": QueryLeaderboardTotal,
		"QueryStats": QueryStats, "QueryBotRecords": QueryBotRecords, "QueryHistory": QueryHistory, "QueryHistoryDM": QueryHistoryDM,
		"QueryAssist": QueryAssist, "QueryAddPuzzle": QueryAddPuzzle, "QueryPuzzle": QueryPuzzle,
		"QueryNextPuzzle": QueryNextPuzzle, "QueryNextPuzzleShape": QueryNextPuzzleShape,
		"QueryPuzzleStandingOf": QueryPuzzleStandingOf, "QueryPuzzleSeen": QueryPuzzleSeen, "QueryPuzzleRating": QueryPuzzleRating,
		"QuerySavePuzzleStanding": QuerySavePuzzleStanding, "QueryRatePuzzle": QueryRatePuzzle, "QueryAddAttempt": QueryAddAttempt,
		"QueryPuzzleStanding": QueryPuzzleStanding, "QueryCreateTournament": QueryCreateTournament,
		"QueryTournament": QueryTournament, "QueryEntrants": QueryEntrants, "QueryTournamentGames": QueryTournamentGames,
		"QueryTournamentStatus": QueryTournamentStatus, "QueryEntrantWithdrawn": QueryEntrantWithdrawn, "QueryEnter": QueryEnter,
		"QueryLeaveSignup": QueryLeaveSignup, "QueryWithdraw": QueryWithdraw, "QueryAdvance": QueryAdvance,
		"QueryAddTournamentGame": QueryAddTournamentGame, "QueryLinkGame": QueryLinkGame, "QueryDecide": QueryDecide,
		"ForgetInTournaments0": ForgetInTournaments[0], "ForgetInTournaments1": ForgetInTournaments[1],
		"ForgetInTournaments2": ForgetInTournaments[2], "QueryTournamentOfGame": QueryTournamentOfGame,
		"QueryPlayerTournaments": QueryPlayerTournaments, "QueryDueTournaments": QueryDueTournaments, "QueryDueTournamentsSkipLocked": QueryDueTournamentsSkipLocked,
	} {
		next := 1
		for _, m := range regexp.MustCompile(`\$(\d+)`).FindAllStringSubmatch(q, -1) {
			n, _ := strconv.Atoi(m[1])
			switch {
			case n == next:
				next++
			case n > next:
				t.Errorf("%s: $%d before $%d", name, n, next)
			}
		}
	}
}

func TestTimes(t *testing.T) {
	at := time.Date(2026, 11, 26, 12, 0, 0, 123456789, time.FixedZone("x", 3600))
	tests := []struct {
		name string
		t    time.Time
		want time.Time
	}{
		{"the zero time", time.Time{}, time.Time{}},
		{"a time", at, time.Date(2026, 11, 26, 11, 0, 0, 123000000, time.UTC)},
	}
	for _, tt := range tests {
		if got := Round(tt.t); !got.Equal(tt.want) || got.Location() != tt.want.Location() {
			t.Errorf("%s: Round = %v, want %v", tt.name, got, tt.want)
		}
		var ms int64
		if p := ToMS(tt.t); p != nil {
			ms = *p
		}
		if got := FromMS(ms); !got.Equal(tt.want) {
			t.Errorf("%s: FromMS(ToMS) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestInteractionID(t *testing.T) {
	tests := []struct {
		id   string
		want int64 // 0: refused
	}{
		{"1", 1},
		{"9223372036854775807", 9223372036854775807},
		{"9223372036854775808", 0}, // a Discord ID, but no bigint
		{"0", 0},
		{"-5", 0},
		{"abc", 0},
	}
	for _, tt := range tests {
		got, err := InteractionID(tt.id)
		if got != tt.want || (err == nil) != (tt.want != 0) {
			t.Errorf("InteractionID(%q) = %d, %v; want %d", tt.id, got, err, tt.want)
		}
	}
}

func TestPlayers(t *testing.T) {
	g := &tttbot.Game{Challenger: "b", Opponent: "a"}
	got := Players(g, []tttbot.Player{{ID: "b", Name: "Bea"}, {ID: "c", Name: "Cy"}})
	want := []tttbot.Player{{ID: "a"}, {ID: "b", Name: "Bea"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestInserted(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name  string
		err   error
		taken bool
		want  error
	}{
		{"inserted", nil, false, nil},
		{"the channel taken", boom, true, tttbot.ErrChannelBusy},
		{"another failure", boom, false, boom},
	}
	for _, tt := range tests {
		if got := Inserted(tt.err, tt.taken); !errors.Is(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestOptionsMove: a move's times, and its answer's, are those stored, the
// clock's when unset; the caller's answer is left as it was.
func TestOptionsMove(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 999999, time.UTC)
	o := Options{Now: func() time.Time { return now }}
	at := now.Add(time.Second + 123456)
	answer := &tttbot.MoveRequest{Deadline: at}
	got := o.Move(tttbot.MoveRequest{At: at, Deadline: at, Answer: answer})
	ms := Round(at)
	if !got.At.Equal(ms) || !got.Deadline.Equal(ms) || !got.Answer.At.Equal(Round(now)) || !got.Answer.Deadline.Equal(ms) {
		t.Errorf("got %+v, answer %+v; want times to the millisecond, the answer at %s", got, *got.Answer, Round(now))
	}
	if answer.Deadline != at || !answer.At.IsZero() {
		t.Errorf("the caller's answer changed: %+v", *answer)
	}
}
