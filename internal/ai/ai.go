// Package ai plays m,n,k tic-tac-toe: a solver (negamax with alpha-beta, a
// lock-free transposition table keyed over the board's symmetries, move
// ordering and the exact pruning rules of k in a row), a precomputed table
// for 3×3, an opening book for 5×5, difficulty levels that blunder on
// purpose, and the analysis of a position for reviews and hints.
package ai

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"time"

	"github.com/tttbot/tttbot/internal/game"
)

// Level is how well the engine plays. Perfect always plays a best move, at
// random among equally good ones. The others blunder on purpose: hard and
// medium take a win in one and block a single threat, then play a random
// move 10% and 40% of the time; easy plays a random move 60% of the time.
// On 3×3 they lose about 67%, 20% and 5% of games to perfect play (tested).
type Level string

const (
	Easy    Level = "easy"
	Medium  Level = "medium"
	Hard    Level = "hard"
	Perfect Level = "perfect"
)

// Levels lists the levels from weakest to strongest.
func Levels() []Level { return []Level{Easy, Medium, Hard, Perfect} }

// ErrLevel is returned for an unknown level.
var ErrLevel = errors.New("unknown level")

// ParseLevel reads a level name (easy, medium, hard or perfect).
func ParseLevel(s string) (Level, error) {
	switch l := Level(s); l {
	case Easy, Medium, Hard, Perfect:
		return l, nil
	}
	return "", fmt.Errorf("%w %q (use easy, medium, hard or perfect)", ErrLevel, s)
}

// policy is how a level blunders: whether it always takes a win in one and
// blocks a single threat, and how often it then plays a random move instead
// of a best one.
type policy struct {
	winBlock bool
	random   float64
}

func (l Level) policy() (policy, bool) {
	switch l {
	case Easy:
		return policy{random: 0.6}, true
	case Medium:
		return policy{winBlock: true, random: 0.4}, true
	case Hard:
		return policy{winBlock: true, random: 0.1}, true
	case Perfect:
		return policy{winBlock: true}, true
	}
	return policy{}, false
}

// Options configure an Engine.
type Options struct {
	// TimeBudget bounds one Move or Analyze; 0 means one second. Every board
	// the bot offers is solved well within it, so it is a safety net: past
	// it the answer is the best known so far, marked not proven.
	TimeBudget time.Duration
	// TableBytes sizes the transposition table shared by all searches;
	// 0 means 16 MiB.
	TableBytes int
}

// Engine chooses and analyzes moves. It is safe for concurrent use: each
// search has its own state, and the one table they share is lock-free.
type Engine struct {
	budget time.Duration
	tt     *table
	tern   [256]uint64
	shapes [numShapes]*shape
	small  []smallEntry // every 3×3 position, solved
	pacer  Pacer        // nil but in a Paced engine
}

// A Pacer holds searches back to a share of a processor. A search calls
// Pace about every thousand positions, with the time it has worked since
// its last call, and Pace may make it rest: until done closes at the
// latest, and not counted in the search's time budget.
type Pacer interface {
	Pace(done <-chan struct{}, worked time.Duration)
}

// Paced returns an engine that shares e's table and whose searches p
// paces: for work in the background, such as mining puzzles, where the
// search of one hard position would otherwise hold a processor for a
// tenth of a second or more while the players' requests wait. Each search
// calls p from the goroutine that asked for it: searches run at once call
// it at once.
func (e *Engine) Paced(p Pacer) *Engine {
	c := *e
	c.pacer = p
	return &c
}

// New builds an engine: the geometries' lines and symmetries, the 3×3 table
// (well under a millisecond) and an empty transposition table.
func New(opts Options) *Engine {
	if opts.TimeBudget <= 0 {
		opts.TimeBudget = time.Second
	}
	if opts.TableBytes <= 0 {
		opts.TableBytes = 16 << 20
	}
	e := &Engine{budget: opts.TimeBudget, tt: newTable(opts.TableBytes)}
	for b := range 256 {
		t := uint64(0)
		for i := 7; i >= 0; i-- {
			t = 3*t + uint64(b>>i&1)
		}
		e.tern[b] = t
	}
	for r := game.MinSize; r <= game.MaxSize; r++ {
		for c := game.MinSize; c <= game.MaxSize; c++ {
			for k := game.MinK; k <= max(r, c); k++ {
				e.shapes[shapeID(r, c, k)] = newShape(game.MustGeometry(r, c, k))
			}
		}
	}
	e.small = e.buildSmall(e.shapes[shapeID(3, 3, 3)])
	return e
}

