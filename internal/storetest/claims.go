package storetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// testDueClaims: Due hands each due game to one caller among many at once;
// a claim that runs out (its holder died) hands the game on; a change of
// the game ends its claim.
func testDueClaims(t *testing.T, newDB Opener) {
	db := newDB(t, Options{SimultaneousGames: true})
	ctx := t.Context()
	const n = 30
	var all []int64
	for i := range n {
		g := Challenge(fmt.Sprint("c", i), "alice", fmt.Sprint("p", i)) // due at t0+1m+grace
		OK(t, db.StartGame(ctx, g, nil))
		all = append(all, g.ID)
	}
	at := t0.Add(time.Minute + tttbot.DeadlineGrace)

	// Callers race, taking a few at a time: each game goes to exactly one.
	got := claimRace(t, 8, func() (ids []int64, err error) {
		due, err := db.Due(ctx, at, 3)
		for _, g := range due {
			ids = append(ids, g.ID)
		}
		return ids, err
	})
	if !slices.Equal(got, all) {
		t.Fatalf("racing callers claimed %v, want each of %v once", got, all)
	}

	// The claims run out together: the games are due again, to one caller.
	if due := Must[[]*tttbot.Game](t)(db.Due(ctx, at.Add(tttbot.ClaimLease-time.Millisecond), 0)); len(due) != 0 {
		t.Errorf("before the claims run out: got %d games due, want none", len(due))
	}
	later := at.Add(tttbot.ClaimLease)
	if due := Must[[]*tttbot.Game](t)(db.Due(ctx, later, 0)); len(due) != n {
		t.Errorf("once the claims ran out: got %d games due, want %d", len(due), n)
	}

	// A change ends the claim: a game accepted with a deadline already
	// passed is due at once, not a lease later.
	g := Must[*tttbot.Game](t)(db.Game(ctx, all[0]))
	Must[*tttbot.Game](t)(db.Accept(ctx, tttbot.AcceptRequest{GameID: g.ID, Player: g.Opponent, Version: g.Version,
		XPlayer: "alice", At: t0, Deadline: at.Add(-tttbot.DeadlineGrace)}))
	due := Must[[]*tttbot.Game](t)(db.Due(ctx, later, 0))
	if len(due) != 1 || due[0].ID != g.ID || due[0].Status != tttbot.StatusActive {
		t.Errorf("after a change: got %d games due, want the accepted game", len(due))
	}
}

// claimRace has callers call claim at once until it claims nothing more,
// and returns every ID claimed, sorted: each due row once if the claims
// hold.
func claimRace(t *testing.T, callers int, claim func() ([]int64, error)) []int64 {
	var mu sync.Mutex
	var got []int64
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for {
				ids, err := claim()
				if err != nil {
					t.Errorf("claim: %v", err)
					return
				}
				if len(ids) == 0 {
					return
				}
				mu.Lock()
				got = append(got, ids...)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	slices.Sort(got)
	return got
}
