package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tttbot/tttbot"
	"github.com/tttbot/tttbot/internal/health"
)

// TournamentBoards shows the players what a tournament did;
// internal/commands renders it.
type TournamentBoards interface {
	// RoundStarted shows round s.Round's pairings and a board for each of
	// games, the round's games to play (byes and forfeits have none).
	RoundStarted(ctx context.Context, s *tttbot.TournamentState, games []*tttbot.Game) error
	// BoardsStarted shows a board for each of games, started late in
	// round s.Round.
	BoardsStarted(ctx context.Context, s *tttbot.TournamentState, games []*tttbot.Game) error
	// TournamentOver shows the final table, or that the tournament was
	// cancelled (s.Status says which).
	TournamentOver(ctx context.Context, s *tttbot.TournamentState) error
}

// tournamentQueue is how many finished games wait for RunTournaments; past
// it a tournament learns of a result at its round's deadline, which reads
// every game again.
const tournamentQueue = 256

// gameOver hands g, when it has just finished, to the puzzle miner and,
// when it is a tournament's, to the tournament runner, without waiting.
func (s *Service) gameOver(g *tttbot.Game) {
	s.mine(g)
	if g == nil || g.Status.Open() || !g.OfTournament() {
		return
	}
	select {
	case s.tournamentGames <- g.ID:
	default:
		s.log.Debug("tournament result deferred to the round's deadline: queue full", "game", g.ID)
	}
}

// CreateTournament stores t, signing up until t.Deadline, as its
// organiser asked (tttbot.Tournament.Validate).
func (s *Service) CreateTournament(ctx context.Context, t *tttbot.Tournament) error {
	if err := t.Validate(s.opts.Now()); err != nil {
		return err
	}
	t.Status, t.Round = tttbot.TournamentSignup, 0
	if err := s.store.CreateTournament(ctx, t); err != nil {
		return err
	}
	s.log.Info("tournament created", "tournament", t.ID, "guild", t.GuildID, "format", t.Format)
	return nil
}

// Tournament returns a tournament with its entrants and games.
func (s *Service) Tournament(ctx context.Context, id int64) (*tttbot.TournamentState, error) {
	return s.store.Tournament(ctx, id)
}

// SetTournamentMessage records the tournament's announcement unless one is
// recorded already — the clicks that race the first on it have nothing to
// add — reading the tournament again if it moved on meanwhile, a few times
// at most.
func (s *Service) SetTournamentMessage(ctx context.Context, id int64, messageID string) error {
	var err error
	for range 3 {
		var st *tttbot.TournamentState
		if st, err = s.store.Tournament(ctx, id); err != nil || st.MessageID != "" {
			return err
		}
		st.MessageID = messageID
		if err = s.store.Advance(ctx, &st.Tournament, nil); !errors.Is(err, tttbot.ErrTournamentMoved) {
			return err
		}
	}
	return err
}

// JoinTournament enters player, rated rating in the tournament's shape,
// while it signs up.
func (s *Service) JoinTournament(ctx context.Context, id int64, player string, rating float64) error {
	return s.store.Enter(ctx, id, tttbot.Entrant{Player: player, Rating: rating, JoinedAt: s.opts.Now()})
}

// LeaveTournament takes player out: off the list while it signs up; once
// it runs, player forfeits the rest, their open game of the round
// included (resigned), which it returns for its board to show.
func (s *Service) LeaveTournament(ctx context.Context, id int64, player string) ([]*tttbot.Game, error) {
	if err := s.store.Leave(ctx, id, player); err != nil {
		return nil, err
	}
	st, err := s.store.Tournament(ctx, id)
	if err != nil {
		return nil, err
	}
	var ended []*tttbot.Game
	s.log.Info("tournament player left", "tournament", id, "player", player, "status", st.Status)
	for _, tg := range st.Games {
		if tg.Round != st.Round || tg.Result != tttbot.ResultPending || (tg.White != player && tg.Black != player) || tg.GameID == 0 {
			continue
		}
		g, err := s.store.Resign(ctx, tg.GameID, player, s.opts.Now(), nil)
		switch tttbot.ErrorCode(err) {
		case "":
			s.gameOver(g)
			ended = append(ended, g)
		case tttbot.EFINISHED, tttbot.ESTALE:
		default:
			return ended, err
		}
	}
	return ended, nil
}

