package tttbot

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/tttbot/tttbot/internal/tournament"
)

// MinEntrants is the fewest players a tournament starts with.
const MinEntrants = 2

// More refusals of a tournament's rules.
var (
	ErrTooFewEntrants  = &Error{Code: EINVALID, Message: "too few players entered the tournament"}
	ErrTooManyEntrants = &Error{Code: EINVALID, Message: "a round robin takes at most 16 players"}
	ErrNotOrganiser    = &Error{Code: EFORBIDDEN, Message: "only the tournament's organiser may do this"}
	ErrTournamentOver  = &Error{Code: EFINISHED, Message: "the tournament is over"}
)

// Validate refuses a tournament its organiser cannot create: a name of 1 to
// 100 characters, a known format, a board shape, a Swiss of 1 to 12
// rounds, a round time of 1 minute to 7 days, a move timeout of 10 seconds
// to the round time, a sign-up of 1 minute to 7 days.
func (t *Tournament) Validate(now time.Time) error {
	name := strings.TrimSpace(t.Name)
	// The sign-up as its organiser set it, in whole seconds: the time it
	// took to reach here is not theirs.
	signup := t.Deadline.Sub(now).Round(time.Second)
	switch {
	case name == "" || len([]rune(name)) > 100:
		return Errorf(EINVALID, "a tournament's name has 1 to 100 characters")
	case !slices.Contains([]TournamentFormat{Swiss, RoundRobin, Knockout}, t.Format):
		return Errorf(EINVALID, "no tournament format %q", t.Format)
	case t.Format == Swiss && (t.Rounds < 1 || t.Rounds > 12):
		return Errorf(EINVALID, "a Swiss has 1 to 12 rounds")
	case t.RoundTime < time.Minute || t.RoundTime > 7*24*time.Hour:
		return Errorf(EINVALID, "a round lasts 1 minute to 7 days")
	case t.MoveTimeout < 10*time.Second || t.MoveTimeout > t.RoundTime:
		return Errorf(EINVALID, "a move timeout is 10 seconds to the round's time")
	case signup < time.Minute || signup > 7*24*time.Hour:
		return Errorf(EINVALID, "a sign-up lasts 1 minute to 7 days")
	}
	return t.Shape.Validate()
}

// Seeds are the entrants in seeding order: rating, highest first, then the
// order they joined. Index i is pairing number i+1 in internal/tournament.
func (s *TournamentState) Seeds() []Entrant {
	seeds := slices.Clone(s.Entrants)
	slices.SortStableFunc(seeds, func(a, b Entrant) int { return cmp.Compare(b.Rating, a.Rating) })
	return seeds
}

// pairing is the tournament as internal/tournament sees it.
func (s *TournamentState) pairing() ([]Entrant, []tournament.Player, []tournament.Round) {
	seeds := s.Seeds()
	index := make(map[string]int, len(seeds))
	players := make([]tournament.Player, len(seeds))
	for i, e := range seeds {
		index[e.Player] = i
		players[i] = tournament.Player{Rating: e.Rating, Withdrawn: e.Withdrawn}
	}
	var rounds []tournament.Round
	for _, g := range s.Games {
		for len(rounds) < g.Round {
			rounds = append(rounds, nil)
		}
		black := tournament.Bye
		if g.Black != "" {
			black = index[g.Black]
		}
		rounds[g.Round-1] = append(rounds[g.Round-1], tournament.Game{White: index[g.White], Black: black, Result: g.Result.pairing()})
	}
	return seeds, players, rounds
}

func (r TournamentResult) pairing() tournament.Result {
	switch r {
	case ResultWhite:
		return tournament.WhiteWins
	case ResultBlack:
		return tournament.BlackWins
	case ResultDraw:
		return tournament.Draw
	case ResultBothLose:
		return tournament.BothLose
	}
	return tournament.Pending
}

// RoundOver reports whether every game of the current round is decided.
func (s *TournamentState) RoundOver() bool {
	for _, g := range s.Games {
		if g.Round == s.Round && g.Result == ResultPending {
			return false
		}
	}
	return true
}

