package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
)

// Player plays 5×5 games in its own channel, one move per call, starting a
// new game when one ends: the benchmarks' moves, and the load test's floor.
type Player struct {
	s       tttbot.GameStore
	channel string
	rng     *rand.Rand
	g       *tttbot.Game
	cells   []int // the game's remaining moves, in order
}

// NewPlayer returns a Player of games on s in channel, its moves drawn
// from seed.
func NewPlayer(s tttbot.GameStore, channel string, seed uint64) *Player {
	return &Player{s: s, channel: channel, rng: rand.New(rand.NewPCG(seed, 2))}
}

func (p *Player) newGame(ctx context.Context) error {
	p.g = &tttbot.Game{GuildID: "guild", ChannelID: p.channel, Rows: 5, Cols: 5, K: 4,
		Challenger: "x" + p.channel, Opponent: "o" + p.channel, Status: tttbot.StatusActive}
	p.g.XPlayer, p.g.OPlayer = p.g.Challenger, p.g.Opponent
	p.cells = p.rng.Perm(25)
	return p.s.StartGame(ctx, p.g, nil)
}

// Move applies the next move as a click does: the game read, then an
// interaction recorded, the rules, the move inserted, the game updated,
// the commit — and, one move in a dozen or so, the results and ratings.
// With seen, the move carries the game as read (Play's seen), as the
// bot's clicks do; without, the store reads and locks the game again.
func (p *Player) Move(ctx context.Context, interaction int64, seen bool) error {
	if p.g == nil || p.g.Status != tttbot.StatusActive {
		if err := p.newGame(ctx); err != nil {
			return err
		}
	}
	g, err := p.s.Game(ctx, p.g.ID)
	if err != nil {
		return err
	}
	at := t0.Add(time.Duration(g.Version) * time.Second)
	ctx = tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: strconv.FormatInt(interaction, 10)})
	m := tttbot.MoveRequest{GameID: g.ID, Player: g.Turn, Cell: p.cells[0], Version: g.Version, At: at, Deadline: at.Add(time.Minute)}
	var read *tttbot.Game
	if seen {
		read = g
	}
	if g, err = p.s.Play(ctx, m, read); err != nil {
		return err
	}
	p.g, p.cells = g, p.cells[1:]
	return nil
}

// BenchmarkMove measures clicks' committed moves from 1 and from 16
// goroutines, each playing its own games in its own channel of a guild
// that allows many, on the store open opens, with and without
// the game seen; game creation is part of the figure, one in about 12
// moves.
func BenchmarkMove(b *testing.B, open func(b *testing.B) tttbot.GameStore) {
	for _, bench := range []struct {
		goroutines int
		mode       string // seen: with the game seen; locked: without
	}{{1, "seen"}, {1, "locked"}, {16, "seen"}, {16, "locked"}} {
		goroutines, seen := bench.goroutines, bench.mode == "seen"
		b.Run(fmt.Sprintf("goroutines=%d/%s", goroutines, bench.mode), func(b *testing.B) {
			s := open(b)
			var n, ids atomic.Int64
			ids.Store(1 << 60) // snowflake-sized
			b.SetParallelism(max(1, goroutines/runtimeProcs()))
			b.ReportAllocs()
			run := func(pb interface{ Next() bool }) {
				i := n.Add(1)
				p := NewPlayer(s, fmt.Sprint("c", i), uint64(i))
				for pb.Next() {
					if err := p.Move(b.Context(), ids.Add(1), seen); err != nil {
						b.Error(err)
						return
					}
				}
			}
			if goroutines == 1 {
				run(loop{b})
			} else {
				b.RunParallel(func(pb *testing.PB) { run(pb) })
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
		})
	}
}

// loop adapts b.Loop to the shape of testing.PB.
type loop struct{ b *testing.B }

func (l loop) Next() bool { return l.b.Loop() }

// runtimeProcs is GOMAXPROCS, which RunParallel multiplies the
// parallelism by.
func runtimeProcs() int { return runtime.GOMAXPROCS(0) }