// Choice is a move chosen by the engine.
type Choice struct {
	Cell int
	// Proven is false when the time budget or the context cut the search
	// short: the move then still takes a win in one or blocks a single
	// threat, but is otherwise only the best known so far.
	Proven  bool
	Nodes   int64         // positions searched
	Elapsed time.Duration // time searching: 0 when a rule or the 3×3 table answered
}

// Analysis is the solver's verdict on a position.
type Analysis struct {
	Terminal bool
	Winner   game.Player // of a finished game; None for a draw
	// Value is 1, 0 or -1 for a win, draw or loss of the side to move, in
	// Plies more moves under best play (0 for a draw).
	Value  int
	Plies  int
	Proven bool
	Moves  []MoveValue // every legal move, by cell
	Best   []int       // every move achieving Value in Plies
	Nodes  int64
}

// MoveValue is the value of one move for the side making it, with plies
// counted from the analyzed position, the move included. A move the time
// budget left unsolved is not Proven, and its Value and Plies are 0.
type MoveValue struct {
	Cell, Value, Plies int
	Proven             bool
}

// root is a position as the engine sees it, from the side to move.
type root struct {
	sh       *shape
	me, opp  uint32
	meX      bool
	terminal bool
	winner   game.Player
	f        facts
}

func (e *Engine) root(p game.Position) (root, error) {
	g := p.Geometry()
	if g == nil {
		return root{}, fmt.Errorf("%w: no board", game.ErrIllegal)
	}
	r := root{sh: e.shapes[shapeID(g.Rows, g.Cols, g.K)], meX: p.ToMove() == game.X}
	r.me, r.opp = uint32(p.X()), uint32(p.O())
	if !r.meX {
		r.me, r.opp = r.opp, r.me
	}
	switch {
	case r.sh.wins(r.opp):
		r.terminal, r.winner = true, p.ToMove().Other()
	case r.me|r.opp == r.sh.full:
		r.terminal = true
	default:
		r.sh.facts(r.me, r.opp, r.sh.allLines, &r.f)
	}
	return r, nil
}

// keys returns the symmetric keys of the root for search.
func (r *root) keys() [8]uint64 {
	if r.meX {
		return r.sh.keys(r.me, r.opp)
	}
	return r.sh.keys(r.opp, r.me)
}

func (r *root) empty() uint32 { return r.sh.full &^ (r.me | r.opp) }

func (r *root) small() bool { return r.sh.id == 0 }

// smallIndex is the 3×3 table index of the root.
func (e *Engine) smallIndex(r *root) int {
	if r.meX {
		return e.smallKey(r.me, r.opp)
	}
	return e.smallKey(r.opp, r.me)
}

// smallKey is the 3×3 table index of a position: its cells in base 3.
func (e *Engine) smallKey(x, o uint32) int {
	return int(e.tern[x&255] + e.tern[x>>8]*6561 + 2*(e.tern[o&255]+e.tern[o>>8]*6561))
}

func (e *Engine) searcher(ctx context.Context, r *root, start time.Time) searcher {
	deadline := start.Add(e.budget)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	return searcher{sh: r.sh, tt: e.tt, tern: &e.tern, deadline: deadline, done: ctx.Done(), rootMove: -1, pacer: e.pacer, yielded: start}
}

