package tttbot

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"

	"github.com/tttbot/tttbot/internal/game"
	"github.com/tttbot/tttbot/internal/rating"
)

// Puzzle is a position with a forced win for the side to move, the solver,
// and its main line: at each of the solver's turns every move that keeps a
// forced win, and the fastest one played; at each of the defence's turns
// the longest resistance. The line ends with the solver's winning move, so
// it holds the puzzle's plies to the win, an odd number.
type Puzzle struct {
	ID     string // the same for every position equal up to symmetry (see PuzzleID)
	Shape  Shape
	Start  string // the position in game notation; the side to move solves
	Line   []PuzzleMove
	Kind   PuzzleKind
	GameID int64 // the game it was mined from; 0 for a generated puzzle
	// R, RD and Sigma are the puzzle's Glicko-2 rating: each first attempt
	// is a game between the player and the puzzle.
	R, RD, Sigma float64
}

// PuzzleMove is one ply of a puzzle's main line.
type PuzzleMove struct {
	Cell int
	// Wins is, at a solver's turn, every move that keeps a forced win, Cell
	// among the fastest of them; 0 at a defence's turn.
	Wins game.Mask
}

// PuzzleKind says how a puzzle's position came about.
type PuzzleKind string

const (
	PuzzleMissed PuzzleKind = "missed" // the player to move had a forced win and did not play it
	PuzzleFound  PuzzleKind = "found"  // the player to move found a long forced win
)

// Plies is the number of moves to the win under best play on both sides.
func (p *Puzzle) Plies() int { return len(p.Line) }

// Geometry returns the puzzle's board.
func (p *Puzzle) Geometry() (*game.Geometry, error) {
	g, err := game.NewGeometry(p.Shape.Rows, p.Shape.Cols, p.Shape.K)
	if err != nil {
		return nil, ErrBadShape
	}
	return g, nil
}

// Position reads the puzzle's start.
func (p *Puzzle) Position() (game.Position, error) {
	g, err := p.Geometry()
	if err != nil {
		return game.Position{}, err
	}
	pos, err := game.ParseIn(g, p.Start)
	if err != nil {
		return game.Position{}, Errorf(EINVALID, "puzzle %s: %v", p.ID, err)
	}
	return pos, nil
}

// PuzzleID names position p up to symmetry: its shape and the cells of its
// canonical image, e.g. "5x5k4-3f2a9c".
func PuzzleID(p game.Position) string {
	c, _ := p.Canonical()
	g := p.Geometry()
	return Shape{g.Rows, g.Cols, g.K}.Code() + "-" + strconv.FormatUint(uint64(c.X())<<25|uint64(c.O()), 36)
}

// FormatLine writes a line as its plies separated by spaces: a solver's
// turn as the move played then the other winning moves joined by '+'
// ("12+7+17"), a defence's turn as its cell.
func FormatLine(line []PuzzleMove) string {
	var b strings.Builder
	for i, m := range line {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(m.Cell))
		for _, c := range (m.Wins &^ (1 << m.Cell)).Cells() {
			b.WriteByte('+')
			b.WriteString(strconv.Itoa(c))
		}
	}
	return b.String()
}

// ParseLine reads what FormatLine writes. It checks the syntax only; see
// Puzzle.Validate for the rules.
func ParseLine(s string) ([]PuzzleMove, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, Errorf(EINVALID, "a puzzle's line has at least one move")
	}
	line := make([]PuzzleMove, len(fields))
	for i, f := range fields {
		cells := strings.Split(f, "+")
		if i%2 == 1 && len(cells) > 1 {
			return nil, Errorf(EINVALID, "ply %d of a puzzle's line is the defence's: one cell, not %q", i+1, f)
		}
		for j, cs := range cells {
			c, err := strconv.Atoi(cs)
			if err != nil || c < 0 || c >= game.MaxSize*game.MaxSize {
				return nil, Errorf(EINVALID, "ply %d of a puzzle's line: %q is not a cell", i+1, f)
			}
			if j == 0 {
				line[i].Cell = c
			}
			if i%2 == 0 {
				line[i].Wins |= 1 << c
			}
		}
	}
	return line, nil
}

// Validate checks a puzzle against the rules: its shape and start, its ID,
// and a line that the solver and the defence play alternately on free
// cells, the solver's moves among its winning moves, to a line of the
// solver's on the last ply and not before. Whether the moves are the best
// is the solver's to check (internal/puzzle).
func (p *Puzzle) Validate() error {
	pos, err := p.Position()
	if err != nil {
		return err
	}
	if id := PuzzleID(pos); p.ID != id {
		return Errorf(EINVALID, "puzzle %s: its start is named %s", p.ID, id)
	}
	if p.Kind != PuzzleMissed && p.Kind != PuzzleFound {
		return Errorf(EINVALID, "puzzle %s: unknown kind %q", p.ID, p.Kind)
	}
	if len(p.Line)%2 == 0 {
		return Errorf(EINVALID, "puzzle %s: a line of %d plies does not end on the solver's move", p.ID, len(p.Line))
	}
	solver := pos.ToMove()
	for i, m := range p.Line {
		if pos.Result().Over {
			return Errorf(EINVALID, "puzzle %s: the game is over before ply %d", p.ID, i+1)
		}
		if (i%2 == 0) != (m.Wins != 0) || m.Wins&^pos.Empty() != 0 || i%2 == 0 && !m.Wins.Has(m.Cell) {
			return Errorf(EINVALID, "puzzle %s: ply %d's winning moves %v do not fit", p.ID, i+1, m.Wins.Cells())
		}
		if pos, err = pos.Play(m.Cell); err != nil {
			return Errorf(EINVALID, "puzzle %s: ply %d: %v", p.ID, i+1, err)
		}
	}
	if r := pos.Result(); r.Winner != solver {
		return Errorf(EINVALID, "puzzle %s: the line does not end in the solver's win", p.ID)
	}
	return nil
}

