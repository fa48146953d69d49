package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/game"
)

// applied is a move the store acknowledged.
type applied struct {
	game    int64
	version int // of the game after the move
	cell    int
	player  string
}

// TestConcurrentMoves has 16 goroutines make 100 clicks each on four shared
// tables, two goroutines per player, each clicking a free cell of the board
// it last read. Racing clicks must produce exactly one move per version and
// only the typed errors a losing click deserves.
func testConcurrentMoves(t *testing.T, newDB Opener) {
	const (
		tables  = 4
		workers = 16
		clicks  = 100
	)
	db := newDB(t, Options{})
	ctx := t.Context()

	type table struct {
		channel, x, o string
		game          atomic.Int64
	}
	newGame := func(tb *table) int64 {
		g := &tttbot.Game{GuildID: "guild", ChannelID: tb.channel, Rows: 4, Cols: 4, K: 3,
			Challenger: tb.x, Opponent: tb.o, XPlayer: tb.x, OPlayer: tb.o, Status: tttbot.StatusActive}
		if err := db.StartGame(ctx, g, nil); err != nil {
			t.Errorf("create game: %v", err)
		}
		return g.ID
	}
	var ts [tables]*table
	for i := range ts {
		ts[i] = &table{channel: fmt.Sprint("c", i), x: fmt.Sprint("x", i), o: fmt.Sprint("o", i)}
		ts[i].game.Store(newGame(ts[i]))
	}

	var (
		mu      sync.Mutex
		acks    []applied
		refused = map[string]int{}
	)
	var wg sync.WaitGroup
	for w := range workers {
		tb := ts[w%tables]
		player := tb.x
		if w/tables%2 == 1 {
			player = tb.o
		}
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			var mine []applied
			for range clicks {
				g, err := db.Game(ctx, tb.game.Load())
				if err != nil {
					t.Errorf("read game: %v", err)
					return
				}
				cell := freeCell(t, g, rng)
				m := tttbot.MoveRequest{GameID: g.ID, Player: player, Cell: cell, Version: g.Version}
				var seen *tttbot.Game
				if w%2 == 1 {
					seen = g // half the clicks as a bot instance makes them
				}
				got, err := db.Play(ctx, m, seen)
				switch code := tttbot.ErrorCode(err); code {
				case "":
					mine = append(mine, applied{g.ID, got.Version, cell, player})
					if got.Status == tttbot.StatusFinished {
						tb.game.Store(newGame(tb))
					}
				case tttbot.ESTALE, tttbot.ENOTYOURTURN, tttbot.EFINISHED:
					mu.Lock()
					refused[code]++
					mu.Unlock()
				default:
					t.Errorf("play: %v (code %s)", err, code)
				}
			}
			// Each goroutine sees the versions of a game only go up.
			last := map[int64]int{}
			for _, a := range mine {
				if a.version <= last[a.game] {
					t.Errorf("game %d: version %d acknowledged after %d", a.game, a.version, last[a.game])
				}
				last[a.game] = a.version
			}
			mu.Lock()
			acks = append(acks, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	// Every acknowledged move is in the store at the ply its version says,
	// and nothing else is.
	byGame := map[int64]map[int]applied{}
	for _, a := range acks {
		if byGame[a.game] == nil {
			byGame[a.game] = map[int]applied{}
		}
		if prev, dup := byGame[a.game][a.version]; dup {
			t.Errorf("game %d: version %d acknowledged twice: %+v and %+v", a.game, a.version, prev, a)
		}
		byGame[a.game][a.version] = a
	}
	var stored int
	if err := db.SQL.QueryRow("SELECT count(*) FROM moves").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != len(acks) {
		t.Errorf("got %d moves stored, want the %d acknowledged", stored, len(acks))
	}
	for id, want := range byGame {
		moves := Replay(t, db, id)
		if len(moves) != len(want) {
			t.Errorf("game %d: got %d moves, want %d", id, len(moves), len(want))
		}
		for _, m := range moves {
			a, ok := want[m.Ply+1]
			if !ok || a.cell != m.Cell || a.player != m.Player {
				t.Errorf("game %d ply %d: got cell %d by %s, acknowledged %+v", id, m.Ply, m.Cell, m.Player, a)
			}
		}
	}
	t.Logf("%d moves in %d games; refused: %v", len(acks), len(byGame), refused)
}

// freeCell picks a random free cell of g's board, or any cell when the game
// is over.
func freeCell(t testing.TB, g *tttbot.Game, rng *rand.Rand) int {
	pos, err := game.ParseIn(game.MustGeometry(g.Rows, g.Cols, g.K), g.Board)
	if err != nil {
		t.Fatalf("game %d: %v", g.ID, err)
	}
	free := pos.Empty().Cells()
	if len(free) == 0 {
		return rng.IntN(g.Rows * g.Cols)
	}
	return free[rng.IntN(len(free))]
}

// Replay plays the stored moves of game id from the empty board and checks
// that they lead to the stored game: board, version, status, turn and result.
func Replay(t testing.TB, db tttbot.GameStore, id int64) []tttbot.Move {
	t.Helper()
	ctx := context.Background()
	g, err := db.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := db.Moves(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	pos := game.NewPosition(game.MustGeometry(g.Rows, g.Cols, g.K))
	for i, m := range moves {
		side := map[game.Player]string{game.X: g.XPlayer, game.O: g.OPlayer}[pos.ToMove()]
		if m.Ply != i+1 || m.Player != side {
			t.Fatalf("game %d move %d: got ply %d by %s, want ply %d by %s", id, i, m.Ply, m.Player, i+1, side)
		}
		if pos, err = pos.Play(m.Cell); err != nil {
			t.Fatalf("game %d ply %d: %v", id, m.Ply, err)
		}
	}
	res := pos.Result()
	winner := map[game.Player]string{game.X: g.XPlayer, game.O: g.OPlayer}[res.Winner]
	switch {
	case pos.String() != g.Board:
		t.Errorf("game %d: replay gives %q, stored board is %q", id, pos.String(), g.Board)
	case g.Version != len(moves)+1:
		t.Errorf("game %d: version %d after %d moves, want %d", id, g.Version, len(moves), len(moves)+1)
	case res.Over != (g.Status == tttbot.StatusFinished):
		t.Errorf("game %d: status %s, replay over: %v", id, g.Status, res.Over)
	case res.Over && g.Winner != winner:
		t.Errorf("game %d: winner %q, replay says %q", id, g.Winner, winner)
	case !res.Over && g.Turn != map[game.Player]string{game.X: g.XPlayer, game.O: g.OPlayer}[pos.ToMove()]:
		t.Errorf("game %d: turn %q does not match the board", id, g.Turn)
	}
	return moves
}