// Move chooses a move for the side to move at the given level. rng drives
// every random choice (ties between best moves, deliberate blunders), so a
// seeded source replays a game exactly; nil uses a random seed.
func (e *Engine) Move(ctx context.Context, p game.Position, level Level, rng *rand.Rand) (Choice, error) {
	if g := p.Geometry(); level == Perfect && g != nil && g.Rows == 3 && g.Cols == 3 && g.K == 3 {
		// The common case, straight from the table: every best move is there.
		best := e.small[e.smallKey(uint32(p.X()), uint32(p.O()))].best
		if best == 0 {
			return Choice{}, game.ErrGameOver
		}
		return Choice{Cell: pick(uint32(best), rng), Proven: true}, nil
	}
	pol, ok := level.policy()
	if !ok {
		return Choice{}, fmt.Errorf("%w %q", ErrLevel, level)
	}
	r, err := e.root(p)
	if err != nil {
		return Choice{}, err
	}
	if r.terminal {
		return Choice{}, game.ErrGameOver
	}
	ch := Choice{Proven: true}
	switch {
	case pol.winBlock && r.f.myWins != 0:
		ch.Cell = pick(r.f.myWins, rng)
	case pol.winBlock && bits.OnesCount32(r.f.oppWins) == 1:
		ch.Cell = bits.TrailingZeros32(r.f.oppWins)
	case pol.random > 0 && float(rng) < pol.random:
		ch.Cell = pick(r.empty(), rng)
	case r.small():
		ch.Cell = pick(uint32(e.small[e.smallIndex(&r)].best), rng)
	default:
		start := time.Now()
		ch.Cell, ch.Nodes, ch.Proven = e.bestMove(ctx, &r, start, rng)
		if err := ctx.Err(); err != nil {
			return Choice{}, err
		}
		ch.Elapsed = time.Since(start)
	}
	return ch, nil
}

// bestMove returns a best move of an unfinished position, each best move
// as likely as any other: it proves the position's value, then tests the
// moves in random order against it with a null window, cheap once the table
// is warm, and keeps the first that achieves it — usually after a few tests.
// Past the budget it returns the best move known.
func (e *Engine) bestMove(ctx context.Context, r *root, start time.Time, rng *rand.Rand) (cell int, nodes int64, proven bool) {
	switch {
	case r.f.myWins != 0:
		return pick(r.f.myWins, rng), 0, true
	case bits.OnesCount32(r.f.oppWins) >= 2:
		return pick(r.empty(), rng), 0, true // every move loses at once
	case r.f.oppWins != 0:
		return bits.TrailingZeros32(r.f.oppWins), 0, true
	}
	ks := r.keys()
	if best, ok := fromBook(r, &ks); ok {
		return pick(best, rng), 0, true
	}
	s := e.searcher(ctx, r, start)
	v := s.exact(r.me, r.opp, r.meX, ks, r.f.alive, 0)
	if s.stopped {
		return e.fallback(r, s.rootMove), s.nodes, false
	}
	var cells [maxCells]int8
	n := 0
	for m := r.empty(); m != 0; m &= m - 1 {
		cells[n] = int8(bits.TrailingZeros32(m))
		n++
	}
	for i := range n {
		j := i + intN(rng, n-i)
		cells[i], cells[j] = cells[j], cells[i]
		c := int(cells[i])
		if -s.search(r.opp, r.me|1<<c, !r.meX, r.sh.play(ks, c, r.meX), r.f.alive, -v, -v+1, 1) >= v && !s.stopped {
			return c, s.nodes, true
		}
		if s.stopped {
			break
		}
	}
	// Only a search cut short gets here.
	return e.fallback(r, s.rootMove), s.nodes, false
}

// fallback is the move played when a search was cut short before proving a
// best move: the root search's best so far, or else the best-ordered move.
func (e *Engine) fallback(r *root, found int) int {
	if found >= 0 {
		return found
	}
	var cells [maxCells]int8
	moves := r.f.live
	if moves == 0 {
		moves = r.empty()
	}
	r.sh.order(r.me, r.opp, moves, r.f.alive, cells[:])
	return int(cells[0])
}

// Analyze values every legal move of p exactly and names the best ones.
func (e *Engine) Analyze(ctx context.Context, p game.Position) (Analysis, error) {
	return e.analyze(ctx, p, true)
}