// EstimateRating is a new puzzle's rating before anyone tried it: harder
// the more moves the solver must find and the more moves it could play
// instead at each turn. A win in one with every move winning is 700; each
// further solver move adds 150 and each halving of the share of winning
// moves 60.
func (p *Puzzle) EstimateRating() rating.Rating {
	pos, err := p.Position()
	r := rating.Default()
	if err != nil {
		return r
	}
	free := pos.Empty().Count()
	est := 700 + 150*float64((len(p.Line)-1)/2)
	for i, m := range p.Line {
		if i%2 == 0 {
			est += 60 * math.Log2(float64(free)/float64(bits.OnesCount32(uint32(m.Wins))))
		}
		free--
	}
	r.R = min(max(est, 600), 2800)
	return r
}

// PuzzleStanding is a player's puzzle rating, apart from their game
// ratings, and their record of first attempts.
type PuzzleStanding struct {
	Player       string
	Name         string // the player's last display name seen, "" if unknown
	Rank         int    // 1-based place on the puzzle leaderboard; 0 until MinRatedGames attempts
	R, RD, Sigma float64
	Attempts     int
	Solves       int
	Streak       int // first attempts solved in a row
	Best         int // the longest streak
	UpdatedAt    time.Time
}

// PuzzleAttempt is a player's try at a puzzle.
type PuzzleAttempt struct {
	Player   string
	PuzzleID string
	Solved   bool
	Rated    bool          // a first attempt; a replay of a puzzle seen before is not
	Plies    int           // the plies played, the bot's answers included
	Took     time.Duration // from the board shown to the last move
	At       time.Time
}

// RatePuzzle counts a first attempt at a puzzle as a Glicko-2 game between
// the player, whose standing is before (zero for none yet), and the puzzle,
// rated puzzle: the player wins by solving it. It returns both after, the
// player's record and streak counted, stamped at.
func RatePuzzle(before PuzzleStanding, puzzle rating.Rating, solved bool, at time.Time) (PuzzleStanding, rating.Rating) {
	pr := rating.Default()
	if before.RD != 0 {
		pr = rating.Rating{R: before.R, RD: before.RD, Sigma: before.Sigma}.Idle(int(at.Sub(before.UpdatedAt) / RatingPeriod))
	}
	score := rating.Loss
	if solved {
		score = rating.Win
	}
	pr, puzzle = rating.UpdatePair(pr, puzzle, score, rating.DefaultTau)
	after := before
	after.R, after.RD, after.Sigma, after.UpdatedAt = pr.R, pr.RD, pr.Sigma, at
	after.Attempts++
	if solved {
		after.Solves++
		after.Streak++
		after.Best = max(after.Best, after.Streak)
	} else {
		after.Streak = 0
	}
	return after, puzzle
}

// ErrNoPuzzle: no such puzzle, or none left that the player has not seen.
var ErrNoPuzzle = &Error{Code: ENOTFOUND, Message: "no puzzle"}

// Rate counts attempt a at a puzzle rated puzzle, by a player whose
// standing is before: a first attempt (the player had not seen the
// puzzle) is rated (see RatePuzzle); a replay changes nothing. It returns
// the attempt with Rated set, and both ratings after.
func (a PuzzleAttempt) Rate(before PuzzleStanding, puzzle rating.Rating, seen bool) (PuzzleAttempt, PuzzleStanding, rating.Rating) {
	a.Rated = !seen
	if seen {
		return a, before, puzzle
	}
	after, puzzle := RatePuzzle(before, puzzle, a.Solved, a.At)
	after.Player = a.Player
	return a, after, puzzle
}

// CheckAttempt refuses an attempt no store can keep.
func CheckAttempt(a PuzzleAttempt) error {
	if a.Player == "" || a.PuzzleID == "" || a.Plies < 0 || a.Took < 0 || a.At.IsZero() {
		return Errorf(EINVALID, "an attempt needs a player, a puzzle, a time and no negative plies or duration")
	}
	return nil
}

// PuzzleLeaderboardPage is a slice of the puzzle leaderboard, best first:
// the players with MinRatedGames rated attempts or more, by conservative
// rating, R − 2·RD.
type PuzzleLeaderboardPage struct {
	Standings []PuzzleStanding
	Total     int // ranked players on the whole leaderboard
}
