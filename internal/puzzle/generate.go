package puzzle

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/ai"
	"github.com/tttbot/tttbot/internal/game"
)

// Player chooses moves for the games Generate plays: *ai.Engine.
type Player interface {
	Analyzer
	Move(ctx context.Context, p game.Position, level ai.Level, rng *rand.Rand) (ai.Choice, error)
}

// GenerateOptions say what Generate looks for.
type GenerateOptions struct {
	Geometry *game.Geometry
	Count    int    // how many puzzles
	MinPlies int    // the shortest win kept; 0 keeps every mined puzzle
	Seed     uint64 // the games, and so the puzzles, follow from it
	// Games bounds the games played; 0 means 100 per puzzle asked for.
	Games int
}

// Generate plays games and mines them (see Mine) until it has Count
// distinct puzzles of MinPlies or more, or has played its Games. Game i
// is played from a generator seeded with (Seed, i): half the games are
// random moves on both sides, half the engine's easy, medium and hard
// levels against each other, so that both wild and near-sensible mistakes
// turn up. The same options give the same puzzles in the same order, and a
// smaller Count a prefix of them. It returns the puzzles and the number
// of games played.
func Generate(ctx context.Context, e Player, o GenerateOptions) ([]tttbot.Puzzle, int, error) {
	games := o.Games
	if games <= 0 {
		games = 100 * o.Count
	}
	var out []tttbot.Puzzle
	seen := map[string]bool{}
	i := 0
	for ; i < games && len(out) < o.Count; i++ {
		moves, err := playGame(ctx, e, o.Geometry, rand.New(rand.NewPCG(o.Seed, uint64(i))))
		if err != nil {
			return nil, i, err
		}
		ps, err := mine(ctx, e, o.Geometry, moves, 0, o.MinPlies)
		if err != nil {
			return nil, i, err
		}
		for _, p := range ps {
			if !seen[p.ID] && len(out) < o.Count {
				seen[p.ID] = true
				out = append(out, p)
			}
		}
	}
	return out, i, nil
}

// playGame plays one game with rng (see Generate) and returns its moves.
func playGame(ctx context.Context, e Player, g *game.Geometry, rng *rand.Rand) ([]int, error) {
	levels := [2]ai.Level{}
	if rng.IntN(2) == 1 {
		pool := []ai.Level{ai.Easy, ai.Medium, ai.Hard}
		levels = [2]ai.Level{pool[rng.IntN(3)], pool[rng.IntN(3)]}
	}
	var moves []int
	for pos := game.NewPosition(g); !pos.Result().Over; {
		var cell int
		if l := levels[pos.Ply()%2]; l == "" {
			free := pos.Moves()
			cell = free[rng.IntN(len(free))]
		} else {
			ch, err := e.Move(ctx, pos, l, rng)
			if err != nil {
				return nil, fmt.Errorf("move at %s: %w", pos, err)
			}
			cell = ch.Cell
		}
		var err error
		if pos, err = pos.Play(cell); err != nil {
			return nil, err
		}
		moves = append(moves, cell)
	}
	return moves, nil
}