// RemoveFromTournament is the organiser by taking player out (see
// LeaveTournament).
func (s *Service) RemoveFromTournament(ctx context.Context, id int64, by, player string) ([]*tttbot.Game, error) {
	if _, err := s.organised(ctx, id, by); err != nil {
		return nil, err
	}
	return s.LeaveTournament(ctx, id, player)
}

// organised reads tournament id for its organiser, by: ErrNotOrganiser
// for anyone else.
func (s *Service) organised(ctx context.Context, id int64, by string) (*tttbot.TournamentState, error) {
	st, err := s.store.Tournament(ctx, id)
	if err != nil {
		return nil, err
	}
	if st.Organiser != by {
		return nil, tttbot.ErrNotOrganiser
	}
	return st, nil
}

// StartTournament is the organiser by closing the sign-up early: the
// first round starts now.
func (s *Service) StartTournament(ctx context.Context, id int64, by string, boards TournamentBoards) error {
	st, err := s.organised(ctx, id, by)
	if err != nil {
		return err
	}
	switch {
	case st.Status != tttbot.TournamentSignup:
		return tttbot.ErrSignupClosed
	case s.active(st) < tttbot.MinEntrants:
		return tttbot.ErrTooFewEntrants
	case st.Format == tttbot.RoundRobin && s.active(st) > tttbot.MaxRoundRobin:
		return tttbot.ErrTooManyEntrants
	}
	return s.progress(ctx, st, true, boards)
}

// CancelTournament is the organiser by calling the tournament off; the
// games under way go on, counting for nothing in it.
func (s *Service) CancelTournament(ctx context.Context, id int64, by string, boards TournamentBoards) error {
	st, err := s.organised(ctx, id, by)
	if err != nil {
		return err
	}
	if st.Status != tttbot.TournamentSignup && st.Status != tttbot.TournamentRunning {
		return tttbot.ErrTournamentOver
	}
	return s.end(ctx, st, tttbot.TournamentCancelled, boards)
}

func (s *Service) active(st *tttbot.TournamentState) int {
	n := 0
	for _, e := range st.Entrants {
		if !e.Withdrawn {
			n++
		}
	}
	return n
}

// RunTournaments runs the tournaments until ctx ends: every interval it
// acts on those whose sign-up or round ran out (see
// tttbot.TournamentStore.DueTournaments, claimed for one instance), and it
// records each finished game of a tournament as it is handed over,
// starting the next round once a round is over. Games the round's deadline
// ends are shown through gameBoards. It is the one goroutine that runs
// tournaments: whoever starts it awaits it.
func (s *Service) RunTournaments(ctx context.Context, interval time.Duration, boards TournamentBoards, gameBoards Boards) {
	t := time.NewTicker(interval)
	defer t.Stop()
	fire := func() {
		if _, err := s.FireTournaments(ctx, boards, gameBoards); err != nil && ctx.Err() == nil {
			s.log.Log(ctx, health.Level(err), "tournament timers", "err", err)
		}
	}
	for fire(); ; {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fire()
		case id := <-s.tournamentGames:
			if err := s.TournamentGameOver(ctx, id, boards); err != nil && ctx.Err() == nil {
				s.log.Log(ctx, health.Level(err), "tournament game over", "game", id, "err", err)
			}
		}
	}
}

// FireTournaments acts on every tournament due now and reports how many.
func (s *Service) FireTournaments(ctx context.Context, boards TournamentBoards, gameBoards Boards) (int, error) {
	due, err := s.store.DueTournaments(ctx, s.opts.Now(), 0)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range due {
		st, err := s.store.Tournament(ctx, t.ID)
		switch {
		case err != nil:
		case st.Status == tttbot.TournamentRunning && st.Deadline.After(s.opts.Now()):
			err = s.startLate(ctx, st, boards)
		default:
			err = s.deadline(ctx, st, boards, gameBoards)
		}
		if err != nil {
			if ctx.Err() != nil {
				return n, ctx.Err()
			}
			s.log.Log(ctx, health.Level(err), "tournament deadline", "tournament", t.ID, "err", err)
			continue
		}
		n++
	}
	return n, nil
}

