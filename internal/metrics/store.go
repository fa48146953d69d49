package metrics

import (
	"context"
	"time"

	"github.com/tttbot/tttbot"
)

// Observer learns from every store call's outcome, and returns the error
// its caller gets (health.Database).
type Observer interface {
	Observe(ctx context.Context, err error) error
}

// Store returns next with every method timed under its name, and its
// outcome told to db unless db is nil. It implements each method itself,
// not by embedding, so a method added to tttbot.Store does not slip by
// unmeasured.
func (m *Metrics) Store(next tttbot.Store, db Observer) tttbot.Store {
	return &store{next: next, m: m, db: db}
}

type store struct {
	next tttbot.Store
	m    *Metrics
	db   Observer
}

// done times a call that started at start, and tells db its outcome *err,
// which db may mark.
func (s *store) done(ctx context.Context, method string, start time.Time, err *error) {
	s.m.storeSeconds.WithLabelValues(method).Observe(time.Since(start).Seconds())
	if s.db != nil {
		*err = s.db.Observe(ctx, *err)
	}
}

func (s *store) Game(ctx context.Context, id int64) (_ *tttbot.Game, err error) {
	defer s.done(ctx, "Game", time.Now(), &err)
	return s.next.Game(ctx, id)
}

func (s *store) OpenGame(ctx context.Context, channelID, user string) (_ *tttbot.Game, err error) {
	defer s.done(ctx, "OpenGame", time.Now(), &err)
	return s.next.OpenGame(ctx, channelID, user)
}

func (s *store) SetMessage(ctx context.Context, id int64, messageID string) (err error) {
	defer s.done(ctx, "SetMessage", time.Now(), &err)
	return s.next.SetMessage(ctx, id, messageID)
}

func (s *store) SetToken(ctx context.Context, id int64, t tttbot.Token) (err error) {
	defer s.done(ctx, "SetToken", time.Now(), &err)
	return s.next.SetToken(ctx, id, t)
}

func (s *store) Accept(ctx context.Context, r tttbot.AcceptRequest) (_ *tttbot.Game, err error) {
	defer s.done(ctx, "Accept", time.Now(), &err)
	return s.next.Accept(ctx, r)
}

func (s *store) Decline(ctx context.Context, id int64, user string, version int, at time.Time, check tttbot.Check) (_ *tttbot.Game, err error) {
	defer s.done(ctx, "Decline", time.Now(), &err)
	return s.next.Decline(ctx, id, user, version, at, check)
}

func (s *store) Play(ctx context.Context, mr tttbot.MoveRequest, seen *tttbot.Game) (_ *tttbot.Game, err error) {
	defer s.done(ctx, "Play", time.Now(), &err)
	return s.next.Play(ctx, mr, seen)
}

func (s *store) Resign(ctx context.Context, id int64, user string, at time.Time, check tttbot.Check) (_ *tttbot.Game, err error) {
	defer s.done(ctx, "Resign", time.Now(), &err)
	return s.next.Resign(ctx, id, user, at, check)
}

func (s *store) Assist(ctx context.Context, id int64, user string, version int) (_ *tttbot.Game, err error) {
	defer s.done(ctx, "Assist", time.Now(), &err)
	return s.next.Assist(ctx, id, user, version)
}

func (s *store) Expire(ctx context.Context, id int64, version int, at time.Time) (_ *tttbot.Game, err error) {
	defer s.done(ctx, "Expire", time.Now(), &err)
	return s.next.Expire(ctx, id, version, at)
}

func (s *store) Due(ctx context.Context, at time.Time, limit int) (_ []*tttbot.Game, err error) {
	defer s.done(ctx, "Due", time.Now(), &err)
	return s.next.Due(ctx, at, limit)
}

func (s *store) Moves(ctx context.Context, id int64) (_ []tttbot.Move, err error) {
	defer s.done(ctx, "Moves", time.Now(), &err)
	return s.next.Moves(ctx, id)
}

func (s *store) GameMoves(ctx context.Context, id int64) (_ *tttbot.Game, _ []tttbot.Move, err error) {
	defer s.done(ctx, "GameMoves", time.Now(), &err)
	return s.next.GameMoves(ctx, id)
}

func (s *store) Leaderboard(ctx context.Context, scope string, shape tttbot.Shape, offset, limit int) (_ tttbot.LeaderboardPage, err error) {
	defer s.done(ctx, "Leaderboard", time.Now(), &err)
	return s.next.Leaderboard(ctx, scope, shape, offset, limit)
}

func (s *store) Stats(ctx context.Context, scope, player string) (_ *tttbot.Stats, err error) {
	defer s.done(ctx, "Stats", time.Now(), &err)
	return s.next.Stats(ctx, scope, player)
}

func (s *store) History(ctx context.Context, player, guildID string, limit int) (_ []tttbot.HistoryEntry, err error) {
	defer s.done(ctx, "History", time.Now(), &err)
	return s.next.History(ctx, player, guildID, limit)
}

func (s *store) Remember(ctx context.Context) (err error) {
	defer s.done(ctx, "Remember", time.Now(), &err)
	return s.next.Remember(ctx)
}

func (s *store) PruneInteractions(ctx context.Context, before time.Time, limit int) (_ int, err error) {
	defer s.done(ctx, "PruneInteractions", time.Now(), &err)
	return s.next.PruneInteractions(ctx, before, limit)
}

func (s *store) StartGame(ctx context.Context, g *tttbot.Game, prepare func(*tttbot.Game, tttbot.Admission) (*tttbot.MoveRequest, error), players ...tttbot.Player) (err error) {
	defer s.done(ctx, "StartGame", time.Now(), &err)
	return s.next.StartGame(ctx, g, prepare, players...)
}

func (s *store) Settings(ctx context.Context, guildID string) (_ *tttbot.Settings, err error) {
	defer s.done(ctx, "Settings", time.Now(), &err)
	return s.next.Settings(ctx, guildID)
}

func (s *store) UpdateSettings(ctx context.Context, guildID string, change func(*tttbot.Settings) error) (_ *tttbot.Settings, err error) {
	defer s.done(ctx, "UpdateSettings", time.Now(), &err)
	return s.next.UpdateSettings(ctx, guildID, change)
}

func (s *store) ResetRatings(ctx context.Context, guildID string) (_ int, err error) {
	defer s.done(ctx, "ResetRatings", time.Now(), &err)
	return s.next.ResetRatings(ctx, guildID)
}

func (s *store) DueDaily(ctx context.Context, at time.Time) (_ []tttbot.DailyPost, err error) {
	defer s.done(ctx, "DueDaily", time.Now(), &err)
	return s.next.DueDaily(ctx, at)
}

func (s *store) DailyPosted(ctx context.Context, post tttbot.DailyPost, puzzleID, messageID string) (err error) {
	defer s.done(ctx, "DailyPosted", time.Now(), &err)
	return s.next.DailyPosted(ctx, post, puzzleID, messageID)
}

func (s *store) DailySolved(ctx context.Context, guildID, puzzleID string, day time.Time, d tttbot.DailySolve) (_ tttbot.DailyBoard, _ bool, err error) {
	defer s.done(ctx, "DailySolved", time.Now(), &err)
	return s.next.DailySolved(ctx, guildID, puzzleID, day, d)
}

func (s *store) ForgetPlayer(ctx context.Context, user string, at time.Time) (_ *tttbot.Erasure, err error) {
	defer s.done(ctx, "ForgetPlayer", time.Now(), &err)
	return s.next.ForgetPlayer(ctx, user, at)
}