// analyze is Analyze, with the 3×3 table or (for tests) without it.
func (e *Engine) analyze(ctx context.Context, p game.Position, useSmall bool) (Analysis, error) {
	start := time.Now()
	r, err := e.root(p)
	if err != nil {
		return Analysis{}, err
	}
	if r.terminal {
		a := Analysis{Terminal: true, Winner: r.winner, Proven: true}
		if r.winner != game.None {
			a.Value = -1
		}
		return a, nil
	}
	a := Analysis{Proven: true}
	var s *searcher
	var ks [8]uint64
	if !useSmall || !r.small() {
		sv := e.searcher(ctx, &r, start)
		s, ks = &sv, r.keys()
	}
	scores := make([]int, 0, bits.OnesCount32(r.empty()))
	for m := r.empty(); m != 0; m &= m - 1 {
		c := bits.TrailingZeros32(m)
		var v int
		switch {
		case r.f.myWins&(1<<c) != 0:
			v = win - 1
		case r.f.oppWins&^(1<<c) != 0:
			v = -(win - 2) // a threat left open
		case s == nil:
			child := e.small[e.smallIndex(&root{sh: r.sh, me: r.opp, opp: r.me | 1<<c, meX: !r.meX})]
			v = -int(child.value) * (win - 1 - int(child.plies))
		case !s.stopped:
			v = -s.exact(r.opp, r.me|1<<c, !r.meX, r.sh.play(ks, c, r.meX), r.f.alive, 1)
		}
		mv := MoveValue{Cell: c, Proven: true}
		if s != nil && s.stopped && v != win-1 && v != -(win-2) {
			a.Proven, mv.Proven, v = false, false, 0 // unknown: the budget ran out
		}
		mv.Value, mv.Plies = valuePlies(v)
		a.Moves = append(a.Moves, mv)
		scores = append(scores, v)
	}
	if err := ctx.Err(); err != nil {
		return Analysis{}, err
	}
	top := -inf
	for _, v := range scores {
		top = max(top, v)
	}
	for i, v := range scores {
		if v == top {
			a.Best = append(a.Best, a.Moves[i].Cell)
		}
	}
	a.Value, a.Plies = valuePlies(top)
	if s != nil {
		a.Nodes = s.nodes
	}
	return a, nil
}

// pick returns a random cell of a non-empty mask.
func pick(m uint32, rng *rand.Rand) int {
	if n := bits.OnesCount32(m); n > 1 {
		for k := intN(rng, n); k > 0; k-- {
			m &= m - 1
		}
	}
	return bits.TrailingZeros32(m)
}

func intN(rng *rand.Rand, n int) int {
	if rng == nil {
		return rand.IntN(n)
	}
	return rng.IntN(n)
}

func float(rng *rand.Rand) float64 {
	if rng == nil {
		return rand.Float64()
	}
	return rng.Float64()
}

// Value returns the value of p for the side to move, 1, 0 or -1 for a win,
// draw or loss under best play, without its distance: one null-window
// search, far cheaper than Analyze, for callers that sift many positions
// for the few worth analyzing. proven is false when the budget ran out.
func (e *Engine) Value(ctx context.Context, p game.Position) (value int, proven bool, err error) {
	v, proven, err := e.window(ctx, p, -1, 1)
	return max(min(v, 1), -1), proven, err
}

// WinsWithin reports whether the side to move of p can force a win in
// plies moves or fewer, its own included: a null-window search that
// refutes a longer win without measuring it.
func (e *Engine) WinsWithin(ctx context.Context, p game.Position, plies int) (wins, proven bool, err error) {
	v, proven, err := e.window(ctx, p, win-plies-1, win-plies)
	return v > win-plies-1, proven, err
}

// window searches p with the window (alpha, beta): a score at or below
// alpha is an upper bound, at or above beta a lower bound, between exact.
func (e *Engine) window(ctx context.Context, p game.Position, alpha, beta int) (int, bool, error) {
	r, err := e.root(p)
	switch {
	case err != nil:
		return 0, false, err
	case r.terminal && r.winner != game.None:
		return -win, true, nil
	case r.terminal:
		return 0, true, nil
	case r.f.myWins != 0:
		return win - 1, true, nil
	case r.small():
		t := e.small[e.smallIndex(&r)]
		return int(t.value) * (win - int(t.plies)), true, nil
	}
	s := e.searcher(ctx, &r, time.Now())
	v := s.search(r.me, r.opp, r.meX, r.keys(), r.f.alive, alpha, beta, 0)
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	return v, !s.stopped, nil
}