// deadline acts on st, whose deadline has passed: the sign-up closes (the
// tournament starts, or is cancelled for want of players), or the round
// ends, its open games decided by tttbot.AtRoundDeadline.
func (s *Service) deadline(ctx context.Context, st *tttbot.TournamentState, boards TournamentBoards, gameBoards Boards) error {
	switch st.Status {
	case tttbot.TournamentSignup:
		if n := s.active(st); n < tttbot.MinEntrants || st.Format == tttbot.RoundRobin && n > tttbot.MaxRoundRobin {
			return s.end(ctx, st, tttbot.TournamentCancelled, boards)
		}
		return s.progress(ctx, st, true, boards)
	case tttbot.TournamentRunning:
		for _, tg := range st.Games {
			if tg.Round != st.Round || tg.Result != tttbot.ResultPending {
				continue
			}
			r := tttbot.ResultBothLose // a board whose game was never created
			if tg.GameID != 0 {
				g, err := s.store.Game(ctx, tg.GameID)
				if err != nil {
					return err
				}
				if r = tttbot.AtRoundDeadline(tg, g); g.Status.Open() {
					if err := s.endAtDeadline(ctx, g, gameBoards); err != nil {
						return err
					}
				}
			}
			if err := s.decide(ctx, st, tg, r); err != nil {
				return err
			}
		}
		next, err := s.store.Tournament(ctx, st.ID)
		if err != nil {
			return err
		}
		return s.progress(ctx, next, false, boards)
	}
	return nil
}

// startLate starts the games of the current round's boards that have
// none yet, before the round's deadline, and shows them.
func (s *Service) startLate(ctx context.Context, st *tttbot.TournamentState, boards TournamentBoards) error {
	var late []tttbot.TournamentGame
	for _, tg := range st.Games {
		if tg.Round == st.Round && tg.GameID == 0 {
			late = append(late, tg)
		}
	}
	played, err := s.createGames(ctx, &st.Tournament, late)
	if len(played) > 0 {
		s.log.Info("tournament games started late", "tournament", st.ID, "round", st.Round, "games", len(played))
		if err := boards.BoardsStarted(ctx, st, played); err != nil {
			s.log.Log(ctx, health.Level(err), "show tournament boards", "tournament", st.ID, "err", err)
		}
	}
	return err
}

// endAtDeadline ends g, open when its round ran out: the player to move
// loses it on time.
func (s *Service) endAtDeadline(ctx context.Context, g *tttbot.Game, gameBoards Boards) error {
	ended, err := s.store.RoundOver(ctx, g.ID, s.opts.Now())
	switch tttbot.ErrorCode(err) {
	case "":
		s.mine(ended)
		s.log.Info("tournament game ended by its round's deadline", "game", g.ID, "loser", g.Turn)
		return gameBoards.Fired(ctx, Result{Game: ended})
	case tttbot.EFINISHED, tttbot.ESTALE:
		return nil // it ended meanwhile: AtRoundDeadline read it open, the decision stands
	}
	return err
}

func (s *Service) decide(ctx context.Context, st *tttbot.TournamentState, tg tttbot.TournamentGame, r tttbot.TournamentResult) error {
	err := s.store.Decide(ctx, st.ID, tg.Round, tg.Board, r)
	if errors.Is(err, tttbot.ErrGameDecided) {
		return nil // decided by another instance or the game's own end
	}
	if err == nil {
		s.log.Info("tournament game decided", "tournament", st.ID, "round", tg.Round, "board", tg.Board, "result", r)
	}
	return err
}

// TournamentGameOver records the result of game id, when it is a
// tournament's, and starts the next round once its round is over.
func (s *Service) TournamentGameOver(ctx context.Context, id int64, boards TournamentBoards) error {
	tid, err := s.store.TournamentOfGame(ctx, id)
	if err != nil || tid == 0 {
		return err
	}
	g, err := s.store.Game(ctx, id)
	if err != nil {
		return err
	}
	st, err := s.store.Tournament(ctx, tid)
	if err != nil {
		return err
	}
	for _, tg := range st.Games {
		if tg.GameID != id || tg.Result != tttbot.ResultPending {
			continue
		}
		r := tttbot.TournamentResultOf(tg, g)
		if r == tttbot.ResultPending {
			return nil
		}
		if err := s.decide(ctx, st, tg, r); err != nil {
			return err
		}
		if st, err = s.store.Tournament(ctx, tid); err != nil {
			return err
		}
		return s.progress(ctx, st, false, boards)
	}
	return nil
}

