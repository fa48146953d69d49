package tttbot

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tttbot/tttbot/internal/rating"
)

// TestGameRate: a game rates both players from their standings, each idled
// by the whole rating periods since their last game, scored from the
// challenger's side, and counts in both records.
func TestGameRate(t *testing.T) {
	end := t0.Add(30 * 24 * time.Hour)
	finished := func(winner string) *Game {
		g := active("XXX/OO./...", "")
		g.Status, g.Winner, g.Reason, g.FinishedAt = StatusFinished, winner, ReasonLine, end
		return g
	}
	shape := Shape{Rows: 3, Cols: 3, K: 3}
	alice := Standing{Player: "alice", R: 1600, RD: 80, Sigma: 0.06, Games: 7, Wins: 4, Losses: 3, Streak: 2, Best: 3, UpdatedAt: end.Add(-15 * 24 * time.Hour)}
	bob := Standing{Player: "bob", R: 1450, RD: 120, Sigma: 0.06, Games: 2, Losses: 2, Streak: -2, UpdatedAt: end.Add(-time.Hour)}
	r := func(s Standing) rating.Rating { return rating.Rating{R: s.R, RD: s.RD, Sigma: s.Sigma} }
	tests := []struct {
		name      string
		g         *Game
		before    [2]Standing
		score     float64 // the challenger's
		idle      [2]int
		wantCount [2]Standing
	}{
		{"the challenger wins", finished("alice"), [2]Standing{alice, bob}, rating.Win, [2]int{2, 0},
			[2]Standing{{Games: 8, Wins: 5, Losses: 3, Streak: 3, Best: 3}, {Games: 3, Losses: 3, Streak: -3}}},
		{"the challenger loses", finished("bob"), [2]Standing{alice, bob}, rating.Loss, [2]int{2, 0},
			[2]Standing{{Games: 8, Wins: 4, Losses: 4, Streak: -1, Best: 3}, {Games: 3, Wins: 1, Losses: 2, Streak: 1, Best: 1}}},
		{"a draw", finished(""), [2]Standing{alice, bob}, rating.Draw, [2]int{2, 0},
			[2]Standing{{Games: 8, Wins: 4, Losses: 3, Draws: 1, Best: 3}, {Games: 3, Losses: 2, Draws: 1}}},
		{"two new players", finished("alice"), [2]Standing{}, rating.Win, [2]int{},
			[2]Standing{{Games: 1, Wins: 1, Streak: 1, Best: 1}, {Games: 1, Losses: 1, Streak: -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rs [2]rating.Rating
			for i, s := range tt.before {
				rs[i] = rating.Default()
				if s != (Standing{}) {
					rs[i] = r(s).Idle(tt.idle[i])
				}
			}
			rs[0], rs[1] = rating.UpdatePair(rs[0], rs[1], tt.score, rating.DefaultTau)
			var want [2]Standing
			for i, p := range []string{"alice", "bob"} {
				want[i] = tt.wantCount[i]
				want[i].Player, want[i].Shape, want[i].UpdatedAt = p, shape, end
				want[i].R, want[i].RD, want[i].Sigma = rs[i].R, rs[i].RD, rs[i].Sigma
			}
			if diff := cmp.Diff(want, tt.g.Rate(tt.before)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestGameBotRecord: a game against the bot counts for its challenger, the
// human, at the bot's level.
func TestGameBotRecord(t *testing.T) {
	tests := []struct {
		winner string
		want   BotRecord
	}{
		{"alice", BotRecord{Level: "easy", Wins: 1}},
		{"bot", BotRecord{Level: "easy", Losses: 1}},
		{"", BotRecord{Level: "easy", Draws: 1}},
	}
	for _, tt := range tests {
		g := &Game{Challenger: "alice", Opponent: "bot", BotLevel: "easy", Status: StatusFinished, Winner: tt.winner}
		player, got := g.BotRecord()
		if player != "alice" || got != tt.want {
			t.Errorf("winner %q: got %s %+v, want alice %+v", tt.winner, player, got, tt.want)
		}
	}
}

func TestCheckPage(t *testing.T) {
	tests := []struct {
		name          string
		shape         Shape
		offset, limit int
		want          error
	}{
		{"the first page", Shape{3, 3, 3}, 0, 10, nil},
		{"a later page", Shape{5, 5, 4}, 30, 1, nil},
		{"no shape", Shape{2, 2, 2}, 0, 10, ErrBadShape},
		{"before the first", Shape{3, 3, 3}, -1, 10, ErrBadPage},
		{"no player", Shape{3, 3, 3}, 0, 0, ErrBadPage},
	}
	for _, tt := range tests {
		if got := CheckPage(tt.shape, tt.offset, tt.limit); !errors.Is(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
	for limit, want := range map[int]error{1: nil, 0: ErrBadHistory, -3: ErrBadHistory} {
		if got := CheckHistory(limit); got != want {
			t.Errorf("CheckHistory(%d) = %v, want %v", limit, got, want)
		}
	}
}