// NextRound returns the games of the round after the current one, or
// over when the tournament has played its last round (or, in a Swiss, no
// pairing is left without a repeat). Call it once the current round is
// over. Rounds is how many rounds the event has, set at its start: a
// Swiss's, capped by tournament.MaxSwissRounds; a round robin's n−1 (n
// even) or n; a knockout's as its bracket goes.
func (s *TournamentState) NextRound() (games []TournamentGame, rounds int, over bool) {
	seeds, players, played := s.pairing()
	next := s.Round + 1
	var r tournament.Round
	rounds = s.Rounds
	switch s.Format {
	case RoundRobin:
		schedule := tournament.RoundRobin(len(players))
		rounds = len(schedule)
		if next > rounds {
			return nil, rounds, true
		}
		r = schedule[next-1]
		// A withdrawn player's game is a forfeit; a bye is a bye.
		for i, g := range r {
			switch {
			case g.IsBye():
			case players[g.White].Withdrawn && players[g.Black].Withdrawn:
				r[i].Result = tournament.BothLose
			case players[g.White].Withdrawn:
				r[i].Result = tournament.BlackWins
			case players[g.Black].Withdrawn:
				r[i].Result = tournament.WhiteWins
			}
		}
	case Swiss:
		rounds = min(s.Rounds, tournament.MaxSwissRounds(len(players)))
		if next > rounds {
			return nil, rounds, true
		}
		var err error
		if r, err = tournament.Swiss(players, played); err != nil {
			return nil, s.Round, true
		}
	case Knockout:
		var done bool
		if r, done = tournament.Knockout(players, played); done {
			return nil, s.Round, true
		}
		rounds = max(s.Round+1, knockoutRounds(len(players)))
	}
	for b, g := range r {
		tg := TournamentGame{Round: next, Board: b + 1, White: seeds[g.White].Player, Result: fromPairing(g.Result)}
		if !g.IsBye() {
			tg.Black = seeds[g.Black].Player
		}
		games = append(games, tg)
	}
	return games, rounds, false
}

func knockoutRounds(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}

func fromPairing(r tournament.Result) TournamentResult {
	switch r {
	case tournament.WhiteWins:
		return ResultWhite
	case tournament.BlackWins:
		return ResultBlack
	case tournament.Draw:
		return ResultDraw
	case tournament.BothLose:
		return ResultBothLose
	}
	return ResultPending
}

// Place is an entrant's line in the table (see tournament.Standing).
type Place struct {
	Entrant
	Rank                              int
	Points, Buchholz, SonnebornBerger float64
	Wins, Draws, Losses, Byes         int
	// In a knockout, whose table has no tie-breaks: Reached is the round
	// the player is in, or went out in when Out (lost, or withdrew).
	Reached int
	Out     bool
}

// Won reports whether p, of a knockout of rounds rounds, won its final:
// a knockout's Points are the rounds a player came through.
func (p Place) Won(rounds int) bool { return !p.Out && p.Points == float64(rounds) }

// Standings returns the table, first place first (see
// tournament.Standings and tournament.KnockoutStandings).
func (s *TournamentState) Standings() []Place {
	seeds, players, played := s.pairing()
	var st []tournament.Standing
	if s.Format == Knockout {
		st = tournament.KnockoutStandings(players, played)
	} else {
		st = tournament.Standings(players, played)
	}
	out := make([]Place, len(st))
	for i, p := range st {
		out[i] = Place{Entrant: seeds[p.Player], Rank: p.Rank, Points: p.Points, Buchholz: p.Buchholz,
			SonnebornBerger: p.SonnebornBerger, Wins: p.Wins, Draws: p.Draws, Losses: p.Losses, Byes: p.Byes}
	}
	if s.Format == Knockout {
		s.reached(out)
	}
	return out
}

// reached sets the Reached and Out of a knockout's places: a player is in
// the round of their last board, out of it once it is decided and they did
// not go through — a win or a bye does, and a draw sends Black through, as
// tournament.Knockout pairs —, and out of the next when they withdrew
// after going through.
func (s *TournamentState) reached(places []Place) {
	at := make(map[string]int, len(places))
	for i, p := range places {
		at[p.Player] = i
	}
	for _, g := range s.Games {
		for _, player := range []string{g.White, g.Black} {
			i, ok := at[player]
			if player == "" || !ok {
				continue
			}
			through := g.Result == ResultWhite && player == g.White || g.Result == ResultBlack && player == g.Black ||
				g.Result == ResultDraw && player == g.Black
			p := &places[i]
			p.Reached = max(p.Reached, g.Round)
			p.Out = g.Result != ResultPending && !through
		}
	}
	for i := range places {
		if p := &places[i]; p.Withdrawn && !p.Out {
			p.Out, p.Reached = true, p.Reached+1
		}
	}
}

// TournamentResultOf is the result that game g, played for board tg, gives
// once it is over: its winner's colour, a draw, or both lose when it ended
// with no winner and no draw (cancelled). ResultPending while it runs.
func TournamentResultOf(tg TournamentGame, g *Game) TournamentResult {
	switch {
	case g.Status.Open():
		return ResultPending
	case g.Winner == tg.White:
		return ResultWhite
	case g.Winner == tg.Black && g.Winner != "":
		return ResultBlack
	case g.Status == StatusFinished && g.Reason == ReasonDraw:
		return ResultDraw
	}
	return ResultBothLose
}

// AtRoundDeadline is the bot's rule for a game of board tg still open when
// its round ends: the player to move loses on time; when no move was made
// at all, both were absent and both lose.
func AtRoundDeadline(tg TournamentGame, g *Game) TournamentResult {
	switch {
	case !g.Status.Open():
		return TournamentResultOf(tg, g)
	case g.Status == StatusPending || g.Unplayed():
		return ResultBothLose
	case g.Turn == tg.White:
		return ResultBlack
	}
	return ResultWhite
}