// progress starts the next round of st when its sign-up closes (start) or
// its round is over, or ends it after the last; a round of byes and
// forfeits alone is over at once, so it goes on to the next. Of several
// instances at it, one starts each round (tttbot.TournamentStore.Advance);
// the others stop there.
func (s *Service) progress(ctx context.Context, st *tttbot.TournamentState, start bool, boards TournamentBoards) error {
	for {
		switch {
		case st.Status == tttbot.TournamentSignup && !start,
			st.Status == tttbot.TournamentRunning && !st.RoundOver(),
			st.Status != tttbot.TournamentSignup && st.Status != tttbot.TournamentRunning:
			return nil
		}
		games, rounds, over := st.NextRound()
		if over {
			return s.end(ctx, st, tttbot.TournamentFinished, boards)
		}
		t := st.Tournament
		t.Status, t.Round, t.Rounds = tttbot.TournamentRunning, t.Round+1, rounds
		t.Deadline = s.opts.Now().Add(t.RoundTime)
		err := s.store.Advance(ctx, &t, games)
		if errors.Is(err, tttbot.ErrTournamentMoved) {
			return nil // another instance moved it on
		} else if err != nil {
			return err
		}
		s.log.Info("tournament round started", "tournament", t.ID, "round", t.Round, "of", t.Rounds, "boards", len(games))
		played, err := s.createGames(ctx, &t, games)
		if err != nil {
			return err
		}
		if st, err = s.store.Tournament(ctx, t.ID); err != nil {
			return err
		}
		if err := boards.RoundStarted(ctx, st, played); err != nil {
			s.log.Log(ctx, health.Level(err), "show tournament round", "tournament", t.ID, "err", err)
		}
		start = false
	}
}

// createGames starts the games of a round's boards that have two players
// and no result, and links each to its board. The games speak the
// language the guild chose for its public messages, as the tournament's
// own messages do.
func (s *Service) createGames(ctx context.Context, t *tttbot.Tournament, games []tttbot.TournamentGame) ([]*tttbot.Game, error) {
	st, err := s.store.Settings(ctx, t.GuildID)
	if err != nil {
		return nil, fmt.Errorf("start round: %w", err)
	}
	var played []*tttbot.Game
	now := s.opts.Now()
	for _, tg := range games {
		if tg.Black == "" || tg.Result != tttbot.ResultPending && tg.Result != "" {
			continue
		}
		g := &tttbot.Game{GuildID: t.GuildID, ChannelID: t.ChannelID, Rows: t.Shape.Rows, Cols: t.Shape.Cols, K: t.Shape.K,
			Challenger: tg.White, Opponent: tg.Black, XPlayer: tg.White, OPlayer: tg.Black,
			Status: tttbot.StatusActive, InTournament: true, Unrated: t.Unrated, TurnTimeout: t.MoveTimeout,
			Deadline: now.Add(t.MoveTimeout), Language: st.Locale}
		if err := s.store.StartGame(ctx, g, nil); tttbot.ErrorCode(err) != "" && tttbot.ErrorCode(err) != tttbot.EINTERNAL {
			// Refused — a player has a game of their own open in the
			// channel: the others are played, and the board is tried again
			// (DueTournaments lists it) until the round's deadline, where
			// both lose.
			s.log.Debug("tournament game refused", "tournament", t.ID, "round", tg.Round, "board", tg.Board, "err", err)
			continue
		} else if err != nil {
			return played, fmt.Errorf("start round %d board %d: %w", tg.Round, tg.Board, err)
		}
		if err := s.store.LinkGame(ctx, t.ID, tg.Round, tg.Board, g.ID); err != nil {
			return played, fmt.Errorf("link round %d board %d: %w", tg.Round, tg.Board, err)
		}
		played = append(played, g)
	}
	return played, nil
}

// end closes st as status (finished or cancelled) and shows it.
func (s *Service) end(ctx context.Context, st *tttbot.TournamentState, status tttbot.TournamentStatus, boards TournamentBoards) error {
	t := st.Tournament
	t.Status, t.Deadline = status, time.Time{}
	err := s.store.Advance(ctx, &t, nil)
	if errors.Is(err, tttbot.ErrTournamentMoved) {
		return nil
	} else if err != nil {
		return err
	}
	s.log.Info("tournament over", "tournament", t.ID, "status", status, "rounds", t.Round)
	st.Tournament = t
	return boards.TournamentOver(ctx, st)
}
