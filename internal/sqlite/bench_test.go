package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/storetest"
)

// player plays games in its own channel, one move per call, starting a new
// game when one ends.
type player struct {
	db      *DB
	channel string
	rng     *rand.Rand
	g       *tttbot.Game
	cells   []int // the game's remaining moves, in order
}

func (p *player) newGame(ctx context.Context) error {
	p.g = &tttbot.Game{GuildID: "guild", ChannelID: p.channel, Rows: 5, Cols: 5, K: 4,
		Challenger: "x" + p.channel, Opponent: "o" + p.channel, Status: tttbot.StatusActive}
	p.g.XPlayer, p.g.OPlayer = p.g.Challenger, p.g.Opponent
	p.cells = p.rng.Perm(25)
	return p.db.StartGame(ctx, p.g, nil)
}

// move applies the next move: a read of the game, the rules, an insert,
// an update and a commit.
func (p *player) move(ctx context.Context) error {
	at := t0.Add(time.Duration(p.g.Version) * time.Second)
	g, err := p.db.Play(ctx, tttbot.MoveRequest{GameID: p.g.ID, Player: p.g.Turn,
		Cell: p.cells[0], Version: p.g.Version, At: at, Deadline: at.Add(time.Minute)}, nil)
	if err != nil {
		return err
	}
	p.g, p.cells = g, p.cells[1:]
	return nil
}

// BenchmarkPlay measures one committed move at a time.
func BenchmarkPlay(b *testing.B) {
	db, _ := newDB(b, Options{})
	p := &player{db: db, channel: "c", rng: rand.New(rand.NewPCG(1, 2))}
	if err := p.newGame(b.Context()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if p.g.Status != tttbot.StatusActive {
			b.StopTimer()
			if err := p.newGame(b.Context()); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if err := p.move(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkPlayRecorded is BenchmarkPlay with each move an interaction
// whose ID the move's transaction records, as every click's is: IDs grow,
// as Discord's snowflakes do, with the 15 minutes kept of them in the
// table.
func BenchmarkPlayRecorded(b *testing.B) {
	db, _ := newDB(b, Options{})
	ctx := b.Context()
	const kept = 100_000
	id := int64(1) << 60
	for range kept / 1000 {
		_, err := db.w.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
			INSERT INTO interactions (id, seen_at) SELECT ? + i, ? FROM n`, id, t0.UnixMilli())
		if err != nil {
			b.Fatal(err)
		}
		id += 1000
	}
	p := &player{db: db, channel: "c", rng: rand.New(rand.NewPCG(1, 2))}
	if err := p.newGame(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if p.g.Status != tttbot.StatusActive {
			b.StopTimer()
			if err := p.newGame(ctx); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		id++
		if err := p.move(tttbot.WithInteraction(ctx, &tttbot.Interaction{ID: strconv.FormatInt(id, 10)})); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkPlayParallel measures moves committed from many goroutines, each
// playing its own games: they all queue for the one writer connection. In
// the parallel case, game creation is part of the figure (one in ~20 moves).
func BenchmarkPlayParallel(b *testing.B) {
	db, _ := newDB(b, Options{SimultaneousGames: true})
	var n atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := n.Add(1)
		p := &player{db: db, channel: fmt.Sprint("c", i), rng: rand.New(rand.NewPCG(uint64(i), 2))}
		if err := p.newGame(b.Context()); err != nil {
			b.Error(err)
			return
		}
		for pb.Next() {
			if p.g.Status != tttbot.StatusActive {
				if err := p.newGame(b.Context()); err != nil {
					b.Error(err)
					return
				}
			}
			if err := p.move(b.Context()); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkOpenGame measures finding a player's game in a channel, among
// 100,000 finished games and an open one in each of 100 channels.
func BenchmarkOpenGame(b *testing.B) {
	db, _ := newDB(b, Options{})
	ctx := b.Context()
	seed := []string{
		`INSERT INTO guilds (id, updated_at) VALUES ('guild', 0)`,
		`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
		 INSERT INTO players (id, updated_at) SELECT 'p' || i, 0 FROM n`,
		`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 99999)
		 INSERT INTO games (guild_id, channel_id, board_rows, board_cols, k, challenger_id, opponent_id,
		   x_player_id, o_player_id, status, board, version, winner_id, reason, created_at, updated_at, finished_at)
		 SELECT 'guild', 'c' || (i % 100), 3, 3, 3, 'p' || (i % 1000), 'p' || ((i + 1) % 1000),
		   'p' || (i % 1000), 'p' || ((i + 1) % 1000), 'finished', 'XXX/OO./...', 6, 'p' || (i % 1000),
		   'line', i, i, i FROM n`,
		`ANALYZE`,
	}
	for _, q := range seed {
		if _, err := db.w.ExecContext(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	for c := range 100 {
		storetest.StartGame(b, db, fmt.Sprint("c", c), fmt.Sprint("p", 2*c), fmt.Sprint("p", 2*c+1))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := i % 100
		if _, err := db.OpenGame(ctx, fmt.Sprint("c", c), fmt.Sprint("p", 2*c+1)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkCreateGame measures starting games against the bot: new players
// in 256 channels, a guild, the room checks and the insert.
func BenchmarkCreateGame(b *testing.B) {
	db, _ := newDB(b, Options{SimultaneousGames: true})
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		g := &tttbot.Game{GuildID: "guild", ChannelID: fmt.Sprint("c", i%256), Rows: 3, Cols: 3, K: 3,
			Challenger: fmt.Sprint("p", i), Opponent: "bot", BotLevel: "perfect",
			XPlayer: fmt.Sprint("p", i), OPlayer: "bot", Status: tttbot.StatusActive, Deadline: t0.Add(time.Minute)}
		if err := db.StartGame(b.Context(), g, nil, tttbot.Player{ID: g.Challenger, Name: "Player"}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkMove is the store contract's move benchmark, which
// internal/postgres runs too: a recorded click's move from 1 and from 16
// goroutines.
func BenchmarkMove(b *testing.B) {
	storetest.BenchmarkMove(b, func(b *testing.B) tttbot.GameStore {
		db, _ := newDB(b, Options{SimultaneousGames: true})
		return db
	})
}

// BenchmarkStartGame is BenchmarkCreateGame as the bot starts games: the
// guild's settings and, with its cooldown, the challenger's last game read
// in the transaction, for the rules to decide on.
func BenchmarkStartGame(b *testing.B) {
	for _, cooldown := range []time.Duration{0, time.Minute} {
		b.Run(fmt.Sprint("cooldown=", cooldown), func(b *testing.B) {
			db, _ := newDB(b, Options{SimultaneousGames: true})
			if _, err := db.UpdateSettings(b.Context(), "900", func(s *tttbot.Settings) error { s.Cooldown = cooldown; return nil }); err != nil {
				b.Fatal(err)
			}
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				g := &tttbot.Game{GuildID: "900", ChannelID: fmt.Sprint("c", i%256), Rows: 3, Cols: 3, K: 3,
					Challenger: fmt.Sprint("p", i%1000), Opponent: "bot", BotLevel: "perfect",
					XPlayer: fmt.Sprint("p", i%1000), OPlayer: "bot", Status: tttbot.StatusActive, Deadline: t0.Add(time.Minute)}
				at := t0.Add(time.Duration(i) * time.Hour)
				err := db.StartGame(b.Context(), g, func(g *tttbot.Game, adm tttbot.Admission) (*tttbot.MoveRequest, error) {
					return nil, adm.Settings.MayStart(g.ChannelID, nil, adm.LastStart, at)
				}, tttbot.Player{ID: g.Challenger, Name: "Player"})
				if err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
