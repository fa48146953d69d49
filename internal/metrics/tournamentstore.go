package metrics

import (
	"context"
	"time"

	"github.com/tttbot/tttbot"
)

func (s *store) CreateTournament(ctx context.Context, t *tttbot.Tournament) (err error) {
	defer s.done(ctx, "CreateTournament", time.Now(), &err)
	return s.next.CreateTournament(ctx, t)
}

func (s *store) Tournament(ctx context.Context, id int64) (_ *tttbot.TournamentState, err error) {
	defer s.done(ctx, "Tournament", time.Now(), &err)
	return s.next.Tournament(ctx, id)
}

func (s *store) Enter(ctx context.Context, id int64, e tttbot.Entrant) (err error) {
	defer s.done(ctx, "Enter", time.Now(), &err)
	return s.next.Enter(ctx, id, e)
}

func (s *store) Leave(ctx context.Context, id int64, player string) (err error) {
	defer s.done(ctx, "Leave", time.Now(), &err)
	return s.next.Leave(ctx, id, player)
}

func (s *store) Advance(ctx context.Context, t *tttbot.Tournament, games []tttbot.TournamentGame) (err error) {
	defer s.done(ctx, "Advance", time.Now(), &err)
	return s.next.Advance(ctx, t, games)
}

func (s *store) LinkGame(ctx context.Context, id int64, round, board int, game int64) (err error) {
	defer s.done(ctx, "LinkGame", time.Now(), &err)
	return s.next.LinkGame(ctx, id, round, board, game)
}

func (s *store) Decide(ctx context.Context, id int64, round, board int, r tttbot.TournamentResult) (err error) {
	defer s.done(ctx, "Decide", time.Now(), &err)
	return s.next.Decide(ctx, id, round, board, r)
}

func (s *store) PlayerTournaments(ctx context.Context, guildID, player string, limit int) (_ []int64, err error) {
	defer s.done(ctx, "PlayerTournaments", time.Now(), &err)
	return s.next.PlayerTournaments(ctx, guildID, player, limit)
}

func (s *store) WebTournament(ctx context.Context, webID string) (_ *tttbot.TournamentState, err error) {
	defer s.done(ctx, "WebTournament", time.Now(), &err)
	return s.next.WebTournament(ctx, webID)
}

func (s *store) TournamentOfGame(ctx context.Context, game int64) (_ int64, err error) {
	defer s.done(ctx, "TournamentOfGame", time.Now(), &err)
	return s.next.TournamentOfGame(ctx, game)
}

func (s *store) RoundOver(ctx context.Context, id int64, at time.Time) (_ *tttbot.Game, err error) {
	defer s.done(ctx, "RoundOver", time.Now(), &err)
	return s.next.RoundOver(ctx, id, at)
}

func (s *store) DueTournaments(ctx context.Context, at time.Time, limit int) (_ []*tttbot.Tournament, err error) {
	defer s.done(ctx, "DueTournaments", time.Now(), &err)
	return s.next.DueTournaments(ctx, at, limit)
}
